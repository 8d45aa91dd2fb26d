import { type ClientRequest, request as httpRequest, type IncomingMessage, STATUS_CODES } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP } from 'node:net'
import type { Duplex } from 'node:stream'
import { routeOption } from '../config/option-path.js'
import { joinTargetPath, PathRewriteFailure } from '../config/path-rewrite.js'
import { copyRouteOptions, headersForRequest } from '../config/request-options.js'
import { RouterAnswerError } from '../config/resolve-router.js'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import { connectionListedHeaders, HOP_BY_HOP_HEADERS } from '../http/hop-by-hop.js'
import { describeExchange } from '../log/describe-routes.js'
import type { Logger } from '../log/logger.js'
import { rewriteSetCookie } from './cookie-rewrite.js'
import type { FailureLog } from './failure-log.js'
import { HookFailure, type OutgoingParts, outgoingRequest, runHooks, runRequestHooks } from './hook-runner.js'
import { describeUpstreamError, errorBody, targetLabel } from './proxy-error.js'
import { buildUpstreamHeaders, targetOriginOf, type UpstreamHeaders } from './request-headers.js'

/** What the WebSocket forwarder needs from the proxy. */
export interface UpgradeDeps {
  logger: Logger
  /** Every socket this module holds (client and upstream), so `close()` can end them. */
  sockets: Set<Duplex>
  /** Upstream failures per target (see `createFailureLog`); without it each failure is logged. */
  failures?: FailureLog
}

/** The connect options of the upstream handshake, from the route's target. */
function connectOptions(target: URL, secure: boolean) {
  const tls = target.protocol === 'https:' || target.protocol === 'wss:'
  // URL keeps the brackets of an IPv6 literal; sockets want the bare address.
  const hostname = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname
  return {
    tls,
    hostname,
    port: target.port === '' ? (tls ? 443 : 80) : Number(target.port),
    // Verify the name we connect to, not the client's Host (which `changeOrigin: false` sends);
    // TLS forbids an IP address as server name (RFC 6066 section 3), '' sends none.
    servername: isIP(hostname) === 0 ? hostname : '',
    rejectUnauthorized: secure,
  }
}

/** A response head as raw bytes, from Node's `rawHeaders` (original case and order, repeats kept). */
function responseHead(
  status: number,
  message: string,
  fields: ReadonlyArray<readonly [string, string]>,
): string {
  let head = `HTTP/1.1 ${status} ${message}\r\n`
  for (const [name, value] of fields) head += `${name}: ${value}\r\n`
  return `${head}\r\n`
}

/** Pairs of `rawHeaders`, Set-Cookie rewritten with the route's rules, and hop-by-hop fields dropped unless `keep`. */
function relayedFields(
  res: IncomingMessage,
  route: ResolvedForwardRoute,
  keep: ReadonlySet<string>,
): Array<readonly [string, string]> {
  const listed = connectionListedHeaders(res.headers.connection)
  const fields: Array<readonly [string, string]> = []
  const raw = res.rawHeaders
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string
    let value = raw[i + 1] as string
    const lower = name.toLowerCase()
    if (!keep.has(lower) && (HOP_BY_HOP_HEADERS.has(lower) || listed.has(lower))) continue
    if (lower === 'set-cookie') value = rewriteSetCookie(value, route)
    fields.push([name, value])
  }
  return fields
}

/** The 101 answer keeps the fields that make it a protocol switch (RFC 9110 section 7.8). */
const SWITCH_FIELDS: ReadonlySet<string> = new Set(['connection', 'upgrade'])
const NOTHING: ReadonlySet<string> = new Set()

/**
 * Ties the two sockets together once the upstream has switched protocols: bytes are piped both
 * ways with back-pressure; an end on one side ends the other after its pending bytes are
 * written (so a WebSocket close frame is delivered before the TCP close); an error on either
 * side destroys both.
 */
function join(client: Duplex, upstream: Duplex, sockets: Set<Duplex>): void {
  const destroyBoth = () => {
    client.destroy()
    upstream.destroy()
  }
  const closeAfterFlush = (other: Duplex) => () => {
    if (other.destroyed) return
    if (other.writableFinished) other.destroy()
    else other.end(() => other.destroy())
  }
  client.on('error', destroyBoth)
  upstream.on('error', destroyBoth)
  client.once('close', closeAfterFlush(upstream))
  upstream.once('close', closeAfterFlush(client))
  upstream.once('close', () => sockets.delete(upstream))
  client.pipe(upstream)
  upstream.pipe(client)
}

