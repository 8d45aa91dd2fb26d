/*
 * export/: the `nginx` and `caddy` commands' output. Both read the resolved model the proxy runs
 * on (the core's `resolveOptions` through `@cors-dev-proxy/core/adapter`), never the raw
 * configuration, and this file decides once per route what both do (upstream, path rewrite,
 * `Host`, same-origin `Origin`, redirects and cookies, timeout, and notes on what cannot be
 * exported: dev-only-notes.ts), so they cannot drift apart. allowed-origins.ts and
 * export-regex.ts carry a CORS origin policy and the user's RegExps into PCRE (nginx) or RE2
 * (Caddy); the `nginx-*` and `caddy-*` files only write syntax. test/export checks the output
 * with `nginx -t` and `caddy validate`; the root test/parity runs the three side by side.
 */
import type { ResolvedForwardRoute, ResolvedRoute } from '@cors-dev-proxy/core/adapter'
import { devOnlyNotes } from './dev-only-notes.js'
import { escapeRegex } from './export-regex.js'

/**
 * What both exports need to know about one forwarding route, decided once here so that the
 * nginx and the Caddy output cannot drift apart; the renderers only choose the syntax.
 */
export interface RoutePlan {
  readonly route: ResolvedForwardRoute
  /** `r1`, `r2`...: the route's place in the resolved list (longest prefix first), for names in the output. */
  readonly id: string
  /** `routes['/api']`, as messages of the core name the route. */
  readonly label: string
  readonly upstream: UpstreamPlan
  readonly path: PathPlan
  /** The `Host` sent upstream: the target's `host[:port]`, or `undefined` for the client's own. */
  readonly host: string | undefined
  /** The target's origin, sent as `Origin` for a same-origin call (`rewriteOrigin`); `undefined`: never. */
  readonly sameOriginAs: string | undefined
  /** Redirect rewrites, first match wins; empty when `Location` passes unchanged. */
  readonly locationRules: readonly LocationRule[]
  /** Set-Cookie rewrites, first match per attribute wins. */
  readonly cookieRules: readonly CookieRule[]
  /**
   * Milliseconds to wait for the answer's head, whole; `undefined`: no deadline, as the dev proxy
   * without `timeout` (the renderers then write the longest wait their server allows).
   */
  readonly timeout: number | undefined
  /** What the export leaves out, one sentence each, for a comment above the route. */
  readonly notes: readonly string[]
}

/**
 * One upstream (nginx `upstream` block, Caddy upstream address), shared by the routes with the
 * same origin and, for https, the same `secure`: like the dev proxy's pools, an upstream whose
 * kept-alive TLS connections were not verified never serves a route that asks for verification.
 */
export interface UpstreamPlan {
  /** `cdp_127_0_0_1_3000`, `cdp_https_api_example_com_443`, `cdp_https_insecure_localhost_8443`. */
  readonly name: string
  readonly tls: boolean
  /** `host:port`, port always written. */
  readonly address: string
  /** The host name for TLS (SNI and certificate check), without IPv6 brackets. */
  readonly serverName: string
}

/**
 * How the upstream path is built from the request's: `strip` removes the prefix (the default),
 * `keep` sends the path as it came (`pathRewrite: false`, and a RegExp map or function, which
 * the exports cannot carry and which then leave the path unchanged). `base` is the target's own
 * path, prepended (`''` for none).
 */
export interface PathPlan {
  readonly strip: boolean
  readonly base: string
}

/**
 * One `Location` rewrite: a `pattern` (PCRE and RE2 read it alike) whose match becomes `path`
 * (literal text) followed by the pattern's first group. `absolute` answers get the origin the
 * browser used in front; path-absolute ones stay path-absolute, as the dev proxy answers them.
 */
export interface LocationRule {
  readonly pattern: string
  readonly absolute: boolean
  readonly path: string
}

/**
 * One Set-Cookie attribute rewrite: `match` is the exact value (`undefined`: any value) and
 * `replacement` the new one (`''` removes the attribute; a non-empty one never fills in an
 * empty value, as in the dev proxy).
 */
export interface CookieRule {
  readonly attribute: 'Domain' | 'Path'
  readonly match: string | undefined
  readonly replacement: string
}

/** `routes['/api']`, the way the core's messages name a route. */
export function routeLabel(prefix: string): string {
  return `routes['${prefix.replace(/['\\]/g, '\\$&')}']`
}

function upstreamOf(target: URL, secure: boolean): UpstreamPlan {
  const tls = target.protocol === 'https:'
  const port = target.port === '' ? (tls ? '443' : '80') : target.port
  const serverName = target.hostname.replace(/^\[|\]$/g, '')
  const slug = `${serverName}_${port}`.replace(/[^A-Za-z0-9]+/g, '_')
  const kind = tls ? (secure ? 'https_' : 'https_insecure_') : ''
  return { name: `cdp_${kind}${slug}`, tls, address: `${target.hostname}:${port}`, serverName }
}

/** The target's origin as a pattern: any case, the default port optional, scheme-relative too (`//host`). */
function targetOriginPattern(target: URL): string {
  const defaultPort = target.port === ''
  const host = escapeRegex(target.host)
  return `(?i:(?:${target.protocol})?//${host}${defaultPort ? `(?::${target.protocol === 'https:' ? 443 : 80})?` : ''})`
}

/**
 * The dev proxy's redirect rewrite (`rewriteLocation`) as rules: a `Location` on the target,
 * absolute or path-absolute, under the target's base path, gets the base taken off and the
 * prefix put back (`/posts` → `/api/posts`; `http://localhost:3000/posts` →
 * `<browser origin>/api/posts`). Relative values and other origins match no rule. None with
 * `rewriteLocation: false`, nor when `pathRewrite` is a map or a function (the dev proxy cannot
 * undo those either and passes the header unchanged).
 */
