import type { EventEmitter } from 'node:events'
import type { NextFunction, ProxyRequest, ProxyResponse } from '@cors-dev-proxy/core'
import { handlesBefore } from './app-stack.js'

/** A connect/Express middleware, as the proxy and webpack-dev-server's checks are. */
type Middleware = (req: ProxyRequest, res: ProxyResponse, next: NextFunction) => void

/** The app as the server's `request` listener. */
type RequestListener = (req: ProxyRequest, res: ProxyResponse) => void

/** What `serveRoutesBeforeApp` runs, and what it may leave out. */
export interface BeforeAppOptions {
  /** The proxy's middleware. */
  readonly middleware: Middleware
  /** Whether a route claims the request (memoised: the middleware reuses the match). */
  readonly claims: (req: ProxyRequest) => boolean
  /** webpack-dev-server's security checks: run first, in the app's order, when they sit before the proxy. */
  readonly checks: ReadonlySet<unknown>
  /** Its middlewares that may sit before the proxy without being run on the early path. */
  readonly skippable: ReadonlySet<unknown>
}

/** The server's only `request` listener is the app: nothing else sees requests first. */
function appIsOnlyListener(server: EventEmitter, app: unknown): boolean {
  const listeners = server.listeners('request')
  return listeners.length === 1 && listeners[0] === app
}

/**
 * Serves the requests a route claims from the server's `request` listener, before the app
 * (webpack-dev-server's Express) sees them, and returns the middleware to list in the app.
 *
 * Why: Express dresses every request before its first middleware runs (new prototypes for
 * `req` and `res`, the query parsed, `X-Powered-By`); Node's HTTP code then runs on objects of
 * a changed shape, and a proxied request cost about twice its CPU time inside the app.
 *
 * What still applies: the app's own order. On the first request the app's stack is read: when
 * only webpack-dev-server's Host and cross-origin checks come before the proxy's middleware,
 * those same functions run first here (403 for a foreign `Host`, the `Cross-Origin-Resource-Policy`
 * header); anything else before it (a middleware of the user's, a body parser) keeps the proxy
 * inside the app, after it, as listed. A request the proxy hands on (`pathFilter`, `bypass`, an
 * error) goes to the app, whose listed middleware then passes it straight on, with the error.
 * When the server's listener is not the app (a server of the user's), the app does it all.
 *
 * @example
 * const middleware = serveRoutesBeforeApp(devServer.server, devServer.app, { middleware, claims, checks, skippable })
 * middlewares.push({ name: 'cors-dev-proxy', middleware })
 */
export function serveRoutesBeforeApp(
  server: EventEmitter | undefined,
  app: unknown,
  options: BeforeAppOptions,
): Middleware {
  const { middleware, claims, checks, skippable } = options
  // What the early path handed on, with its error (or undefined): the app's listed entry passes it on.
  const handedOn = new WeakMap<object, unknown>()

  function corsDevProxyInApp(req: ProxyRequest, res: ProxyResponse, next: NextFunction): void {
    if (!handedOn.has(req)) {
      middleware(req, res, next)
      return
    }
    const error = handedOn.get(req)
    handedOn.delete(req)
    next(error)
  }

  if (server === undefined || typeof app !== 'function' || !appIsOnlyListener(server, app)) {
    return corsDevProxyInApp
  }
  const appListener = app as RequestListener

  /** The checks to run before the proxy, or `null` when the proxy must stay inside the app. */
  function plan(): Middleware[] | null {
    const before = handlesBefore(app, corsDevProxyInApp)
    if (before === undefined) return null
    const run: Middleware[] = []
    for (const handle of before) {
      if (checks.has(handle)) run.push(handle as Middleware)
      else if (!skippable.has(handle)) return null
    }
    return run
  }
  // Read on the first request: webpack-dev-server mounts the list after setupMiddlewares returns.
  let steps: Middleware[] | null | undefined

  function handOn(req: ProxyRequest, res: ProxyResponse, error?: unknown): void {
    handedOn.set(req, error)
    appListener(req, res)
  }

  function corsDevProxyBeforeApp(req: ProxyRequest, res: ProxyResponse): void {
    if (steps === undefined) steps = plan()
    if (steps === null || !claims(req)) {
      appListener(req, res)
      return
    }
    const run = steps
    let index = 0
    const next: NextFunction = (error) => {
      if (error !== undefined && error !== null) {
        handOn(req, res, error)
        return
      }
      const check = run[index++]
      try {
        if (check) check(req, res, next)
        else middleware(req, res, (passed) => handOn(req, res, passed))
      } catch (error) {
        // The app catches what its middlewares throw; a throw from a `request` listener would
        // take the dev server down instead.
        handOn(req, res, error)
      }
    }
    next()
  }

  server.removeListener('request', appListener)
  server.on('request', corsDevProxyBeforeApp)
  return corsDevProxyInApp
}
