import { hasBody } from '../../http/has-body.js'
import { isJsonMimeType } from '../../http/mime.js'
import type { ProxyRequest } from '../../http/proxy-types.js'
import { readLimitedBody } from '../../http/read-limited-body.js'
import type { MockAnswerProblem, ResolvedMockAnswer } from './options/route-mock-answer.js'
import { mockAnswerOf } from './options/route-mock-answer.js'
import type { MockFunction, MockRequest } from './options/route-mocks-options.js'

/** What a function mock came to. */
export type FunctionMockOutcome =
  /** It answered (checked), or what is wrong with what it returned. */
  | ResolvedMockAnswer
  | MockAnswerProblem
  /** It returned `undefined`: the request goes on to the target. */
  | undefined
  /** The request body is longer than the function may be given. */
  | 'too-large'

/**
 * The request's body, read whole up to `limit` bytes, and left on `req.body` so that a request
 * the function passes on is still forwarded with it (the forwarder sends a read `req.body` again).
 * A body a parser already read is taken as it is.
 */
async function readBody(req: ProxyRequest, limit: number): Promise<Buffer | 'too-large' | undefined> {
  const carrier = req as { body?: unknown }
  if (carrier.body !== undefined || !hasBody(req) || req.readableEnded) return undefined
  const body = await readLimitedBody(req, limit)
  if (body !== undefined && body !== 'too-large') carrier.body = body
  return body
}

/** The body as the function sees it: JSON data for a JSON type that parses, else text. */
function bodyValue(req: ProxyRequest, bytes: Buffer | undefined): unknown {
  const parsed = (req as { body?: unknown }).body
  const raw =
    bytes ?? (Buffer.isBuffer(parsed) || typeof parsed === 'string' ? Buffer.from(parsed) : undefined)
  if (raw === undefined) return parsed
  const text = raw.toString('utf8')
  if (!isJsonMimeType(req.headers['content-type'])) return text
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/**
 * Asks a function mock for its answer to one request (its body read first, up to `limit` bytes),
 * and checks what it returned as a fixed answer is checked. Rejects when the function throws or
 * rejects: the caller names the key in its 500.
 *
 * @example
 * const outcome = await askFunctionMock(mock, req, '/users/42', { id: '42' }, 1048576)
 */
export async function askFunctionMock(
  mock: MockFunction,
  req: ProxyRequest,
  path: string,
  params: Readonly<Record<string, string>>,
  limit: number,
): Promise<FunctionMockOutcome> {
  const bytes = await readBody(req, limit)
  if (bytes === 'too-large') return 'too-large'
  const url = req.url ?? '/'
  const query = url.indexOf('?')
  const request: MockRequest = {
    method: req.method ?? 'GET',
    path,
    params,
    query: new URLSearchParams(query === -1 ? '' : url.slice(query + 1)),
    headers: req.headers,
    body: bodyValue(req, bytes),
  }
  const answer = await mock(request)
  return answer === undefined ? undefined : mockAnswerOf(answer)
}
