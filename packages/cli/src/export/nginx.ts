import type { ResolvedCorsDevProxyOptions } from '@cors-dev-proxy/core/adapter'
import { type ExportOptions, parseListen, parseServerNames } from './export-options.js'
import { renderNginxLocation } from './nginx-location.js'
import type { NginxDefinitions } from './nginx-maps.js'
import { DOLLAR_VARIABLE, nginxComment, nginxLiteralText } from './nginx-syntax.js'
import { planRoutes, type RoutePlan } from './route-plan.js'

/** Idle keep-alive connections each upstream keeps per worker, so requests reuse them as the dev proxy's pools do. */
const KEEPALIVE = 16

/** The definitions collector: each block once, in first-use order, and `$cdp_dollar` when a literal needs it. */
function createDefinitions(): NginxDefinitions & { blocks(): string[] } {
  const blocks = new Map<string, string>()
  let dollar = false
  const literalText = (text: string): string => {
    const escaped = nginxLiteralText(text)
    dollar ||= escaped.usesDollar
    return escaped.text
  }
  return {
    define(variable, block) {
      if (!blocks.has(variable)) blocks.set(variable, block)
      return variable
    },
    literalText,
    literal: (text) => `"${literalText(text)}"`,
    blocks: () => (dollar ? [DOLLAR_VARIABLE, ...blocks.values()] : [...blocks.values()]),
  }
}

/** One `upstream` block per target origin, in the order routes first use them. */
function upstreamsOf(plans: readonly RoutePlan[]): string[] {
  const seen = new Map<string, string>()
  for (const { upstream } of plans) {
    if (seen.has(upstream.name)) continue
    seen.set(
      upstream.name,
      [
        `upstream ${upstream.name} {`,
        `    server ${upstream.address};`,
        `    keepalive ${KEEPALIVE};`,
        '}',
      ].join('\n'),
    )
  }
  return [...seen.values()]
}

/**
 * Renders the routes as an nginx snippet for the `http {}` context, to `include` there: the
 * variables the routes share (`map` blocks), one `upstream` per target with keep-alive
 * connections, and one `server` that listens on `options.listen` with a `location` per route,
 * longest prefix first. Each location does what the dev proxy does, where nginx can: the prefix
 * removed on segment boundaries (`/api` never takes `/api2`), the target's base path joined,
 * `Host` per `changeOrigin`, `X-Real-IP` and `X-Forwarded-*` per `xfwd`, a same-origin `Origin`
 * sent as the target's, fixed `headers`, WebSocket upgrades on `ws` routes, streaming both ways
 * (server-sent events unbuffered), `timeout`, TLS verification per `secure`, redirects and
 * cookies rewritten, and the route's CORS policy. What only Node can do (hooks, `router`, a
 * `pathRewrite` function, mock routes...) is named in a comment, with the route. Throws
 * `CorsDevProxyError` for a bad `listen` or `serverName`, never for a route.
 *
 * @example
 * renderNginx(resolveOptions({ '/api': 'http://127.0.0.1:3000' }), { listen: '8080', serverName: undefined })
 */
export function renderNginx(resolved: ResolvedCorsDevProxyOptions, options: ExportOptions): string {
  const listen = parseListen(options.listen)
  const names = parseServerNames(options.serverName)
  const { routes, skipped } = planRoutes(resolved.routes)
  const defs = createDefinitions()
  const locations = routes.flatMap((plan) => ['', ...renderNginxLocation(defs, plan)])

  const server = [
    'server {',
    `    listen ${listen.address === undefined ? '' : `${listen.address}:`}${listen.port};`,
    ...(names.length > 0 ? [`    server_name ${names.join(' ')};`] : []),
    // Bodies of any size stream through, as they do through the dev proxy (nginx's default stops at 1 MiB).
    '    client_max_body_size 0;',
    // A redirect the target sends path-absolute stays path-absolute, as the dev proxy relays it.
    '    absolute_redirect off;',
    ...nginxComment(
      '    ',
      skipped.map((note) => `Needs attention: ${note}`),
    ),
    ...locations,
    '}',
  ].join('\n')

  return `${[
    [
      '# cors-dev-proxy routes for nginx: include this file in the http {} context',
      '# (for example: include /etc/nginx/conf.d/cors-dev-proxy.conf;).',
      '# Generated from the same configuration as the dev proxy; comments mark what needs attention.',
    ].join('\n'),
    ...defs.blocks(),
    ...upstreamsOf(routes),
    server,
  ].join('\n\n')}\n`
}
