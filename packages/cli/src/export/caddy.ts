import type { ResolvedCorsDevProxyOptions } from '@cors-dev-proxy/core/adapter'
import { FORWARDED_PORT, renderCaddyRoute, SAME_ORIGIN_MATCHER } from './caddy-route.js'
import { caddyComment, indentCaddy } from './caddy-syntax.js'
import { type ExportOptions, parseListen, parseServerNames } from './export-options.js'
import { planRoutes, type RoutePlan } from './route-plan.js'

/** The site's addresses: `http://` (Caddy obtains no certificate) with each name, or none to answer any `Host`. */
function addressesOf(names: readonly string[], port: number): string {
  if (names.length === 0) return `http://:${port}`
  return names.map((name) => `http://${name}:${port}`).join(', ')
}

/** What the site defines once for its routes: the forwarded port and the same-origin matcher, when a route uses them. */
function sharedOf(plans: readonly RoutePlan[]): string[] {
  const lines: string[] = []
  if (plans.some((plan) => plan.route.xfwd)) {
    lines.push(
      // As the dev proxy sends it: RFC 9110 §4.2 gives each scheme its default port.
      "# X-Forwarded-Port: the port in Host, else the scheme's default.",
      `map {http.request.scheme}|{http.request.port} ${FORWARDED_PORT} {`,
      `\t~^[a-z]+\\|([0-9]+)$ "\${1}"`,
      '\thttps| 443',
      '\tdefault 80',
      '}',
    )
  }
  if (plans.some((plan) => plan.sameOriginAs !== undefined)) {
    lines.push(
      "# A same-origin call: the page's Origin is this site's own scheme and Host.",
      `${SAME_ORIGIN_MATCHER} expression \`{http.request.header.Origin} == {http.request.scheme} + "://" + {http.request.hostport}\``,
    )
  }
  return lines
}

/**
 * Renders the routes as a Caddyfile site block listening on `options.listen` (plain http: drop
 * `http://` from the address to let Caddy serve https with its own certificate), one `handle` per
 * route, longest prefix first. Each does what the dev proxy does, where Caddy can: the prefix
 * removed on segment boundaries, the target's base path joined, `Host` per `changeOrigin`,
 * `X-Real-IP` and `X-Forwarded-*` per `xfwd`, a same-origin `Origin` sent as the target's, fixed
 * `headers`, WebSocket handshakes on `ws` routes only, events flushed one by one, `timeout` as
 * the time to the answer's head, TLS verification per `secure`, redirects and cookies rewritten,
 * and the route's CORS policy. What only Node can do is named in a comment, with the route.
 * Throws `CorsDevProxyError` for a bad `listen` or `serverName`, never for a route.
 *
 * @example
 * renderCaddy(resolveOptions({ '/api': 'http://127.0.0.1:3000' }), { listen: '8080', serverName: undefined })
 */
export function renderCaddy(resolved: ResolvedCorsDevProxyOptions, options: ExportOptions): string {
  const listen = parseListen(options.listen)
  const names = parseServerNames(options.serverName)
  const { routes, skipped } = planRoutes(resolved.routes)
  const body: string[] = []
  // Caddy's bind takes an IPv6 address without brackets.
  if (listen.address !== undefined) body.push(`bind ${listen.address.replace(/^\[|\]$/g, '')}`)
  body.push(
    ...sharedOf(routes),
    ...caddyComment(
      '',
      skipped.map((note) => `Needs attention: ${note}`),
    ),
  )
  for (const plan of routes) body.push('', ...renderCaddyRoute(plan))
  return `${[
    '# cors-dev-proxy routes for Caddy: a site block for your Caddyfile.',
    '# Generated from the same configuration as the dev proxy; comments mark what needs attention.',
    `${addressesOf(names, listen.port)} {`,
    ...indentCaddy(body),
    '}',
  ].join('\n')}\n`
}
