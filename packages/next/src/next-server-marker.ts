/**
 * Set by `createNextServer` before it calls `next()`, in the environment so that any worker
 * Next starts inherits it: the `next.config` Next then loads runs under the custom server,
 * which serves every option, and `withCorsDevProxy` leaves `ws` routes and `on.proxyReq` alone.
 * Without it, `next dev` runs the config, and only `proxy.ts` can serve the routes.
 */
export const NEXT_SERVER_VARIABLE = 'CORS_DEV_PROXY_NEXT_SERVER'

/**
 * Marks this process (and the workers it starts) as running `createNextServer`.
 *
 * @example
 * markNextServer()
 */
export function markNextServer(): void {
  process.env[NEXT_SERVER_VARIABLE] = '1'
}

/**
 * Whether `createNextServer` runs Next in this process (or in the process that started it).
 *
 * @example
 * if (!runsUnderNextServer()) refuseProxyTsOptions(resolved.routes)
 */
export function runsUnderNextServer(): boolean {
  return process.env[NEXT_SERVER_VARIABLE] === '1'
}
