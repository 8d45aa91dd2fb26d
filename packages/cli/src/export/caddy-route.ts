import { caddyCors, WEBSOCKET_HANDSHAKE } from './caddy-cors.js'
import { caddyComment, caddyLiteral, caddyQuote, caddyReplacementText, indentCaddy } from './caddy-syntax.js'
import { escapeRegex } from './export-regex.js'
import type { CookieRule, RoutePlan } from './route-plan.js'

/** The matcher of a same-origin call (its `Origin` is this site's scheme and `Host`), defined once by the site. */
export const SAME_ORIGIN_MATCHER = '@cdp_same_origin'

/** The placeholder the site's `map` fills with the port the browser used (see caddy.ts). */
export const FORWARDED_PORT = '{cdp_forwarded_port}'

/** The origin the browser used, for an absolute `Location`. */
const BROWSER_ORIGIN = '{http.request.scheme}://{http.request.hostport}'

/**
 * The upstream path as the dev proxy builds it: the prefix removed (`/api/users?x=1` →
 * `/users?x=1`, `/api` → `/`, and `/api//x` → `/x`: a path starting with `//` would read as a host
 * name) and the target's base path in front, by one regular-expression rewrite of the path (the
 * query is left as it is).
 */
function rewriteOf(plan: RoutePlan): string[] {
  const { strip, base } = plan.path
  const replacement = (text: string) => caddyQuote(caddyReplacementText(text))
  if (strip)
    return [
      `uri path_regexp ${caddyQuote(`^${escapeRegex(plan.route.prefix)}/*`)} ${replacement(`${base}/`)}`,
    ]
  return base === '' ? [] : [`uri path_regexp "^" ${replacement(base)}`]
}

/**
 * Set-Cookie rewrites, applied to each Set-Cookie line. Caddy applies every rule in turn (nginx
 * and the dev proxy stop at the first match), so a `'*'` fallback next to exact values would
 * rewrite what an exact rule wrote: that fallback is left out, and said.
 */
function cookieRulesOf(plan: RoutePlan, notes: string[]): string[] {
  const lines: string[] = []
  for (const attribute of ['Domain', 'Path'] as const) {
    const rules = plan.cookieRules.filter((rule) => rule.attribute === attribute)
    const exact = rules.some((rule) => rule.match !== undefined)
    for (const rule of rules) {
      if (exact && rule.match === undefined) {
        const option = attribute === 'Domain' ? 'cookieDomainRewrite' : 'cookiePathRewrite'
        notes.push(
          `${plan.label}.${option}['*'] next to exact values: not exported (Caddy would apply it after them).`,
        )
        continue
      }
      lines.push(cookieRuleOf(rule))
    }
  }
  return lines
}

/** One Set-Cookie rewrite: the attribute's name in any case, the value compared whole and case-sensitively. */
function cookieRuleOf({ attribute, match, replacement }: CookieRule): string {
  const name = `(?i:${attribute})`
  const header = (pattern: string, to: string) =>
    `header_down Set-Cookie ${caddyQuote(pattern)} ${caddyQuote(to)}`
  const to = caddyReplacementText(replacement)
  if (match === undefined) {
    // `$1` is an empty group: Caddy takes an empty replacement for no replacement at all.
    if (replacement === '') return header(`();\\s*${name}\\s*=[^;]*`, '$1')
    // A non-empty replacement never fills in an empty value, as in the dev proxy.
    return header(`(;\\s*${name}\\s*=)\\s*[^;\\s][^;]*`, `\${1}${to}`)
  }
  const value = `\\s*${escapeRegex(match)}\\s*(;|$)`
  if (replacement === '') return header(`;\\s*${name}\\s*=${value}`, '$1')
  return header(`(;\\s*${name}\\s*=)${value}`, `\${1}${to}\${2}`)
}

/** The `reverse_proxy` block: headers as the dev proxy sends them (see the core's `request-headers.ts`), streaming, timeouts, TLS. */
function reverseProxyOf(plan: RoutePlan, notes: string[]): string[] {
  const { route, upstream } = plan
  const fixed = new Map(route.headers.map(([name, value]) => [name, value]))
  const set: Array<[string, string]> = []
  if (plan.host !== undefined) set.push(['Host', caddyLiteral(plan.host)])
  const lines: string[] = []
  if (route.xfwd) {
    // Caddy sets X-Forwarded-For/-Proto/-Host itself; trusting every peer makes it append to the
    // client's X-Forwarded-For as the dev proxy does. A trusted client's -Proto and -Host would be
    // passed on too: the handle removes them first (see renderCaddyRoute), so Caddy sets both from
    // this hop, whatever the client sent, and only what Caddy does not do is written here (setting
    // them again is what Caddy warns about as "Unnecessary header_up").
    set.push(['X-Real-IP', '{http.request.remote.host}'], ['X-Forwarded-Port', FORWARDED_PORT])
    lines.push('trusted_proxies 0.0.0.0/0 ::/0')
  } else {
    lines.push('header_up -X-Forwarded-For', 'header_up -X-Forwarded-Proto', 'header_up -X-Forwarded-Host')
  }
  lines.unshift(
    ...set
      .filter(([name]) => !fixed.has(name.toLowerCase()))
      .map(([name, value]) => `header_up ${name} ${value}`),
    ...[...fixed].map(([name, value]) => `header_up ${name} ${caddyLiteral(value)}`),
  )
  for (const header of ['Location', 'Content-Location']) {
    for (const rule of plan.locationRules) {
      const to = `${rule.absolute ? BROWSER_ORIGIN : ''}${caddyReplacementText(rule.path)}$1`
      lines.push(`header_down ${header} ${caddyQuote(rule.pattern)} ${caddyQuote(to)}`)
    }
  }
  lines.push(...cookieRulesOf(plan, notes))
  if (route.cors !== undefined && route.cors.origin.kind !== 'function')
    lines.push('header_down -Access-Control-*')
  const transport = [
    // No Accept-Encoding of Caddy's own: the target sees what the client asked for, as through the dev proxy.
    'compression off',
    // The dev proxy's `timeout`: the time to the answer's head (its body and WebSockets may take
    // longer). Without one, Caddy's own default: no limit on the answer; the connection within
    // the 10 s undici gives the dev proxy's.
    ...(plan.timeout === undefined
      ? ['dial_timeout 10s']
      : [`dial_timeout ${plan.timeout}ms`, `response_header_timeout ${plan.timeout}ms`]),
  ]
  if (upstream.tls) {
    if (!/^[\d.:]+$/.test(upstream.serverName))
      transport.push(`tls_server_name ${caddyQuote(upstream.serverName)}`)
    if (!route.secure) transport.push('tls_insecure_skip_verify')
  }
  return [
    `reverse_proxy ${upstream.tls ? 'https' : 'http'}://${upstream.address} {`,
    ...indentCaddy(lines),
    // Every chunk goes out as it arrives: server-sent events one by one, as the dev proxy streams.
    '\tflush_interval -1',
    '\ttransport http {',
    ...indentCaddy(indentCaddy(transport)),
    '\t}',
    '}',
  ]
}

/**
 * One route's matcher and `handle` block: the prefix matched on segment boundaries
 * (`^/api(/|$)`: `/api`, `/api/x`, never `/api2`; case-sensitive, as the dev proxy matches), the
 * CORS policy, a same-origin `Origin` sent as the target's, WebSocket handshakes only on `ws`
 * routes, the path rewritten, and the `reverse_proxy`. What cannot be exported is said in
 * comments above it.
 *
 * @example
 * renderCaddyRoute(plan).join('\n') // '# routes[\'/api\'] → http://127.0.0.1:3000/\n@cdp_r1 path_regexp ...'
 */
export function renderCaddyRoute(plan: RoutePlan): string[] {
  const { route } = plan
  const notes = [...plan.notes]
  const body: string[] = []
  if (route.cors !== undefined && route.cors.origin.kind !== 'function') {
    const cors = caddyCors(plan, route.cors)
    if ('problem' in cors) {
      notes.push(
        `${plan.label}.cors: ${cors.problem}: not exported, so this route adds no CORS headers and forwards preflights.`,
      )
    } else body.push(...cors.lines)
  }
  if (plan.sameOriginAs !== undefined)
    body.push(`request_header ${SAME_ORIGIN_MATCHER} Origin ${caddyLiteral(plan.sameOriginAs)}`)
  if (route.ws && route.rewriteWsOrigin) {
    body.push(
      `@cdp_${plan.id}_ws_origin {`,
      `\t${WEBSOCKET_HANDSHAKE}`,
      '\theader Origin *',
      '}',
      `request_header @cdp_${plan.id}_ws_origin Origin ${caddyLiteral(route.target.origin)}`,
    )
  }
  // Without `ws` the dev proxy forwards no WebSocket handshake: the target gets a plain request.
  if (!route.ws) body.push('request_header -Upgrade')
  // The client's own values are not trusted (see reverseProxyOf): Caddy sets both from this hop.
  if (route.xfwd) body.push('request_header -X-Forwarded-Proto', 'request_header -X-Forwarded-Host')
  body.push(...rewriteOf(plan), ...reverseProxyOf(plan, notes))

  const matcher = `@cdp_${plan.id}`
  const pattern = route.prefix === '/' ? '^/' : `^${escapeRegex(route.prefix)}(/|$)`
  return [
    ...caddyComment('', [`${plan.label} → ${route.target.href}`]),
    ...caddyComment(
      '',
      notes.map((note) => `Needs attention: ${note}`),
    ),
    `${matcher} path_regexp ${caddyQuote(pattern)}`,
    `handle ${matcher} {`,
    ...indentCaddy(body),
    '}',
  ]
}
