import type { IncomingMessage, ServerResponse } from 'node:http'

/** A connect middleware as Vite's `server.middlewares` holds it. */
type Handle = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void

/** One entry of connect's `app.stack` (connect 3: `{ route, handle }`). */
export interface ConnectLayer {
  route: string
  handle: Handle | ((...args: never[]) => unknown)
}

/**
 * Vite's CORS middleware is the `cors` package's `corsMiddleware` (bundled; Vite 7 renames it
 * `corsMiddleware$2`). Matching the function name is the only handle Vite gives on it.
 */
const VITE_CORS = /^corsMiddleware/
/** Vite 6 `viteHostCheckMiddleware`, Vite 7/8 `hostValidationMiddleware` (DNS-rebinding protection). */
const VITE_HOST_CHECK = /^(?:viteHostCheckMiddleware|hostValidationMiddleware)/

/**
 * Makes Vite's `server.cors`/`preview.cors` middleware step aside for proxied requests.
 *
 * Vite 7 and 8 install it before any plugin middleware, and it answers every `OPTIONS` with
 * 204 itself, so a preflight would never reach the backend or the route's own `cors` policy
 * (see docs/guide/vite.md). Only the requests `isProxied` claims skip it: Vite's own files keep
 * Vite's default allow-list. Returns whether the middleware was found.
 */
export function exemptProxiedRoutesFromViteCors(
  stack: ConnectLayer[],
  isProxied: (req: IncomingMessage) => boolean,
): boolean {
  const layer = stack.find((entry) => VITE_CORS.test(entry.handle.name))
  if (!layer) return false
  const viteCors = layer.handle as Handle
  // Named like the original, so a second cors-dev-proxy plugin instance finds and wraps it too.
  layer.handle = function corsMiddlewareOutsideProxiedRoutes(req, res, next) {
    if (isProxied(req)) next()
    else viteCors(req, res, next)
  } satisfies Handle
  return true
}

/**
 * Moves the plugin's middleware right after Vite's host check (`server.allowedHosts`) when it
 * sits before it, so a DNS-rebinding page cannot use the proxy to reach the backend. Only Vite 6
 * needs it: it runs plugin middlewares first, Vite 7 and 8 run the check first. Over HTTPS Vite
 * installs no host check, and nothing moves.
 */
export function moveAfterViteHostCheck(stack: ConnectLayer[], handle: ConnectLayer['handle']): void {
  const own = stack.findIndex((entry) => entry.handle === handle)
  const hostCheck = stack.findIndex((entry) => VITE_HOST_CHECK.test(entry.handle.name))
  if (own === -1 || hostCheck === -1 || hostCheck < own) return
  const [layer] = stack.splice(own, 1)
  stack.splice(hostCheck, 0, layer as ConnectLayer)
}

/**
 * What Vite runs before plugin middlewares that the routes keep in front of them: its refusal
 * of a `#` in the URL (400) and its host check. `viteTimeMiddleware` (`DEBUG=vite:time`) is
 * not here: it times what follows it, so the routes then stay inside Vite's stack.
 */
const VITE_CHECKS = /^(?:viteRejectInvalidRequestMiddleware|viteHostCheckMiddleware|hostValidationMiddleware)/

/** The name of the wrapper `exemptProxiedRoutesFromViteCors` puts on Vite's CORS middleware. */
const EXEMPTED_CORS = 'corsMiddlewareOutsideProxiedRoutes'

/**
 * The `plan` of `serveBeforeApp` for Vite: Vite's checks mounted before the plugin's middleware
 * (`listed`), in order, to run before the proxy; or `undefined` when anything else comes first
 * (another plugin's middleware, one mounted on a path), which keeps the routes in Vite's stack,
 * after it. Vite's CORS middleware, once exempted, passes the routes' requests on: left out.
 *
 * @example
 * viteChecksBefore(server.middlewares.stack, listed) // [viteRejectInvalidRequestMiddleware, hostValidationMiddleware]
 */
export function viteChecksBefore(
  stack: readonly ConnectLayer[],
  listed: ConnectLayer['handle'],
): Handle[] | undefined {
  const own = stack.findIndex((entry) => entry.handle === listed)
  if (own === -1) return undefined
  const checks: Handle[] = []
  for (const { route, handle } of stack.slice(0, own)) {
    if (route !== '') return undefined
    if (VITE_CHECKS.test(handle.name)) checks.push(handle as Handle)
    else if (handle.name !== EXEMPTED_CORS) return undefined
  }
  return checks
}
