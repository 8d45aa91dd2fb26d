import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http'
import type { Readable } from 'node:stream'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { requestedOrigin } from '../http/request-origin.js'
import type { Logger } from '../log/logger.js'
import type { LocationRewriter } from './location-rewrite.js'
import { errorCode, sendUpstreamFailure, targetLabel } from './proxy-error.js'
import { buildClientHeaders } from './response-headers.js'
import { abortResponse, isResponseClosed } from './response-state.js'

/** The upstream's answer: status, headers, and the body as a stream that must be consumed or destroyed. */
export interface UpstreamResponse {
  statusCode: number
  headers: IncomingHttpHeaders
  body: Readable
}

/**
 * Drops a body that will not be relayed. undici's body reports an early destroy as an
 * `AbortError` event, which must have a listener or it would crash the dev server.
 */
export function discard(body: Readable): void {
  body.on('error', () => undefined)
  body.destroy()
}

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
  headers: OutgoingHttpHeaders,
  target: URL,
  logger: Logger,
  /** Headers already on `res` that came from the target, to take off too if Node refuses one. */
  onResponse: readonly string[] = [],
): boolean {
  try {
    ;(res as { writeHead(status: number, headers: object): unknown }).writeHead(statusCode, headers)
    return true
  } catch (error) {
    for (const name of Object.keys(headers)) res.removeHeader(name)
    for (const name of onResponse) res.removeHeader(name)
    answerInvalidHeader(req, res, target, error, logger)
    return false
  }
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
  logger.warn(`502 ${req.method} ${req.url} → ${label}: ${failure.cause}`, `${label} ${failure.cause}`)
  sendUpstreamFailure(req, res, failure, label)
}

/** Server-sent events are read event by event: their headers must reach the browser at once. */
export function isEventStream(contentType: unknown): boolean {
  return typeof contentType === 'string' && contentType.toLowerCase().startsWith('text/event-stream')
}

/** What `sendUpstreamResponse` can do besides relaying, all optional. */
export interface RelayOptions {
  /** Points redirects at the target back at the dev server (see `createLocationRewrite`). */
  rewriteLocation?: LocationRewriter | undefined
}

/**
 * Relays the upstream response: status, cleaned headers (see `buildClientHeaders`, with
 * redirects pointed back at the dev server), then the body piped with back-pressure, both ends
 * tied: the upstream ending the body ends the client's response (an event stream included,
 * where Vite's proxy leaves the browser hanging), the upstream failing mid-body destroys the
 * client's response so the browser sees an error rather than a short body, and the client
 * leaving destroys the upstream body, which makes undici abort the request and drop that
 * connection.
 */
export function sendUpstreamResponse(
  req: ProxyRequest,
  res: ProxyResponse,
  upstream: UpstreamResponse,
  route: ResolvedForwardRoute,
  logger: Logger,
  options: RelayOptions = {},
): void {
  const body = upstream.body
  if (isResponseClosed(res)) {
    discard(body)
    return
  }
  const headers = buildClientHeaders(upstream.headers, route, {
    http2: req.httpVersionMajor === 2,
    rewriteLocation: options.rewriteLocation,
    browserOrigin: requestedOrigin(req),
  })
  // RFC 9110 section 8.6: no Content-Length on a 204 (HTTP/2 clients refuse it as malformed).
  if (upstream.statusCode === 204) delete headers['content-length']
  const bodiless = isBodiless(req.method, upstream.statusCode)
  if (!bodiless && body.destroyed && !body.readableEnded) {
    // The body failed before the relay began (while a `proxyRes` hook ran): its error was
    // reported to no one, and piping it would leave the client waiting for ever. Nothing has
    // been sent yet, so the client can still get a status.
    discard(body)
    answerBrokenOff(req, res, targetLabel(route.target), body.errored, logger)
    return
  }
  if (!writeUpstreamHead(req, res, upstream.statusCode, headers, route.target, logger)) {
    discard(body)
    return
  }
  if (bodiless) {
    // Nothing to pipe. Servers that send `Content-Length: N` on a 204 or 304 make undici fail
    // the (empty) body with a length mismatch, which must not break the client's answer.
    discard(body)
    res.end()
    return
  }
  if (isEventStream(headers['content-type']) && 'flushHeaders' in res) res.flushHeaders()
  // `pipe` rather than `pipeline`: the same back-pressure with less work per request (a quarter
  // more requests per second measured on small answers), the two ends tied by hand.
  let clientGone = false
  res.once('close', () => {
    if (body.readableEnded) return
    clientGone = true
    discard(body)
  })
  body.on('error', (error) => {
    abortResponse(res)
    const label = targetLabel(route.target)
    if (clientGone) {
      logger.debug(`${req.method} ${req.url}: the client went away during the response of ${label}`)
      return
    }
    logger.warn(
      `${req.method} ${req.url} → ${label}: the server broke off its response (${errorCode(error) ?? error.message})`,
      `${label} response broke off`,
    )
  })
  body.pipe(res)
}