/** A target's origin as the WebSocket URL it is (`http://h:3000` → `ws://h:3000`), for the debug line. */
function webSocketOrigin(target: URL): string {
  return `${target.protocol === 'https:' || target.protocol === 'wss:' ? 'wss' : 'ws'}://${target.host}`
}

/**
 * Forwards a WebSocket handshake to the route's target (`ws:`/`http:` over TCP, `wss:`/`https:`
 * over TLS, honouring `secure`, `changeOrigin`, `xfwd`, `headers` and `pathRewrite` like HTTP
 * requests) with `node:http`'s upgrade support, since undici's pool does not hand over a raw
 * socket for a protocol switch.
 *
 * - 101: the upstream's response head is relayed, then both sockets are piped (see `join`).
 * - Any other status (401, 404...): relayed to the client as an HTTP response, then closed.
 * - An error before anything was written (refused connection, TLS, timeout): an HTTP error
 *   response with status and short body, like HTTP requests get; afterwards: the socket is
 *   destroyed.
 *
 * @example
 * server.on('upgrade', (req, socket, head) => forwardUpgrade(req, socket, head, route, req.url, deps))
 */
export function forwardUpgrade(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  route: ResolvedForwardRoute,
  path: string,
  deps: UpgradeDeps,
): void {
  const { logger, sockets } = deps
  let target = route.target
  let label = targetLabel(target)
  let answered = false
  let upstreamReq: ClientRequest
  // At debug level, one line per handshake like the HTTP requests' (protocol, path, hop, status, time).
  const started = logger.level === 'debug' ? performance.now() : 0
  let hop = label
  const trace = (status: number): void => {
    if (logger.level !== 'debug') return
    logger.debug(`${describeExchange(req, status, hop, performance.now() - started)} (WebSocket)`)
  }
  sockets.add(socket)
  socket.once('close', () => sockets.delete(socket))

  const fail = async (error: unknown) => {
    if (answered || socket.destroyed) {
      socket.destroy()
      return
    }
    answered = true
    if (
      error instanceof HookFailure ||
      error instanceof RouterAnswerError ||
      error instanceof PathRewriteFailure
    ) {
      // Keyed by the hook or router, never by the message (it may carry request data).
      const source =
        error instanceof HookFailure
          ? error.hook
          : error instanceof PathRewriteFailure
            ? error.option
            : routeOption(route.prefix, 'router')
      const status = error instanceof HookFailure ? error.status : 502
      logger.limited(
        'error',
        `${source} threw (upgrade)`,
        () => `${status} ${req.method} ${req.url} → ${label}: ${error.message} (WebSocket handshake)`,
      )
      const body = `${error.message}\n`
      trace(status)
      socket.end(
        responseHead(status, STATUS_CODES[status] ?? '', [
          ['content-type', 'text/plain; charset=utf-8'],
          ['content-length', String(Buffer.byteLength(body))],
          ['connection', 'close'],
        ]) + body,
      )
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
        answered = false
        await fail(hookError)
        return
      }
      // The hook answered the socket itself.
      if (socket.destroyed || !socket.writable) return
    }
    const failure = describeUpstreamError(error, { label, target, timeout: route.timeout })
    if (deps.failures) deps.failures.failed(failure, label, req)
    else
      logger.error(
        `${failure.status} ${req.method} ${req.url} → ${label}: ${failure.cause} (${failure.hint})`,
      )
    const { contentType, body } = errorBody(failure, label, req.headers.accept)
    trace(failure.status)
    socket.end(
      responseHead(failure.status, STATUS_CODES[failure.status] ?? '', [
        ['content-type', contentType],
        ['content-length', String(Buffer.byteLength(body))],
        ['connection', 'close'],
      ]) + body,
    )
  }

  /** The handshake's headers for the target, before the hooks see them. */
  const headersFor = (routed: ResolvedForwardRoute): UpstreamHeaders => {
    const headers = buildUpstreamHeaders(req, routed)
    // Vite's `rewriteWsOrigin`: whatever page opened the socket, the target sees its own origin.
    if (route.rewriteWsOrigin && headers.origin !== undefined) headers.origin = targetOriginOf(routed)
    // The hop-by-hop pair is what asks for the switch: regenerated for the next hop (RFC 9110 section 7.8).
    headers.connection = 'Upgrade'
    headers.upgrade = req.headers.upgrade ?? 'websocket'
    return headers
  }

  // The common case (no router, no hook, a synchronous rewrite) opens the connection at once;
  // the per-request options run in http-proxy-middleware's order otherwise.
  if (route.router === undefined && route.hooks.proxyReqWs.length === 0) {
    let rewritten: string | Promise<string>
    try {
      rewritten = route.rewritePath(path, req, deps.logger.warn)
    } catch (error) {
      void fail(error)
      return
    }
    const send = (upstreamPath: string) =>
      open({ path: joinTargetPath(target, upstreamPath), headers: headersFor(route) })
    if (typeof rewritten === 'string') send(rewritten)
    else rewritten.then(send, fail)
  } else {
    void (async () => {
      // As for HTTP requests, a router gets a copy of the options of its own (see copyRouteOptions).
      const options = route.router === undefined ? undefined : copyRouteOptions(route.source)
      let chosen: URL | undefined
      try {
        chosen = route.router === undefined ? undefined : await route.router(req, undefined, options)
      } catch (error) {
        // A router that throws is named, as for HTTP requests.
        if (error instanceof RouterAnswerError) throw error
        throw new HookFailure(routeOption(route.prefix, 'router'), error)
      }
      if (chosen !== undefined) {
        target = chosen
        label = targetLabel(target)
      }
      const rewritten = await route.rewritePath(path, req, deps.logger.warn, undefined, options)
      const headers =
        options === undefined
          ? route.headers
          : headersForRequest(route.headers, route.source, options, routeOption(route.prefix, 'router'))
      const routed =
        target === route.target && headers === route.headers ? route : { ...route, target, headers }
      const parts: OutgoingParts = { path: joinTargetPath(target, rewritten), headers: headersFor(routed) }
      await runRequestHooks(
        route.hooks.proxyReqWs,
        [outgoingRequest(req.method ?? 'GET', target, parts), req, socket, head],
        parts,
      )
      return parts
    })().then(open, fail)
  }

  function open(parts: OutgoingParts): void {
    // The client may have given up while an async `pathRewrite`, router or hook ran.
    if (socket.destroyed) return
    hop = `${webSocketOrigin(target)}${parts.path}`
    const { tls, ...connect } = connectOptions(target, route.secure)
    // A Unix socket target (`target: { socketPath }`): Node's request connects there instead.
    if (route.socketPath !== undefined && target === route.target)
      Object.assign(connect, { socketPath: route.socketPath })
    // An https.Agent's TLS options (`ca`, `cert`...) apply to the handshake's connection too.
    if (route.agent !== undefined)
      Object.assign(connect, route.agent.tls, { rejectUnauthorized: route.secure })
    try {
      upstreamReq = (tls ? httpsRequest : httpRequest)({
        ...connect,
        method: req.method ?? 'GET',
        path: parts.path,
        headers: parts.headers,
        agent: false,
      })
    } catch (error) {
      void fail(error)
      return
    }
    // Until the upstream answers, the route's timeout applies as for HTTP requests (then 504).
    upstreamReq.setTimeout(route.timeout || 0, () =>
      upstreamReq.destroy(
        Object.assign(new Error('upstream handshake timed out'), { code: 'UND_ERR_HEADERS_TIMEOUT' }),
      ),
    )
    upstreamReq.on('error', fail)
    socket.on('error', () => upstreamReq.destroy())
    socket.once('close', () => {
      if (!answered) upstreamReq.destroy()
    })

    upstreamReq.on('upgrade', (res, upstream, upstreamHead) => {
      answered = true
      deps.failures?.answered(label)
      upstream.setTimeout(0)
      upstreamReq.setTimeout(0)
      if (socket.destroyed) {
        upstream.destroy()
        return
      }
      sockets.add(upstream)
      socket.write(
        responseHead(
          101,
          res.statusMessage || 'Switching Protocols',
          relayedFields(res, route, SWITCH_FIELDS),
        ),
      )
      if (upstreamHead.length > 0) socket.write(upstreamHead)
      // Bytes the client sent after its handshake (its first frames) go first.
      if (head.length > 0) upstream.write(head)
      join(socket, upstream, sockets)
      trace(101)
    })

    upstreamReq.on('response', (res) => {
      answered = true
      deps.failures?.answered(label)
      upstreamReq.setTimeout(0)
      const fields = relayedFields(res, route, NOTHING).filter(
        ([name]) => name.toLowerCase() !== 'content-length',
      )
      // Node has already removed the chunked framing: the body is delimited by the close.
      fields.push(['connection', 'close'])
      socket.write(responseHead(res.statusCode ?? 502, res.statusMessage ?? '', fields))
      trace(res.statusCode ?? 502)
      res.on('error', () => socket.destroy())
      res.pipe(socket)
    })

    upstreamReq.end()
  }
}
