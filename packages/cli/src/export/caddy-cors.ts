import type { ResolvedCorsOptions } from '@cors-dev-proxy/core/adapter'
import { allowedOriginPattern } from './allowed-origins.js'
import { caddyLiteral, caddyQuote } from './caddy-syntax.js'
import type { RoutePlan } from './route-plan.js'

/** What a route's CORS policy adds to its `handle` block, or why it cannot be exported. */
export type CaddyCors = { readonly lines: readonly string[] } | { readonly problem: string }

/** A handshake that asks for a WebSocket, as the dev proxy recognizes one (`Upgrade: websocket`, any case). */
export const WEBSOCKET_HANDSHAKE = 'header_regexp Upgrade "(?i)^websocket$"'

/**
 * The route's CORS policy as the dev proxy applies it (see the core's `cors-decision.ts`), with
 * Caddy's `header` directive, which sets response headers before the target answers, so they are
 * on every answer (errors too): the allowed origin, credentials, exposed headers and
 * `Vary: Origin`; on a preflight also the methods, the headers (listed, or the requested ones
 * reflected with `Vary: Access-Control-Request-Headers`) and `Max-Age`, answered here with
 * `optionsSuccessStatus` unless `preflightContinue` forwards it. The backend's own
 * `Access-Control-*` headers are dropped in `reverse_proxy` (see caddy-route.ts). A `ws` route
 * also refuses (403) a WebSocket handshake from an origin the policy does not admit.
 *
 * @example
 * caddyCors(plan, plan.route.cors) // { lines: ['@cdp_r1_preflight {', ...] }
 */
export function caddyCors(plan: RoutePlan, policy: ResolvedCorsOptions): CaddyCors {
  const at = (name: string) => `@cdp_${plan.id}_${name}`
  const preflight = at('preflight')
  const lines = [
    `# CORS, as the dev proxy answers for ${plan.label}: preflights here, the headers on every answer.`,
    // Fetch standard §4.8: OPTIONS with Origin and Access-Control-Request-Method; any other OPTIONS is forwarded.
    `${preflight} {`,
    '\tmethod OPTIONS',
    '\theader Origin *',
    '\theader Access-Control-Request-Method *',
    '}',
  ]
  const origin = policy.origin
  if (origin.kind === 'function') return { problem: 'its origin is a function' }
  let allowed: string | undefined
  if (origin.kind === 'any') {
    lines.push('header Access-Control-Allow-Origin "*"')
  } else {
    allowed = origin.kind === 'reflect' ? '.' : undefined
    if (origin.kind === 'match') {
      const pattern = allowedOriginPattern(origin.allowed, 're2')
      if ('problem' in pattern) return { problem: pattern.problem }
      allowed = pattern.source
    }
    lines.push(
      `${at('allowed')} header_regexp Origin ${caddyQuote(allowed ?? '.')}`,
      `header ${at('allowed')} Access-Control-Allow-Origin {http.request.header.Origin}`,
    )
  }
  if (policy.credentials) lines.push('header Access-Control-Allow-Credentials "true"')
  if (policy.exposeHeaders)
    lines.push(`header Access-Control-Expose-Headers ${caddyLiteral(policy.exposeHeaders)}`)
  if (origin.kind !== 'any') lines.push('header +Vary "Origin"')
  if (policy.allowMethods !== '') {
    lines.push(`header ${preflight} Access-Control-Allow-Methods ${caddyLiteral(policy.allowMethods)}`)
  }
  if (policy.allowHeaders === undefined) {
    lines.push(
      `${at('preflight_headers')} {`,
      '\tmethod OPTIONS',
      '\theader Origin *',
      '\theader Access-Control-Request-Method *',
      '\theader Access-Control-Request-Headers *',
      '}',
      `header ${at('preflight_headers')} Access-Control-Allow-Headers {http.request.header.Access-Control-Request-Headers}`,
      `header ${preflight} +Vary "Access-Control-Request-Headers"`,
    )
  } else if (policy.allowHeaders !== '') {
    lines.push(`header ${preflight} Access-Control-Allow-Headers ${caddyLiteral(policy.allowHeaders)}`)
  }
  if (policy.maxAge !== undefined) lines.push(`header ${preflight} Access-Control-Max-Age "${policy.maxAge}"`)
  if (plan.route.ws && origin.kind === 'match') {
    // A handshake without Origin is a program's, not a page's, and passes, as in the dev proxy.
    lines.push(
      `${at('ws_forbidden')} {`,
      `\t${WEBSOCKET_HANDSHAKE}`,
      '\theader Origin *',
      `\tnot header_regexp Origin ${caddyQuote(allowed ?? '.')}`,
      '}',
      `respond ${at('ws_forbidden')} 403`,
    )
  }
  if (!policy.preflightContinue) lines.push(`respond ${preflight} ${policy.optionsSuccessStatus}`)
  return { lines }
}