function locationRulesOf(route: ResolvedForwardRoute): LocationRule[] {
  const rewrite = route.pathRewrite
  if (!route.rewriteLocation || (rewrite !== undefined && rewrite !== false)) return []
  const prefix = rewrite === false || route.prefix === '/' ? '' : route.prefix
  const base = route.target.pathname.replace(/\/+$/, '')
  const origin = targetOriginPattern(route.target)
  const rules: LocationRule[] = [
    { pattern: `^${origin}${escapeRegex(base)}(/.*)$`, absolute: true, path: prefix },
    { pattern: `^${origin}${escapeRegex(base)}([?#].*)?$`, absolute: true, path: `${prefix}/` },
  ]
  if (base !== '') {
    rules.push(
      { pattern: `^${escapeRegex(base)}(/.*)$`, absolute: false, path: prefix },
      { pattern: `^${escapeRegex(base)}([?#].*)?$`, absolute: false, path: `${prefix}/` },
    )
  } else if (prefix !== '') {
    // Path-absolute only: `//host/x` is scheme-relative and was handled (or left) above.
    rules.push({ pattern: '^/([^/].*)?$', absolute: false, path: `${prefix}/` })
  }
  return rules
}

function cookieRulesOf(route: ResolvedForwardRoute): CookieRule[] {
  const rules: CookieRule[] = []
  const add = (attribute: CookieRule['attribute'], rewrite: ResolvedForwardRoute['cookieDomainRewrite']) => {
    if (rewrite === false) return
    if (typeof rewrite === 'string') {
      rules.push({ attribute, match: undefined, replacement: rewrite })
      return
    }
    // The dev proxy looks a value up by its own key first, then falls back to '*'.
    for (const [match, replacement] of Object.entries(rewrite)) {
      if (match !== '*') rules.push({ attribute, match, replacement })
    }
    const fallback = rewrite['*']
    if (fallback !== undefined) rules.push({ attribute, match: undefined, replacement: fallback })
  }
  add('Domain', route.cookieDomainRewrite)
  add('Path', route.cookiePathRewrite)
  return rules
}

/** What a forwarding route does that happens in Node, per request, and so has no nginx or Caddy form. */
function notesOf(route: ResolvedForwardRoute, label: string): string[] {
  const notes: string[] = []
  const rewrite = route.pathRewrite
  if (typeof rewrite === 'function' || (typeof rewrite === 'object' && rewrite !== null)) {
    const kind = typeof rewrite === 'function' ? 'a function' : 'a RegExp map'
    notes.push(
      `${label}.pathRewrite is ${kind}: not exported, the path goes up unchanged (prefix kept); write the rewrite here.`,
    )
  }
  if (route.router !== undefined)
    notes.push(`${label}.router picks a target per request: not exported, every request goes to the target.`)
  if (route.pathFilter !== undefined)
    notes.push(`${label}.pathFilter: not exported, every request under the prefix is forwarded.`)
  if (route.bypass !== undefined)
    notes.push(`${label}.bypass answers in the dev server: not exported, every request is forwarded.`)
  const hooks = Object.values(route.hooks).flatMap((entries) => entries.map((entry) => entry.name))
  if (hooks.length > 0) notes.push(`${[...new Set(hooks)].join(', ')} run in Node: not exported.`)
  if (route.transformResponse !== undefined)
    notes.push(`${label}.transformResponse: not exported, answers go out as the target sent them.`)
  if (route.jsonp !== undefined)
    notes.push(`${label}.jsonp: not exported, answers go out as the target sent them (no callback wrapping).`)
  if (route.cors?.origin.kind === 'function') {
    notes.push(
      `${label}.cors.origin is a function: not exported, so this route adds no CORS headers and forwards preflights; list the allowed origins instead.`,
    )
  }
  notes.push(...devOnlyNotes(route, label))
  return notes
}

/**
 * Plans every route for the exports, in the resolved order (longest prefix first). A mock
 * route has no target to forward to: it becomes a note, returned in `skipped`.
 *
 * @example
 * const { routes, skipped } = planRoutes(resolveOptions({ '/api': 'http://localhost:3000' }).routes)
 * routes[0].path // { strip: true, base: '' }
 */
export function planRoutes(routes: readonly ResolvedRoute[]): { routes: RoutePlan[]; skipped: string[] } {
  const plans: RoutePlan[] = []
  const skipped: string[] = []
  routes.forEach((route, index) => {
    const label = routeLabel(route.prefix)
    if (route.kind === 'mock') {
      skipped.push(
        `${label} answers from the built-in mock backend, which has no counterpart here: not exported. Give it a target to export it.`,
      )
      return
    }
    if (!route.hasTarget) {
      skipped.push(
        `${label} has no target (its ${route.source.router === undefined ? 'bypass' : 'router'} decides per request): not exported. Give it a target to export it.`,
      )
      return
    }
    if (route.socketPath !== undefined) {
      skipped.push(`${label} forwards to the Unix socket ${route.socketPath}: not exported.`)
      return
    }
    plans.push({
      route,
      id: `r${index + 1}`,
      label,
      upstream: upstreamOf(route.target, route.secure),
      path: {
        strip: route.pathRewrite === undefined && route.prefix !== '/',
        base: route.target.pathname.replace(/\/+$/, ''),
      },
      host: route.changeOrigin ? route.target.host : undefined,
      sameOriginAs: route.changeOrigin && route.rewriteOrigin ? route.target.origin : undefined,
      locationRules: locationRulesOf(route),
      cookieRules: cookieRulesOf(route),
      timeout: route.timeout === undefined ? undefined : Math.ceil(route.timeout),
      notes: notesOf(route, label),
    })
  })
  return { routes: plans, skipped }
}
