/*
 * The server `serve` assembles (startServe, start-serve.ts): HTTP or HTTP/2 over TLS, its handler
 * checking the HTTP/3 front's mark and the host, then the routes, the static files and the 404.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type Server as HttpServer, type IncomingMessage, type ServerResponse } from 'node:http'
import {
  createSecureServer,
  type Http2SecureServer,
  type Http2ServerRequest,
  type Http2ServerResponse,
} from 'node:http2'
import type { Duplex } from 'node:stream'
import {
  answerSocket,
  consoleLogSink,
  createDevServerProxy,
  type DevServerProxy,
} from '@cors-dev-proxy/core/adapter'
import type { LocalCertificate } from './certificate.js'
import { type ConnectionTracker, trackConnections } from './connection-tracker.js'
import { createFrontRestore } from './front-request.js'
import { holdLines } from './held-sink.js'
import {
  checkRequestHost,
  type createHostCheck,
  forbiddenHostMessage,
  passesHostCheck,
} from './host-check.js'
import type { ServeOptions } from './serve-options.js'
import { createStaticFiles } from './static-files.js'

type Request = IncomingMessage | Http2ServerRequest
type Response = ServerResponse | Http2ServerResponse
export type Middleware = (req: Request, res: Response, next: () => void) => void

const NOT_FOUND = 'Not Found\n'
const BYPASSED_FRONT = "this port is the HTTP/3 front's way in: use the URL serve printed\n"
const NOT_A_PATH = 'cors-dev-proxy serves paths only: absolute URLs and CONNECT are refused\n'

/** A short plain-text answer of our own. */
function answer(res: Response, status: number, body: string): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-content-type-options': 'nosniff',
  })
  res.end(body)
}

/** Runs the middlewares in order; the last `next` answers 404. */
function chain(middlewares: readonly Middleware[]) {
  return function corsDevProxyServe(req: Request, res: Response): void {
    let index = 0
    const next = (): void => {
      const middleware = middlewares[index++]
      if (middleware === undefined) answer(res, 404, NOT_FOUND)
      else middleware(req, res, next)
    }
    next()
  }
}

/** The server `serve` assembles, shared by the steps of `startServe`. */
export interface ServeServer {
  readonly options: ServeOptions
  readonly isAllowed: ReturnType<typeof createHostCheck>
  readonly certificate: LocalCertificate | undefined
  /** The secret Caddy adds to each request it forwards, so a request that bypassed it is told apart. */
  readonly token: string
  readonly restoreFront: ReturnType<typeof createFrontRestore> | undefined
  /** After the host check: the routes, the static files, then 404. */
  readonly middlewares: Middleware[]
  readonly server: HttpServer | Http2SecureServer
  readonly connections: ConnectionTracker
  /** Behind Caddy: the proxy's lines, held until Caddy serves and the URLs are known. */
  readonly held: ReturnType<typeof holdLines> | undefined
  /** Behind Caddy, the port Caddy serves; until then (or without Caddy) our server's own. */
  publicPort: number | undefined
}

/** The HTTP (or HTTP/2 over TLS) server, its handler checking the front's mark and the host before the middlewares. */
export function createServeServer(
  options: ServeOptions,
  isAllowed: ReturnType<typeof createHostCheck>,
  certificate: LocalCertificate | undefined,
): ServeServer {
  // Behind Caddy our server answers only what came through Caddy, seen as the browser sent it.
  const token = randomBytes(24).toString('hex')
  const restoreFront = options.http3 === undefined ? undefined : createFrontRestore(token)
  // Then the host check, inline; the routes, the static files and the 404 after it.
  const middlewares: Middleware[] = []
  const rest = chain(middlewares)
  const handler = (req: Request, res: Response): void => {
    if (restoreFront !== undefined && !restoreFront(req)) {
      answer(res, 421, BYPASSED_FRONT)
      return
    }
    if (passesHostCheck(isAllowed, req, res)) rest(req, res)
  }
  const server: HttpServer | Http2SecureServer =
    certificate === undefined
      ? createServer(handler)
      : createSecureServer({ cert: certificate.cert, key: certificate.key, allowHTTP1: true }, handler)
  return {
    options,
    isAllowed,
    certificate,
    token,
    restoreFront,
    middlewares,
    server,
    connections: trackConnections(server),
    // Behind Caddy the URLs are known once Caddy serves: the proxy's routes line waits for them.
    held: options.http3 === undefined ? undefined : holdLines(options.sink ?? consoleLogSink),
    publicPort: undefined,
  }
}

/** The proxy (when there are routes) and the static files as middlewares, and who answers upgrades and CONNECT. */
export function attachRoutes(ctx: ServeServer): DevServerProxy | undefined {
  const { options, server, isAllowed, restoreFront, middlewares } = ctx
  /** An upgrade no ws route took would otherwise hang: 404, or 403 for a foreign Host. */
  const refuseUpgrade = (req: IncomingMessage, socket: Duplex): void => {
    const { allowed, host } = checkRequestHost(isAllowed, req)
    const body = allowed ? 'No WebSocket endpoint at this path\n' : forbiddenHostMessage(host)
    answerSocket(socket, allowed ? 404 : 403, body)
  }
  const proxy =
    options.resolved === undefined
      ? undefined
      : createDevServerProxy(options.resolved, {
          sink: ctx.held ?? options.sink,
          server,
          isAllowedUpgrade: (req) => checkRequestHost(isAllowed, req).allowed,
          unclaimedUpgrade: refuseUpgrade,
          // The project folder, as `import-har` takes it: where a relative `recordings.dir` goes.
          root: options.cwd,
        })
  if (proxy !== undefined) middlewares.push(proxy.middleware as Middleware)
  else {
    // Without routes the core is not there to refuse what is not a path; the same answers here.
    middlewares.push((req, res, next) => (req.url?.startsWith('/') ? next() : answer(res, 400, NOT_A_PATH)))
    if (ctx.certificate === undefined) {
      server.on('connect', (_req: IncomingMessage, socket: Duplex) => answerSocket(socket, 400, NOT_A_PATH))
    }
  }
  if (options.staticDir !== undefined) middlewares.push(createStaticFiles({ root: options.staticDir }))

  // Before the proxy's own upgrade listener: a handshake that bypassed Caddy is cut off here.
  if (restoreFront !== undefined) {
    server.prependListener('upgrade', (req: IncomingMessage, socket: Duplex) => {
      if (!restoreFront(req)) socket.destroy()
    })
  }
  // Without routes nobody else listens for upgrades: refuse them here too.
  if (proxy === undefined) server.on('upgrade', refuseUpgrade)
  return proxy
}
