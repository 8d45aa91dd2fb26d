import { type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { routeOption } from '../config/option-path.js'
import { RouterAnswerError } from '../config/resolve-router.js'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import { PathRewriteFailure } from '../http/rewrite-path.js'
import { describeExchange } from '../log/describe-routes.js'
import type { Logger } from '../log/logger.js'
import type { FailureLog } from './failure-log.js'
import { HookFailure, type OutgoingParts, runHooks } from './hook-runner.js'
import { describeUpstreamError, errorBody, targetLabel } from './proxy-error.js'
import {
  answerOnSocket,
  connectOptions,
  join,
  NOTHING,
  relayedFields,
  responseHead,
  SWITCH_FIELDS,
  webSocketOrigin,
} from './upgrade-sockets.js'

/** What the WebSocket forwarder needs from the proxy. */
export interface UpgradeDeps {
  logger: Logger
  /** Every socket this module holds (client and upstream), so `close()` can end them. */
  sockets: Set<Duplex>
  /** Upstream failures per target (see `createFailureLog`); without it each failure is logged. */
  failures?: FailureLog
}

/**
 * One forwarded WebSocket handshake, from the client's upgrade to the target's answer: the
 * target the router chose, the state of the answer, and the debug line's figures.
 *
 * @example
 * const handshake = new Handshake(req, socket, head, route, deps)
 * handshake.open({ path: '/socket', headers: handshakeHeaders(req, route) })
 */
export class Handshake {
  target: URL
  label: string
  /** The upstream URL, for the debug line. */
  hop: string
  answered = false
  readonly #started: number

  constructor(
    readonly req: IncomingMessage,
    readonly socket: Duplex,
    readonly head: Buffer,
    readonly route: ResolvedForwardRoute,
    readonly deps: UpgradeDeps,
  ) {
    this.target = route.target
    this.label = targetLabel(route.target)
    this.hop = this.label
    // At debug level, one line per handshake like the HTTP requests' (protocol, path, hop, status, time).
    this.#started = deps.logger.level === 'debug' ? performance.now() : 0
  }

  /** The target the router chose. */
  routeTo(target: URL): void {
    this.target = target
    this.label = targetLabel(target)
  }

  trace(status: number): void {
    const { logger } = this.deps
    if (logger.level !== 'debug') return
    logger.debug(
      `${describeExchange(this.req, status, this.hop, performance.now() - this.#started)} (WebSocket)`,
    )
  }

  /** The handshake failed before an answer: the `error` hooks, then 502/504 on the socket (or it is destroyed, past that). */
  fail = async (error: unknown): Promise<void> => {
    const { socket, route, req, label, target, deps } = this
    if (this.answered || socket.destroyed) {
      socket.destroy()
      return
    }
    this.answered = true
    if (
      error instanceof HookFailure ||
      error instanceof RouterAnswerError ||
      error instanceof PathRewriteFailure
    ) {
      this.#failUserCode(error)
      return
    }
    if (route.hooks.error.length > 0) {
      try {
        await runHooks(route.hooks.error, [
          error instanceof Error ? error : new Error(String(error)),
          req,
          socket,
        ])
      } catch (hookError) {
        this.answered = false
        await this.fail(hookError)
        return
      }
      // The hook answered the socket itself.
      if (socket.destroyed || !socket.writable) return
    }
    const failure = describeUpstreamError(error, { label, target, timeout: route.timeout })
    if (deps.failures) deps.failures.failed(failure, label, req)
    else
      deps.logger.error(
        `${failure.status} ${req.method} ${req.url} → ${label}: ${failure.cause} (${failure.hint})`,
      )
    const { contentType, body } = errorBody(failure, label, req.headers.accept)
    this.trace(failure.status)
    answerOnSocket(socket, failure.status, contentType, body)
  }

  /** A router, `pathRewrite` or hook that threw: its status and message, logged once per source. */
  #failUserCode(error: HookFailure | RouterAnswerError | PathRewriteFailure): void {
    const { req, route } = this
    // Keyed by the hook or router, never by the message (it may carry request data).
    const source =
      error instanceof HookFailure
        ? error.hook
        : error instanceof PathRewriteFailure
          ? error.option
          : routeOption(route.prefix, 'router')
    const status = error instanceof HookFailure ? error.status : 502
    this.deps.logger.limited(
      'error',
      `${source} threw (upgrade)`,
      () => `${status} ${req.method} ${req.url} → ${this.label}: ${error.message} (WebSocket handshake)`,
    )
    this.trace(status)
    answerOnSocket(this.socket, status, 'text/plain; charset=utf-8', `${error.message}\n`)
  }

  /** Sends the handshake to the target; its answer is relayed by {@link Handshake.switched} or {@link Handshake.refused}. */
  open = (parts: OutgoingParts): void => {
    const { socket, route, target, req } = this
    // The client may have given up while an async `pathRewrite`, router or hook ran.
    if (socket.destroyed) return
    this.hop = `${webSocketOrigin(target)}${parts.path}`
    const { tls, ...connect } = connectOptions(target, route.secure)
    // A Unix socket target (`target: { socketPath }`): Node's request connects there instead.
    if (route.socketPath !== undefined && target === route.target)
      Object.assign(connect, { socketPath: route.socketPath })
    // An https.Agent's TLS options (`ca`, `cert`...) apply to the handshake's connection too.
    if (route.agent !== undefined)
      Object.assign(connect, route.agent.tls, { rejectUnauthorized: route.secure })
    let upstreamReq: ClientRequest
    try {
      upstreamReq = (tls ? httpsRequest : httpRequest)({
        ...connect,
        method: req.method ?? 'GET',
        path: parts.path,
        headers: parts.headers,
        agent: false,
      })
    } catch (error) {
      void this.fail(error)
      return
    }
    // Until the upstream answers, the route's timeout, when it has one, applies as for HTTP
    // requests (then 504).
    if (route.timeout !== undefined) {
      upstreamReq.setTimeout(route.timeout, () =>
        upstreamReq.destroy(
          Object.assign(new Error('upstream handshake timed out'), { code: 'UND_ERR_HEADERS_TIMEOUT' }),
        ),
      )
    }
    upstreamReq.on('error', this.fail)
    socket.on('error', () => upstreamReq.destroy())
    socket.once('close', () => {
      if (!this.answered) upstreamReq.destroy()
    })
    upstreamReq.on('upgrade', (res, upstream, upstreamHead) =>
      this.switched(upstreamReq, res, upstream, upstreamHead),
    )
    upstreamReq.on('response', (res) => this.refused(upstreamReq, res))
    upstreamReq.end()
  }

  /** 101: the upstream's response head is relayed, then both sockets are piped (see `join`). */
  switched(upstreamReq: ClientRequest, res: IncomingMessage, upstream: Socket, upstreamHead: Buffer): void {
    const { socket, deps } = this
    this.answered = true
    deps.failures?.answered(this.label)
    upstream.setTimeout(0)
    upstreamReq.setTimeout(0)
    if (socket.destroyed) {
      upstream.destroy()
      return
    }
    deps.sockets.add(upstream)
    socket.write(
      responseHead(
        101,
        res.statusMessage || 'Switching Protocols',
        relayedFields(res, this.route, SWITCH_FIELDS),
      ),
    )
    if (upstreamHead.length > 0) socket.write(upstreamHead)
    // Bytes the client sent after its handshake (its first frames) go first.
    if (this.head.length > 0) upstream.write(this.head)
    join(socket, upstream, deps.sockets)
    this.trace(101)
  }

  /** Any other status (401, 404...): relayed to the client as an HTTP response, then closed. */
  refused(upstreamReq: ClientRequest, res: IncomingMessage): void {
    const { socket } = this
    this.answered = true
    this.deps.failures?.answered(this.label)
    upstreamReq.setTimeout(0)
    const fields = relayedFields(res, this.route, NOTHING).filter(
      ([name]) => name.toLowerCase() !== 'content-length',
    )
    // Node has already removed the chunked framing: the body is delimited by the close.
    fields.push(['connection', 'close'])
    socket.write(responseHead(res.statusCode ?? 502, res.statusMessage ?? '', fields))
    this.trace(res.statusCode ?? 502)
    res.on('error', () => socket.destroy())
    res.pipe(socket)
  }
}
