import type { IncomingHttpHeaders } from 'node:http'
import type { Http2ServerRequest } from 'node:http2'
import type { Readable } from 'node:stream'
import type { ProblemReport } from '../config/path-rewrite.js'
import { joinTargetPath } from '../config/path-rewrite.js'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import type { Logger } from '../log/logger.js'
import { ClientAbort } from './client-abort.js'
import {
  describeUpstreamError,
  errorCode,
  logUpstreamFailure,
  sendUpstreamFailure,
  targetLabel,
} from './proxy-error.js'
import { buildUpstreamHeaders } from './request-headers.js'
import { buildClientHeaders } from './response-headers.js'
import { abortResponse, isResponseClosed } from './response-state.js'
import type { UpstreamPool } from './upstream-pool.js'

/** The upstream's answer: status, headers, and the body as a stream that must be consumed or destroyed. */
export interface UpstreamResponse {
  statusCode: number
  headers: IncomingHttpHeaders
  body: Readable
}

/**
 * Per-request options of {@link requestUpstream}.
 *
 * @example
 * requestUpstream(req, route, '/api/users', pool, { signal: controller.signal })
 */
export interface RequestUpstreamOptions {
  /**
   * Aborts the upstream request (and its connection) when it fires.
   * @default none
   */
  signal?: AbortSignal
  /**
   * Told when the route's `pathRewrite` function misbehaves (it then forwards the path unchanged).
   * @default ignore
   */
  report?: ProblemReport
}

/** What the forwarder needs besides the route. */
export interface ForwardDeps {
  pool: UpstreamPool
  logger: Logger
}

/**
 * Whether the client's request carries a body to stream upstream. HTTP/1.1 frames a body with
 * Content-Length or Transfer-Encoding (RFC 9112 section 6.3); HTTP/2 ends a body-less request
 * with END_STREAM on its HEADERS frame (RFC 9113 section 8.1), which Node reports as
 * `endAfterHeaders`. Without one, undici sends no body and no Content-Length for GET.
 */
function hasBody(req: ProxyRequest): boolean {
  if (req.httpVersionMajor === 2) return !(req as Http2ServerRequest).stream.endAfterHeaders
  const length = req.headers['content-length']
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
}

/**
 * Sends the client's request to the route's target through the route's keep-alive pool and
 * resolves with the response head; the body streams on (`body`, back-pressured). The request
 * body is streamed too, straight from the client, never buffered. Rejects with undici's error
 * (connection refused, headers timeout...), which {@link describeUpstreamError} explains.
 *
 * `path` is the matched, normalized path with its query (`matchRoute`'s `path`); the route's
 * `rewritePath` and the target's base path are applied here. Exported so an embedder can read
 * an answer itself before relaying it (with {@link sendUpstreamResponse} or otherwise).
 *
 * @example
 * const upstream = await requestUpstream(req, route, '/api/users?page=2', pool)
 * upstream.statusCode // 200
 */
export function requestUpstream(
  req: ProxyRequest,
  route: ResolvedForwardRoute,
  path: string,
  pool: UpstreamPool,
  options: RequestUpstreamOptions = {},
): Promise<UpstreamResponse> {
  try {
    return pool.poolFor(route).request({
      method: req.method ?? 'GET',
      path: joinTargetPath(route.target, route.rewritePath(path, req, options.report)),
      headers: buildUpstreamHeaders(req, route),
      body: hasBody(req) ? req : null,
      signal: options.signal,
      headersTimeout: route.timeout,
      bodyTimeout: 0,
    })
  } catch (error) {
    // Request time never throws: whatever went wrong is answered like an upstream failure.
    return Promise.reject(error)
  }
}

/**
 * Drops a body that will not be relayed. undici's body reports an early destroy as an
 * `AbortError` event, which must have a listener or it would crash the dev server.
 */
function discard(body: Readable): void {
  body.on('error', () => undefined)
  body.destroy()
}

/** Server-sent events are read event by event: their headers must reach the browser at once. */
function isEventStream(contentType: unknown): boolean {
  return typeof contentType === 'string' && contentType.toLowerCase().startsWith('text/event-stream')
}

/**
 * Relays the upstream response: status, cleaned headers (see `buildClientHeaders`), then the
 * body piped with back-pressure, both ends tied: the upstream ending the body ends the client's
 * response (an event stream included, where Vite's proxy leaves the browser hanging), the
 * upstream failing mid-body destroys the client's response so the browser sees an error
 * rather than a short body, and the client leaving destroys the upstream body, which makes
 * undici abort the request and drop that connection.
 */
export function sendUpstreamResponse(
  req: ProxyRequest,
  res: ProxyResponse,
  upstream: UpstreamResponse,
  route: ResolvedForwardRoute,
  logger: Logger,
): void {
  const body = upstream.body
  if (isResponseClosed(res)) {
    discard(body)
    return
  }
  const headers = buildClientHeaders(upstream.headers, route, { http2: req.httpVersionMajor === 2 })
  try {
    ;(res as { writeHead(status: number, headers: object): unknown }).writeHead(upstream.statusCode, headers)
  } catch (error) {
    // Node refuses a header it cannot send (an invalid value, a status it does not know). The
    // HTTP/2 layer only checks them when it sends the head: none of them may stay for the 502.
    discard(body)
    for (const name of Object.keys(headers)) res.removeHeader(name)
    const label = targetLabel(route.target)
    const failure = {
      status: 502 as const,
      cause: 'invalid response header',
      hint: `the server at ${label} sent a header Node cannot forward (${errorCode(error) ?? String(error)})`,
      code: errorCode(error),
    }
    logUpstreamFailure(logger, failure, label, req)
    sendUpstreamFailure(req, res, failure, label)
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

/**
 * The forwarding step: sends the request upstream and relays the answer, answering failures
 * with 502/504 and a short body (see `sendUpstreamFailure`), never throwing. A client that goes
 * away before the answer arrives aborts the upstream request through a `ClientAbort`, so a
 * closed tab does not leave work running on the target.
 *
 * @example
 * forwardRequest(req, res, route, '/api/users', { pool, logger })
 */
export function forwardRequest(
  req: ProxyRequest,
  res: ProxyResponse,
  route: ResolvedForwardRoute,
  path: string,
  deps: ForwardDeps,
): void {
  const abort = new ClientAbort()
  res.once('close', () => {
    if (!res.writableEnded) abort.abort()
  })
  requestUpstream(req, route, path, deps.pool, { signal: abort.signal, report: deps.logger.warn })
    .then(
      (upstream) => {
        if (abort.aborted) discard(upstream.body)
        else sendUpstreamResponse(req, res, upstream, route, deps.logger)
      },
      (error: unknown) => {
        if (abort.aborted || isResponseClosed(res)) {
          deps.logger.debug(
            `${req.method} ${req.url}: the client went away before ${targetLabel(route.target)} answered`,
          )
          return
        }
        const label = targetLabel(route.target)
        const failure = describeUpstreamError(error, { label, target: route.target, timeout: route.timeout })
        logUpstreamFailure(deps.logger, failure, label, req)
        sendUpstreamFailure(req, res, failure, label)
      },
    )
    .catch((error: unknown) => {
      // Nothing above should throw; if something does, the client gets a broken response, not a hang.
      deps.logger.error(`${req.method} ${req.url}: ${error instanceof Error ? error.message : String(error)}`)
      abortResponse(res)
    })
}
