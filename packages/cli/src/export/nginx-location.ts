import { escapeRegex } from './export-regex.js'
import { nginxCors } from './nginx-cors.js'
import {
  connectionUpgradeVariable,
  forwardedPortVariable,
  type NginxDefinitions,
  sameOriginVariable,
  wsOriginVariable,
} from './nginx-maps.js'
import { nginxComment, nginxQuote } from './nginx-syntax.js'
import type { CookieRule, RoutePlan } from './route-plan.js'

/**
 * Debian's and Ubuntu's CA bundle, what `secure: true` verifies targets against (Node uses its
 * own copy of the same roots). Elsewhere, point `proxy_ssl_trusted_certificate` at the system's.
 */
export const CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt'

const INDENT = '    '

/** The `location` that takes the prefix on segment boundaries: `/api`, `/api/x`, `/api?q`, never `/api2`. */
function locationOf(plan: RoutePlan): string {
  if (plan.route.prefix === '/') return 'location /'
  return `location ~ ${nginxQuote(`^${escapeRegex(plan.route.prefix)}(?:/|$)`)}`
}

/**
 * The upstream path: the prefix removed (`/api/users?x=1` → `/users?x=1`, `/api` → `/`, and
 * `/api//x` → `/x`, as the dev proxy never sends a path starting with `//`) and the target's
 * base path put in front, by a `rewrite ... break` (nginx appends the query itself).
 * Without either, no rewrite: nginx then sends the request URI exactly as the client did.
 */
function rewriteOf(defs: NginxDefinitions, plan: RoutePlan): string[] {
  const { strip, base } = plan.path
  if (strip) {
    const pattern = nginxQuote(`^${escapeRegex(plan.route.prefix)}/*(.*)$`)
    return [`rewrite ${pattern} "${defs.literalText(`${base}/`)}$1" break;`]
  }
  return base === '' ? [] : [`rewrite "^(.*)$" "${defs.literalText(base)}$1" break;`]
}

/** The request headers, as the dev proxy builds them (see the core's `request-headers.ts`). */
function requestHeadersOf(defs: NginxDefinitions, plan: RoutePlan): string[] {
  const { route } = plan
  const fixed = new Map(route.headers.map(([name, value]) => [name, value]))
  const set: Array<[string, string]> = [
    ['Host', plan.host === undefined ? '$http_host' : defs.literal(plan.host)],
  ]
  if (route.ws) {
    set.push(['Upgrade', '$http_upgrade'], ['Connection', connectionUpgradeVariable(defs)])
  } else {
    // Empty: nginx sends no Connection, so the pooled connection stays open (`keepalive`).
    set.push(['Connection', '""'])
  }
  // Never forwarded (RFC 9110 §11.7.2, §7.6.1); nginx drops TE, Keep-Alive, Expect and Upgrade itself.
  set.push(['Proxy-Authorization', '""'], ['Proxy-Connection', '""'], ['HTTP2-Settings', '""'])
  if (route.xfwd) {
    set.push(
      ['X-Real-IP', '$remote_addr'],
      ['X-Forwarded-For', '$proxy_add_x_forwarded_for'],
      ['X-Forwarded-Proto', '$scheme'],
      ['X-Forwarded-Host', '$http_host'],
      ['X-Forwarded-Port', forwardedPortVariable(defs)],
    )
  }
  let origin =
    plan.sameOriginAs === undefined
      ? undefined
      : sameOriginVariable(defs, plan.upstream.name.replace(/^cdp_/, ''), plan.sameOriginAs)
  if (route.ws && route.rewriteWsOrigin) {
    origin = wsOriginVariable(defs, plan.id, route.target.origin, origin ?? '$http_origin')
  }
  if (origin !== undefined) set.push(['Origin', origin])
  // The route's fixed headers win, a fixed `host` included, as in the dev proxy.
  const lines = set
    .filter(([name]) => !fixed.has(name.toLowerCase()))
    .map(([name, value]) => `proxy_set_header ${name} ${value};`)
  for (const [name, value] of fixed) lines.push(`proxy_set_header ${name} ${defs.literal(value)};`)
  return lines
}

/** `proxy_ssl_*` for an https target: SNI and the certificate checked against the target's name, unless `secure: false`. */
function tlsOf(defs: NginxDefinitions, plan: RoutePlan): string[] {
  if (!plan.upstream.tls) return []
  const lines = ['proxy_ssl_server_name on;', `proxy_ssl_name ${defs.literal(plan.upstream.serverName)};`]
  if (!plan.route.secure) return [...lines, 'proxy_ssl_verify off;']
  return [...lines, 'proxy_ssl_verify on;', `proxy_ssl_trusted_certificate ${CA_BUNDLE};`]
}

