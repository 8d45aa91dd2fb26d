/*
 * The parts of a request's key that need no Node: the query's pairs in any order, JSON compared
 * as data, a GraphQL call by its operation and variables, a form by its pairs. The proxy's key
 * (recording-key.ts) and the in-memory replay of exported handlers (../replay-session/, which runs
 * in a browser too) both build on them, so a recording matches the same requests in both.
 */

/**
 * The pairs of `query` sorted, those of `ignore` left out.
 *
 * @example
 * sortedQuery('b=2&_t=9&a=1', ['_t']) // 'a=1&b=2'
 */
export function sortedQuery(query: string, ignore: readonly string[] = []): string {
  return query
    .split('&')
    .filter((pair) => pair !== '' && (ignore.length === 0 || !ignore.includes(queryName(pair))))
    .sort()
    .join('&')
}

/**
 * The decoded name of a query pair.
 *
 * @example
 * queryName('_t=1') // '_t'
 */
export function queryName(pair: string): string {
  const equals = pair.indexOf('=')
  const name = (equals < 0 ? pair : pair.slice(0, equals)).replace(/\+/g, ' ')
  try {
    return decodeURIComponent(name)
  } catch {
    return name
  }
}

/**
 * JSON with its keys sorted at every depth: JSON compared as data.
 *
 * @example
 * canonicalJson({ b: 1, a: { d: 2, c: 3 } }) // '{"a":{"c":3,"d":2},"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  const entries = Object.keys(value)
    .sort()
    .map((name) => `${JSON.stringify(name)}:${canonicalJson((value as Record<string, unknown>)[name])}`)
  return `{${entries.join(',')}}`
}

/** A GraphQL call (`{ query, operationName?, variables? }`) by what it asks, not how it is formatted. */
function graphqlKey(body: Record<string, unknown>): string | undefined {
  if (typeof body.query !== 'string') return undefined
  const operation =
    typeof body.operationName === 'string' && body.operationName !== ''
      ? body.operationName
      : body.query.replace(/\s+/g, ' ').trim()
  return `graphql ${operation} ${canonicalJson(body.variables ?? {})}`
}

/**
 * The masked body as the match compares it: JSON as canonical data (GraphQL by operation and
 * variables), a form by its sorted pairs, other text as it is.
 *
 * @example
 * maskedBodyKey('{"b":1,"a":2}', 'application/json') // 'json {"a":2,"b":1}'
 */
export function maskedBodyKey(masked: string, contentType: string | undefined): string {
  const type = (contentType ?? '').toLowerCase()
  if (type.includes('application/x-www-form-urlencoded')) return `form ${sortedQuery(masked)}`
  try {
    const data: unknown = JSON.parse(masked)
    if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
      const graphql = graphqlKey(data as Record<string, unknown>)
      if (graphql !== undefined) return graphql
    }
    return `json ${canonicalJson(data)}`
  } catch {
    return masked
  }
}
