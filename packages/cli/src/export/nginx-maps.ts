import { nginxMap, nginxQuote } from './nginx-syntax.js'

/**
 * The `http {}`-level blocks the locations share, each defining one variable, written once and
 * only when a route uses it. Keyed by the variable, which is what a location refers to.
 */
export interface NginxDefinitions {
  /** Adds `block` (defining `variable`) unless it is there already; returns `variable`. */
  define(variable: string, block: string): string
  /** Quotes a literal value (`$` kept literal), remembering to define `$cdp_dollar` when needed. */
  literal(text: string): string
  /** The same, unquoted: for a literal part of a larger quoted token. */
  literalText(text: string): string
}

/**
 * 1 for a CORS preflight: OPTIONS with `Origin` and `Access-Control-Request-Method` (Fetch
 * standard §4.8); any other OPTIONS is an ordinary request, forwarded like the rest.
 */
export function preflightVariable(defs: NginxDefinitions): string {
  return defs.define(
    '$cdp_preflight',
    nginxMap(
      '1 for a CORS preflight: OPTIONS with Origin and Access-Control-Request-Method.',
      '"$request_method|$http_origin|$http_access_control_request_method"',
      '$cdp_preflight',
      '0',
      [[nginxQuote('~^OPTIONS\\|[^|]+\\|.'), '1']],
    ),
  )
}

/**
 * The upstream `Connection` of a `ws` route: `upgrade` for a WebSocket handshake, else empty,
 * which keeps the pooled upstream connection alive (`close` would defeat `keepalive`).
 */
export function connectionUpgradeVariable(defs: NginxDefinitions): string {
  return defs.define(
    '$cdp_connection_upgrade',
    nginxMap(
      "Connection towards a ws route's target: upgrade for a WebSocket handshake, else none (the connection stays alive).",
      '$http_upgrade',
      '$cdp_connection_upgrade',
      'upgrade',
      [['""', '""']],
    ),
  )
}

/** `X-Forwarded-Port`, as the dev proxy sends it: the port in `Host`, else the scheme's default (RFC 9110 §4.2). */
export function forwardedPortVariable(defs: NginxDefinitions): string {
  defs.define(
    '$cdp_default_port',
    nginxMap('The default port of the scheme.', '$scheme', '$cdp_default_port', '80', [['https', '443']]),
  )
  return defs.define(
    '$cdp_forwarded_port',
    nginxMap(
      "X-Forwarded-Port: the port in Host, else the scheme's default.",
      '$http_host',
      '$cdp_forwarded_port',
      '$cdp_default_port',
      [[nginxQuote('~:([0-9]+)$'), '$1']],
    ),
  )
}

/**
 * The `Origin` a route with `changeOrigin` and `rewriteOrigin` sends: the target's own for a
 * same-origin call (the page's `Origin` is this server's scheme and `Host`), so a backend that
 * compares `Origin` with `Host` accepts it; any other `Origin` unchanged, for the backend to judge.
 */
export function sameOriginVariable(defs: NginxDefinitions, slug: string, targetOrigin: string): string {
  defs.define(
    '$cdp_same_origin',
    nginxMap(
      "1 for a same-origin call: the page's Origin is this server's own scheme and Host.",
      '"$http_origin $scheme://$http_host"',
      '$cdp_same_origin',
      '0',
      // The backreference compares the two halves whole, as the dev proxy compares the strings.
      [[nginxQuote('~^(\\S+) \\1$'), '1']],
    ),
  )
  const variable = `$cdp_origin_${slug}`
  return defs.define(
    variable,
    nginxMap(
      `Origin sent to ${targetOrigin}: its own for a same-origin call, else the page's.`,
      '$cdp_same_origin',
      variable,
      '$http_origin',
      [['1', defs.literal(targetOrigin)]],
    ),
  )
}

/**
 * Vite's `rewriteWsOrigin`: a WebSocket handshake that carries an `Origin` sends the target's;
 * other requests keep what `otherwise` says.
 */
export function wsOriginVariable(
  defs: NginxDefinitions,
  slug: string,
  targetOrigin: string,
  otherwise: string,
): string {
  const variable = `$cdp_ws_origin_${slug}`
  return defs.define(
    variable,
    nginxMap(
      `Origin of a WebSocket handshake to ${targetOrigin} (rewriteWsOrigin): the target's own.`,
      '"$http_upgrade|$http_origin"',
      variable,
      otherwise,
      [[nginxQuote('~^[^|]+\\|.'), defs.literal(targetOrigin)]],
    ),
  )
}