/**
 * `proxy_cookie_domain` / `proxy_cookie_path`: values compared whole and case-sensitively, as the
 * dev proxy looks them up (nginx compiles domain patterns case-insensitively, hence `(?-i)`).
 */
function cookieLinesOf(defs: NginxDefinitions, rules: readonly CookieRule[]): string[] {
  return rules.map(({ attribute, match, replacement }) => {
    const directive = attribute === 'Domain' ? 'proxy_cookie_domain' : 'proxy_cookie_path'
    // A non-empty replacement never fills in an empty value, hence `.+` for "any value".
    const pattern =
      match === undefined ? (replacement === '' ? '~.*' : '~.+') : `~(?-i)^${escapeRegex(match)}$`
    return `${directive} ${nginxQuote(pattern)} ${defs.literal(replacement)};`
  })
}

/**
 * The route's `timeout`, the time to the answer's head; nginx's read timeout also applies between
 * reads of the body, and to an open WebSocket: raise it for streams that stay silent longer.
 * Without one the dev proxy waits as long as the target takes, and nginx has no "never": a day
 * here, where its default of 60 s would cut a slow answer, and the connection within the 10 s
 * undici gives the dev proxy's.
 */
function timeoutsOf(plan: RoutePlan): string[] {
  const { timeout } = plan
  if (timeout === undefined)
    return ['proxy_connect_timeout 10s;', 'proxy_send_timeout 1d;', 'proxy_read_timeout 1d;']
  return [
    `proxy_connect_timeout ${timeout}ms;`,
    `proxy_send_timeout ${timeout}ms;`,
    `proxy_read_timeout ${timeout}ms;`,
  ]
}

/**
 * One route's `location` block: the prefix matched on segment boundaries, the path rewritten as
 * the dev proxy rewrites it, keep-alive upstream connections, the request headers, streaming both
 * ways, the timeout, TLS, redirect and cookie rewrites, and the CORS policy. What cannot be
 * exported is said in comments above it.
 *
 * @example
 * renderNginxLocation(defs, plan).join('\n') // '    location ~ "^/api(?:/|$)" {\n ...'
 */
export function renderNginxLocation(defs: NginxDefinitions, plan: RoutePlan): string[] {
  const { route } = plan
  const notes = [...plan.notes]
  const cors =
    route.cors === undefined || route.cors.origin.kind === 'function'
      ? undefined
      : nginxCors(defs, plan, route.cors)
  if (cors !== undefined && 'problem' in cors) {
    notes.push(
      `${plan.label}.cors: ${cors.problem}: not exported, so this route adds no CORS headers and forwards preflights.`,
    )
  }
  const body: string[] = []
  if (cors !== undefined && !('problem' in cors)) body.push(...cors.checks)
  body.push(
    ...rewriteOf(defs, plan),
    `proxy_pass ${plan.upstream.tls ? 'https' : 'http'}://${plan.upstream.name};`,
    'proxy_http_version 1.1;',
    ...requestHeadersOf(defs, plan),
    // The dev proxy streams both ways: server-sent events arrive one by one, uploads are not held.
    'proxy_buffering off;',
    'proxy_request_buffering off;',
    ...timeoutsOf(plan),
    ...tlsOf(defs, plan),
  )
  if (plan.locationRules.length === 0) body.push('proxy_redirect off;')
  for (const rule of plan.locationRules) {
    const origin = rule.absolute ? '$scheme://$http_host' : ''
    body.push(`proxy_redirect ${nginxQuote(`~${rule.pattern}`)} "${origin}${defs.literalText(rule.path)}$1";`)
  }
  body.push(...cookieLinesOf(defs, plan.cookieRules))
  if (cors !== undefined && !('problem' in cors)) body.push(...cors.headers)

  return [
    ...nginxComment(INDENT, [`${plan.label} → ${route.target.href}`]),
    ...nginxComment(
      INDENT,
      notes.map((note) => `Needs attention: ${note}`),
    ),
    `${INDENT}${locationOf(plan)} {`,
    ...body.map((line) => `${INDENT}${INDENT}${line}`),
    `${INDENT}}`,
  ]
}
