import type {
  ContractOperation,
  ContractRequest,
  ContractResponse,
  RecordedAnswer,
  RecordedRequest,
} from '@cors-dev-proxy/core/adapter'

/*
 * A recording file read back as the exchanges the checker takes. The answers are stored whole
 * (JSON data, text, or base64 bytes still encoded), so they are checked as they came. The request
 * is not: its file holds only what the replay matches on, the body as its key (`json <canonical
 * JSON>`, `form <sorted pairs>`, a GraphQL call by operation and variables, a multipart form by
 * its fields, other bytes by their hash), no `Content-Type`, and only the headers
 * `match.matchHeaders` names. So a JSON or form body is rebuilt with the media type the
 * operation declares for it, the others are not checked (and say so), and a required header or
 * cookie the file cannot hold is not reported missing.
 */

/** A request rebuilt from its file, and why its body is not checked when it is not. */
export interface RebuiltRequest {
  readonly request: ContractRequest
  /** Set when the recorded body cannot be sent to the checker as it was sent. */
  readonly bodyNotChecked?: string
  /** The request headers the file holds (lowercase names): only these are checked. */
  readonly recordedHeaders: ReadonlySet<string>
}

const FORM_TYPE = 'application/x-www-form-urlencoded'

/** The media types the operation's request body declares, as written. */
function declaredRequestTypes(operation: ContractOperation): string[] {
  const body = operation.definition.requestBody as { content?: Record<string, unknown> } | undefined
  return Object.keys(body?.content ?? {})
}

/** The declared type a rebuilt body is sent as: the first that `fits`, else `fallback`. */
function declaredType(
  operation: ContractOperation,
  fits: (type: string) => boolean,
  fallback: string,
): string {
  return declaredRequestTypes(operation).find((type) => fits(type.toLowerCase())) ?? fallback
}

/** The body and its type from the body's key, or why it cannot be rebuilt. */
function bodyFromKey(
  key: string,
  operation: ContractOperation,
): { body: string; type: string } | { notChecked: string } {
  if (key.startsWith('json ')) {
    const type = declaredType(operation, (one) => /[/+]json\b/.test(one), 'application/json')
    return { body: key.slice(5), type }
  }
  if (key.startsWith('form '))
    return { body: key.slice(5), type: declaredType(operation, (one) => one === FORM_TYPE, FORM_TYPE) }
  if (key.startsWith('graphql '))
    return { notChecked: 'the file holds a GraphQL call by its operation and variables, not its body' }
  if (key.startsWith('multipart '))
    return { notChecked: 'the file holds a multipart form by its fields, not its body' }
  if (/^sha256 [0-9a-f]{64}$/.test(key)) return { notChecked: 'the file holds a binary body by its hash' }
  // Other text is kept as it was sent; its type is not in the file, so the operation must name one.
  const declared = declaredRequestTypes(operation)
  if (declared.length === 1 && declared[0] !== undefined) return { body: key, type: declared[0] }
  return { notChecked: "the file does not hold the body's Content-Type" }
}

/**
 * The request of a recording as the checker reads it: the backend path and query (already
 * mapped through the route), the headers the file holds, and the body rebuilt from its key.
 *
 * @example
 * rebuildRequest(recording.request, operation, '/v1/pets', '?limit=2')
 */
export function rebuildRequest(
  recorded: RecordedRequest,
  operation: ContractOperation,
  pathname: string,
  search: string,
): RebuiltRequest {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(recorded.headers ?? {})) headers[name.toLowerCase()] = value
  const recordedHeaders = new Set(Object.keys(headers))
  const base = { method: recorded.method, pathname, search }
  if (recorded.body === undefined) return { request: { ...base, headers }, recordedHeaders }
  const rebuilt = bodyFromKey(recorded.body, operation)
  if ('notChecked' in rebuilt) {
    return { request: { ...base, headers }, bodyNotChecked: rebuilt.notChecked, recordedHeaders }
  }
  headers['content-type'] = rebuilt.type
  recordedHeaders.add('content-type')
  return { request: { ...base, headers, body: Buffer.from(rebuilt.body, 'utf8') }, recordedHeaders }
}

/**
 * A recorded answer as the checker reads it: its headers (a field recorded twice joined with
 * `, `), its body as it came. JSON and text bodies are stored decoded, so their
 * `content-encoding` (if the file kept one) no longer applies; base64 bodies are the bytes as
 * sent, decoded by the checker. An event stream's pieces are joined (the checker skips the type).
 *
 * @example
 * operation.checkResponse(rebuildResponse(recording.answers[0]))
 */
export function rebuildResponse(answer: RecordedAnswer): ContractResponse {
  const headers: Record<string, string> = {}
  for (const [name, value] of answer.headers) {
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
  }
  const { body, chunks } = answer
  if (body === undefined) {
    const text = (chunks ?? []).map((chunk) => chunk.text).join('')
    return { status: answer.status, headers, body: Buffer.from(text, 'utf8') }
  }
  if (body.kind === 'base64')
    return { status: answer.status, headers, body: Buffer.from(body.base64, 'base64') }
  delete headers['content-encoding']
  const text = body.kind === 'json' ? JSON.stringify(body.json) : body.text
  return { status: answer.status, headers, body: Buffer.from(text, 'utf8') }
}
