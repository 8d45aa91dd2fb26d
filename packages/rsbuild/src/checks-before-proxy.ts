import type { AppMiddleware } from '@cors-dev-proxy/core/adapter'

/** One entry of the connect app's `stack` (Rsbuild's `connect-next`: `{ route, handle }`, `route` '' for '/'). */
export interface ConnectLayer {
  readonly route: string
  readonly handle: unknown
}

/**
 * The `plan` of `serveBeforeApp` for Rsbuild: what its connect app runs before the plugin's
 * middleware (`listed`) that the routes keep in front of them, in order; or `undefined` when
 * anything else comes first (a middleware of `server.setup` or of another plugin), which keeps
 * the routes in Rsbuild's stack, after it.
 *
 * Rsbuild 2.3 and later mount their host check (`server.allowedHosts`) as the first layer of the
 * app when the check is on, before `server.setup` and any plugin hook runs; it is an anonymous
 * function, known only by that place, so `hostCheck` says whether the first layer is it. Rsbuild
 * mounts nothing else before the plugin hooks: its `cors`, `server.proxy`, compression, assets
 * and fallbacks come after.
 *
 * @example
 * rsbuildChecksBefore(server.middlewares.stack, listed, true) // [Rsbuild's host check]
 */
export function rsbuildChecksBefore(
  stack: readonly ConnectLayer[],
  listed: AppMiddleware,
  hostCheck: boolean,
): AppMiddleware[] | undefined {
  const own = stack.findIndex((layer) => layer.handle === listed)
  if (own === -1) return undefined
  const before = stack.slice(0, own)
  if (!hostCheck) return before.length === 0 ? [] : undefined
  const [first, ...others] = before
  if (first === undefined || first.route !== '' || typeof first.handle !== 'function' || others.length > 0) {
    return undefined
  }
  return [first.handle as AppMiddleware]
}
