import type { EventEmitter } from 'node:events'
import type { NextFunction, ProxyRequest, ProxyResponse } from '../http/proxy-types.js'

/** A connect/Express middleware: the proxy's, and the dev server's checks. */
export type AppMiddleware = (req: ProxyRequest, res: ProxyResponse, next: NextFunction) => void

/** The app as the server's `request` listener. */
type RequestListener = (req: ProxyRequest, res: ProxyResponse) => void

/** What `serveBeforeApp` runs before the app, and how it learns what the app runs first. */
export interface BeforeAppOptions {
  /** The proxy's middleware (`DevServerProxy.middleware`). */
  readonly middleware: AppMiddleware
  /** Whether a route claims the request (`DevServerProxy.claims`). */
  readonly claims: (req: ProxyRequest) => boolean
  /**
   * Called once, on the first request, when the app's middlewares are all mounted, with the
   * middleware `serveBeforeApp` returned (the one the app lists): the dev server's checks the
   * app runs before it, in order, to run before the proxy; or `undefined` when something else
   * comes first (a middleware of the user's), which keeps the proxy inside the app.
   */
  readonly plan: (listed: AppMiddleware) => readonly AppMiddleware[] | undefined
}

/** The server's only `request` listener is the app: nothing else sees requests first. */
function appIsOnlyListener(server: EventEmitter, app: unknown): boolean {
  const listeners = server.listeners('request')
  return listeners.length === 1 && listeners[0] === app
}

/**
 * Serves the requests a route claims from the server's `request` listener, before the dev
 * server's app (connect, Express) sees them, and returns the middleware for the app to list
 * where the proxy belongs.
 *
 * Why: an app costs every request something before its middlewares run: Express gives `req`
 * and `res` new prototypes (Node's HTTP code then runs on objects of another shape), parses
 * the query and sets `X-Powered-By`, which made a proxied request cost about twice its CPU time
 * in webpack-dev-server; connect parses the URL and calls each layer through `try`.
 *
 * What still applies is the app's order, as `plan` reads it: the dev server's checks listed
 * before the proxy run first here, as the same functions (a foreign `Host` still gets the dev
 * server's 403); a request the proxy hands on (`pathFilter`, `bypass`, an error, a throw) goes
 * to the app, whose listed middleware passes it straight on, with the error. When the server's
 * listener is not the app (a server of the user's), or `plan` finds something else first, the
 * app does it all and the returned middleware is the proxy's.
 *
 * @example
 * const listed = serveBeforeApp(httpServer, app, { middleware, claims, plan: (own) => checksBefore(own) })
 * app.use(listed)
 */
export function serveBeforeApp(
  server: EventEmitter | undefined,
  app: unknown,
  options: BeforeAppOptions,
): AppMiddleware {
  const { middleware, claims, plan } = options
  // What the early path handed on, with its error (or undefined): the listed middleware passes it on.
  // Not per-request state of the engine (that is the request's Exchange, pipeline/exchange.ts,
  // handed along as an argument): it crosses the dev server's app, which calls the listed
  // middleware with connect's `(req, res, next)` and nothing more, so a map keyed by `req` is the
  // one way across that neither reshapes Node's `req` nor touches the app. It holds a request
  // only between the hand-off and the app's call a tick later (a `pathFilter` miss, an error).
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
  // Read on the first request: dev servers mount their middlewares after the adapter's hook runs.
  let steps: readonly AppMiddleware[] | null | undefined

  function handOn(req: ProxyRequest, res: ProxyResponse, error?: unknown): void {
    handedOn.set(req, error)
    appListener(req, res)
  }

  function corsDevProxyBeforeApp(req: ProxyRequest, res: ProxyResponse): void {
    if (steps === undefined) steps = plan(corsDevProxyInApp) ?? null
    if (steps === null || !claims(req)) {
      appListener(req, res)
      return
    }
    const run = steps
    let index = 0
    // One `next` for the checks and the proxy: past the proxy (index beyond the checks), what
    // it hands on goes to the app.
    const next: NextFunction = (error) => {
      if ((error !== undefined && error !== null) || index > run.length) {
        handOn(req, res, error)
        return
      }
      const check = run[index++]
      try {
        if (check) check(req, res, next)
        else middleware(req, res, next)
      } catch (thrown) {
        // The app catches what its middlewares throw; a throw from a `request` listener would
        // take the dev server down instead.
        handOn(req, res, thrown)
      }
    }
    next()
  }

  server.removeListener('request', appListener)
  server.on('request', corsDevProxyBeforeApp)
  return corsDevProxyInApp
}
