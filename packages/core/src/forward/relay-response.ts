import type { OutgoingHttpHeaders } from 'node:http'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import type { Logger } from '../log/logger.js'
import { errorCode, sendUpstreamFailure, targetLabel } from './proxy-error.js'

/**
 * Whether the answer has no body whatever its head says (RFC 9110 section 6.4.1): the answer to
 * HEAD, 1xx, 204 and 304. Its `Content-Length` describes the representation, not bytes to come.
 */
export function isBodiless(method: string | undefined, status: number): boolean {
  return method === 'HEAD' || status === 204 || status === 304 || status < 200
}

/**
 * Writes the head of the client's response, the upstream's status and cleaned headers; `false`
 * when Node refuses them (an invalid value, a status it does not know), after answering 502
 * naming the cause instead. The HTTP/2 layer only checks headers when it sends the head: none of
 * them may stay for the 502.
 *
 * @example
 * if (!writeUpstreamHead(req, res, 200, headers, route.target, logger)) return
 */
export function writeUpstreamHead(
  req: ProxyRequest,
  res: ProxyResponse,
  statusCode: number,
  /** An object, or a flat `[name, value, ...]` list (see `buildClientHeadList`). */
  headers: OutgoingHttpHeaders | readonly string[],
  target: URL,
  logger: Logger,
  /** Whether the headers already on `res` came from the target: taken off too if Node refuses one. */
  fromTargetOnResponse = false,
): boolean {
  try {
    ;(res as { writeHead(status: number, headers: object): unknown }).writeHead(statusCode, headers)
    return true
  } catch (error) {
    for (const name of headerNames(headers)) res.removeHeader(name)
    if (fromTargetOnResponse) for (const name of res.getHeaderNames()) res.removeHeader(name)
    answerInvalidHeader(req, res, target, error, logger)
    return false
  }
}

/** The names of a head given to `writeHead`: an object's keys, or every other item of a flat list. */
function headerNames(headers: OutgoingHttpHeaders | readonly string[]): string[] {
  if (!Array.isArray(headers)) return Object.keys(headers)
  const names: string[] = []
  for (let index = 0; index < headers.length; index += 2) names.push(headers[index] as string)
  return names
}

/**
 * Answers 502 naming the header Node refused to send (an invalid value, a status it does not
 * know), and logs it once per target: what the target sent cannot reach the client as it is.
 *
 * @example
 * try { res.setHeader(name, value) } catch (error) { answerInvalidHeader(req, res, target, error, logger) }
 */
export function answerInvalidHeader(
  req: ProxyRequest,
  res: ProxyResponse,
  target: URL,
  error: unknown,
  logger: Logger,
): void {
  const label = targetLabel(target)
  const failure = {
    status: 502 as const,
    cause: 'invalid response header',
    hint: `the server at ${label} sent a header Node cannot forward (${errorCode(error) ?? String(error)})`,
    code: errorCode(error),
  }
  logger.error(
    `502 ${req.method} ${req.url} → ${label}: ${failure.cause} (${failure.hint})`,
    `${label} ${failure.cause}`,
  )
  sendUpstreamFailure(req, res, failure, label)
}

/**
 * Answers 502 for an answer whose body failed before anything of it was relayed (while a
 * `proxyRes` hook ran): the client can still get a status, never a body taken for whole.
 *
 * @example
 * answerBrokenOff(req, res, 'http://localhost:3000', error, logger)
 */
export function answerBrokenOff(
  req: ProxyRequest,
  res: ProxyResponse,
  label: string,
  error: unknown,
  logger: Logger,
): void {
  const failure = {
    status: 502 as const,
    cause: 'response broken off',
    hint: `the server at ${label} closed the connection in the middle of its answer: check its log`,
    code: errorCode(error),
  }
  logger.warn(
    `502 ${req.method} ${req.url} → ${label}: ${failure.cause} (${failure.hint})`,
    `${label} ${failure.cause}`,
  )
  sendUpstreamFailure(req, res, failure, label)
}

/** Server-sent events are read event by event: their headers must reach the browser at once. */
export function isEventStream(contentType: unknown): boolean {
  return typeof contentType === 'string' && contentType.toLowerCase().startsWith('text/event-stream')
}
