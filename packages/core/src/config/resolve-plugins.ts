import { CorsDevProxyError } from './errors.js'
import { describeType } from './option-path.js'
import { mergeHooks, NO_HOOKS, type ResolvedHooks, runConfigure } from './resolve-hooks.js'

/**
 * http-proxy-middleware 3/4's own plugins (`src/plugins/default/index.ts`), which its README has
 * users add back after `ejectPlugins: true`. Each is built in here: `proxyEventsPlugin` is `on`,
 * `loggerPlugin` is the route's `logger`, `errorResponsePlugin` and `debugProxyErrorsPlugin` are
 * the 502/504 answers and the failure log. Recognised by name and skipped.
 */
const BUILT_IN_PLUGINS: ReadonlySet<string> = new Set([
  'debugProxyErrorsPlugin',
  'errorResponsePlugin',
  'loggerPlugin',
  'proxyEventsPlugin',
])

const PLUGIN_EXAMPLE = "(proxyServer) => proxyServer.on('error', (err) => console.error(err))"

/**
 * http-proxy-middleware's `plugins` (v3+: `(proxyServer, options) => void`, called once when the
 * middleware is created, `get-plugins.ts`): each is called here, at construction, with a proxy
 * whose `on` registers what we can run (`proxyReq`, `proxyRes`, `error`, `proxyReqWs`, as
 * Vite's `configure` does, see `runConfigure`), and the route as written. An event we do not
 * emit (`open`, `close`, `start`, `end`, `econnreset`), or any other use of the proxy server,
 * fails here with the plugin named.
 *
 * @example
 * resolvePlugins([(proxy) => proxy.on('proxyRes', (res, req) => console.log(req.url))], route, "routes['/api'].plugins")
 */
export function resolvePlugins(plugins: unknown, source: unknown, option: string): ResolvedHooks {
  if (plugins === undefined) return NO_HOOKS
  if (!Array.isArray(plugins)) {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      option,
      `must be an array of plugins (proxyServer, options) => void, got ${describeType(plugins)}`,
      `{ plugins: [${PLUGIN_EXAMPLE}] }`,
    )
  }
  const hooks = plugins.map((plugin: unknown) => {
    if (typeof plugin === 'function' && BUILT_IN_PLUGINS.has(plugin.name)) return NO_HOOKS
    // Named by the list: an example fix replaces the whole option, never one entry of it.
    return runConfigure(plugin, source, option, (fn) => `{ plugins: [${fn}] }`)
  })
  return mergeHooks(...hooks)
}

/**
 * `ejectPlugins` (http-proxy-middleware 3+): `true` removes its default plugins. Ours are not
 * plugins: the 502/504 answer is skipped when an `on.error` hook answers itself, which is what
 * ejecting was for. Accepted as a boolean; `true` is said once at start-up through `warn`.
 */
export function checkEjectPlugins(value: unknown, option: string, warn: (message: string) => void): void {
  if (value === undefined || value === false) return
  if (value === true) {
    warn(
      `${option}: cors-dev-proxy's error answers and logging are built in, not plugins, so nothing is ejected; an on.error hook that answers the request replaces the 502/504`,
    )
    return
  }
  throw new CorsDevProxyError(
    'INVALID_OPTION',
    option,
    `must be true or false, got ${describeType(value)}`,
    '{ ejectPlugins: false }',
  )
}
