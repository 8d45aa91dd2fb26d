import type { ResolvedCorsOptions } from '@cors-dev-proxy/core/adapter'
import { allowedOriginPattern } from './allowed-origins.js'
import { type NginxDefinitions, preflightVariable } from './nginx-maps.js'
import { nginxMap, nginxQuote } from './nginx-syntax.js'
import type { RoutePlan } from './route-plan.js'

/**
 * The backend's own CORS headers, hidden so that the browser sees one policy, the route's (two
 * `Access-Control-Allow-Origin` values fail the check). The dev proxy drops every
 * `access-control-*` header; nginx can only hide names, so these are the ones the Fetch standard
 * and the retired Private Network Access draft define.
 */
export const BACKEND_CORS_HEADERS = [
  'Access-Control-Allow-Origin',
  'Access-Control-Allow-Credentials',
  'Access-Control-Allow-Methods',
  'Access-Control-Allow-Headers',
  'Access-Control-Expose-Headers',
  'Access-Control-Max-Age',
  'Access-Control-Allow-Private-Network',
] as const

/** What a route's CORS policy adds to its `location`, or why it cannot be exported. */
export type NginxCors =
  | {
      /** Checks before the rewrite: the WebSocket origin check, the preflight answer. */
      readonly checks: readonly string[]
      /** `proxy_hide_header` and `add_header` lines. */
      readonly headers: readonly string[]
    }
  | { readonly problem: string }

/** A value that only preflights carry: a map from `$cdp_preflight` to `value`, else empty (no header). */
function onPreflight(defs: NginxDefinitions, variable: string, header: string, value: string): string {
  return defs.define(
    variable,
    nginxMap(`${header} on preflights only.`, preflightVariable(defs), variable, '""', [['1', value]]),
  )
}

/** The `Access-Control-Allow-Origin` value: `*`, the request's `Origin`, or a map that admits only the allowed ones. */
function allowOriginOf(
  defs: NginxDefinitions,
  plan: RoutePlan,
  policy: ResolvedCorsOptions,
): { value: string } | { problem: string } {
  const origin = policy.origin
  if (origin.kind === 'any') return { value: '"*"' }
  if (origin.kind === 'reflect') return { value: '$http_origin' }
  if (origin.kind === 'function') return { problem: 'its origin is a function' }
  const pattern = allowedOriginPattern(origin.allowed, 'pcre')
  if ('problem' in pattern) return { problem: pattern.problem }
  const variable = `$cdp_${plan.id}_allow_origin`
  return {
    value: defs.define(
      variable,
      nginxMap(
        `${plan.label}.cors: the page's Origin when the policy admits it, else none.`,
        '$http_origin',
        variable,
        '""',
        [[nginxQuote(`~${pattern.source}`), '$http_origin']],
      ),
    ),
  }
}

/**
 * The route's CORS policy as the dev proxy applies it (see the core's `cors-decision.ts`): on
 * every answer, errors included (`always`), the allowed origin, credentials, exposed headers and
 * `Vary: Origin`, replacing the backend's own; on a preflight, also the methods, the headers
 * (listed, or the requested ones reflected with `Vary: Access-Control-Request-Headers`) and
 * `Max-Age`, answered here with `optionsSuccessStatus` unless `preflightContinue` forwards it.
 * An `add_header` whose value is empty sends nothing, so preflight-only values are maps that
 * are empty on other requests. A `ws` route also refuses (403) a WebSocket handshake from an
 * origin the policy does not admit, as the dev proxy does.
 *
 * @example
 * nginxCors(defs, plan, plan.route.cors) // { checks: ['if ($cdp_preflight) { return 204; }'], headers: [...] }
 */
export function nginxCors(defs: NginxDefinitions, plan: RoutePlan, policy: ResolvedCorsOptions): NginxCors {
  const allowOrigin = allowOriginOf(defs, plan, policy)
  if ('problem' in allowOrigin) return allowOrigin
  const headers = BACKEND_CORS_HEADERS.map((name) => `proxy_hide_header ${name};`)
  const add = (name: string, value: string) => headers.push(`add_header ${name} ${value} always;`)
  add('Access-Control-Allow-Origin', allowOrigin.value)
  if (policy.credentials) add('Access-Control-Allow-Credentials', '"true"')
  if (policy.exposeHeaders) add('Access-Control-Expose-Headers', defs.literal(policy.exposeHeaders))
  if (policy.origin.kind !== 'any') add('Vary', '"Origin"')
  if (policy.allowMethods !== '') {
    add(
      'Access-Control-Allow-Methods',
      onPreflight(
        defs,
        `$cdp_${plan.id}_allow_methods`,
        `${plan.label}: Access-Control-Allow-Methods`,
        defs.literal(policy.allowMethods),
      ),
    )
  }
  if (policy.allowHeaders === undefined) {
    add(
      'Access-Control-Allow-Headers',
      onPreflight(
        defs,
        '$cdp_request_headers',
        'The requested headers, reflected',
        '$http_access_control_request_headers',
      ),
    )
    add(
      'Vary',
      onPreflight(
        defs,
        '$cdp_preflight_vary',
        'Vary by the requested headers',
        '"Access-Control-Request-Headers"',
      ),
    )
  } else if (policy.allowHeaders !== '') {
    add(
      'Access-Control-Allow-Headers',
      onPreflight(
        defs,
        `$cdp_${plan.id}_allow_headers`,
        `${plan.label}: Access-Control-Allow-Headers`,
        defs.literal(policy.allowHeaders),
      ),
    )
  }
  if (policy.maxAge !== undefined) {
    const maxAge = onPreflight(
      defs,
      `$cdp_${plan.id}_max_age`,
      `${plan.label}: Access-Control-Max-Age`,
      nginxQuote(policy.maxAge),
    )
    add('Access-Control-Max-Age', maxAge)
  }

  return { checks: nginxChecks(defs, plan, policy, allowOrigin.value), headers }
}

/**
 * The route's `if` lines, before it forwards: a WebSocket handshake from an origin the policy does
 * not admit refused (403), and a preflight answered here unless `preflightContinue` forwards it.
 */
function nginxChecks(
  defs: NginxDefinitions,
  plan: RoutePlan,
  policy: ResolvedCorsOptions,
  allowOrigin: string,
): string[] {
  const checks: string[] = []
  if (plan.route.ws && policy.origin.kind === 'match') {
    const forbidden = `$cdp_${plan.id}_ws_forbidden`
    defs.define(
      forbidden,
      nginxMap(
        `1 for a WebSocket handshake from an Origin ${plan.label}.cors does not admit (one without Origin is a program's, and passes).`,
        `"$http_upgrade|$http_origin|${allowOrigin}"`,
        forbidden,
        '0',
        [[nginxQuote('~*^websocket\\|[^|]+\\|$'), '1']],
      ),
    )
    checks.push(`if (${forbidden}) {`, '    return 403;', '}')
  }
  if (!policy.preflightContinue) {
    const status = policy.optionsSuccessStatus
    // `return 204` sends no body; another 2xx needs an explicit empty one.
    checks.push(
      `if (${preflightVariable(defs)}) {`,
      `    return ${status === 204 ? '204' : `${status} ""`};`,
      '}',
    )
  }
  return checks
}
