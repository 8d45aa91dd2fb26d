import { bodyData } from './find-recording.js'
import type { ResolvedMatch } from './options/resolve-match-options.js'
import type { RecordedRequest } from './recording-format.js'
import type { IndexedRecording } from './route-index.js'

/*
 * What parts a request that no recording matches differs in from the closest recording: its
 * method, its path, a query key, a body field (at any depth, by its dotted name), a header that
 * `match.matchHeaders` names. Both sides are as the key holds them (secret values masked), so a
 * difference never shows a secret.
 */

/** One part that differs; `recorded` or `request` is `undefined` where that side lacks it. */
export interface Difference {
  readonly part: 'method' | 'path' | 'query' | 'body' | 'header'
  /** The query key, the body field (`filter.tag`), the header name; absent for method, path and a whole body. */
  readonly name?: string
  readonly recorded: string | undefined
  readonly request: string | undefined
}

/** The closest recording and how the request differs from it. */
export interface ClosestRecording {
  readonly name: string
  readonly differences: readonly Difference[]
}

/** A body value as the diff shows it: JSON (a string quoted, so `"1"` and `1` differ), at most 80 characters. */
function shown(value: unknown): string | undefined {
  if (value === undefined) return undefined
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

function splitPath(path: string): [string, URLSearchParams] {
  const question = path.indexOf('?')
  return question < 0
    ? [path, new URLSearchParams()]
    : [path.slice(0, question), new URLSearchParams(path.slice(question + 1))]
}

function queryDifferences(recorded: URLSearchParams, request: URLSearchParams): Difference[] {
  const names = [...new Set([...recorded.keys(), ...request.keys()])].sort()
  return names.flatMap((name) => {
    const a = recorded.getAll(name).sort().join(',')
    const b = request.getAll(name).sort().join(',')
    if (a === b) return []
    return [
      {
        part: 'query',
        name,
        recorded: recorded.has(name) ? a : undefined,
        request: request.has(name) ? b : undefined,
      },
    ]
  })
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** Field by field at any depth; with `subset`, fields only the request has are no difference. */
function bodyDifferences(recorded: unknown, request: unknown, subset: boolean, at = ''): Difference[] {
  if (isObject(recorded) && isObject(request)) {
    const names = [...new Set([...Object.keys(recorded), ...(subset ? [] : Object.keys(request))])].sort()
    return names.flatMap((name) =>
      bodyDifferences(recorded[name], request[name], subset, at === '' ? name : `${at}.${name}`),
    )
  }
  if (JSON.stringify(recorded) === JSON.stringify(request)) return []
  return [
    { part: 'body', ...(at === '' ? {} : { name: at }), recorded: shown(recorded), request: shown(request) },
  ]
}

/**
 * How `request` differs from `recorded`, part by part.
 *
 * @example
 * differences({ method: 'GET', path: '/items?page=3', body: undefined }, recordedRequest, undefined)
 * // [{ part: 'query', name: 'page', recorded: '2', request: '3' }]
 */
export function differences(
  request: RecordedRequest,
  recorded: RecordedRequest,
  match: ResolvedMatch | undefined,
): Difference[] {
  const found: Difference[] = []
  if (request.method !== recorded.method) {
    found.push({ part: 'method', recorded: recorded.method, request: request.method })
  }
  const [recordedPath, recordedQuery] = splitPath(recorded.path)
  const [requestPath, requestQuery] = splitPath(request.path)
  if (recordedPath !== requestPath) found.push({ part: 'path', recorded: recordedPath, request: requestPath })
  found.push(...queryDifferences(recordedQuery, requestQuery))
  found.push(...bodyDifferences(bodyData(recorded.body), bodyData(request.body), match?.body === 'subset'))
  for (const name of match?.matchHeaders ?? []) {
    const a = recorded.headers?.[name]
    const b = request.headers?.[name]
    if (a !== b) found.push({ part: 'header', name, recorded: a, request: b })
  }
  return found
}

/** The length of the path both have from the start. */
function commonLength(a: string, b: string): number {
  let common = 0
  while (common < a.length && common < b.length && a[common] === b[common]) common++
  return common
}

/**
 * The recording most like `request` (the same method first, then the longest path in common,
 * then the fewest differences), and its differences; `undefined` for a route with none.
 *
 * @example
 * const closest = closestRecording(await store.index(prefix).recordings(), request, route.match)
 */
export function closestRecording(
  recordings: readonly IndexedRecording[],
  request: RecordedRequest,
  match: ResolvedMatch | undefined,
): ClosestRecording | undefined {
  let best: [ClosestRecording, number] | undefined
  const [requestPath] = splitPath(request.path)
  for (const { name, recording } of recordings) {
    const found = differences(request, recording.request, match)
    const [recordedPath] = splitPath(recording.request.path)
    const score =
      (recording.request.method === request.method ? 1_000_000 : 0) +
      commonLength(recordedPath, requestPath) * 100 -
      Math.abs(recordedPath.length - requestPath.length) -
      found.length
    if (best === undefined || score > best[1]) best = [{ name, differences: found }, score]
  }
  return best?.[0]
}

/**
 * The differences in one line (for the log and the header).
 *
 * @example
 * describeDifferences([{ part: 'query', name: 'page', recorded: '2', request: '3' }])
 * // 'query page: recorded 2, sent 3'
 */
export function describeDifferences(found: readonly Difference[]): string {
  if (found.length === 0) return 'nothing the key compares (a secret, or an edited file)'
  return found
    .map(({ part, name, recorded, request }) => {
      const what = name === undefined ? part : `${part} ${name}`
      return `${what}: recorded ${recorded ?? '(none)'}, sent ${request ?? '(none)'}`
    })
    .join('; ')
}
