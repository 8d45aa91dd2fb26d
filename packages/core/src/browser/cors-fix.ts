import type { CorsError } from './chromium-messages.js'

/** What a fix line needs to know about the blocked request. */
export interface CorsFixContext {
  /** The page's origin serialization. */
  readonly origin: string
  /** The status of the answer that failed. */
  readonly status: number
  /**
   * The cors-dev-proxy route that relayed the answer, when there is one (the proxy's own log):
   * the way out through cors-dev-proxy is then that route's `cors`, not a proxy to set up.
   */
  readonly route?: string | undefined
}

/** The way out through cors-dev-proxy: set up a proxy, or give the route that relays it `cors`. */
function throughProxy(context: CorsFixContext, answers: string): string {
  return context.route === undefined
    ? `or let cors-dev-proxy answer ${answers} with \`cors: true\``
    : `or add \`cors: true\` to route '${context.route}' so that cors-dev-proxy answers ${answers}`
}

/**
 * One line saying what to change so the browser lets the request through, for the server's
 * owner and for a cors-dev-proxy user alike. Kept apart from Chromium's words on purpose:
 * those are quoted verbatim, this is ours.
 *
 * @example
 * corsFix({ kind: 'header-not-allowed', preflight: true, hint: 'x-foo' }, { origin: 'http://localhost:5173', status: 204 })
 * // "add `x-foo` to `cors.allowedHeaders` (Access-Control-Allow-Headers), or let cors-dev-proxy answer the preflight with `cors: true`"
 */
export function corsFix(error: CorsError, context: CorsFixContext): string {
  const hint = error.hint ?? ''
  const origin = context.origin
  const where = error.preflight ? 'the preflight (OPTIONS) answer' : 'the response'
  switch (error.kind) {
    case 'missing-allow-origin':
      return context.route === undefined
        ? `send \`Access-Control-Allow-Origin: ${origin}\` on ${where}, or proxy the route with cors-dev-proxy and \`cors: true\``
        : `send \`Access-Control-Allow-Origin: ${origin}\` on ${where}, ${throughProxy(context, 'with the CORS headers')}`
    case 'wildcard-origin-with-credentials':
      return `send \`Access-Control-Allow-Origin: ${origin}\` with \`Vary: Origin\` instead of \`*\` (e.g. \`cors: { origin: '${origin}', credentials: true }\`), or stop sending credentials ('include')`
    case 'multiple-allow-origin-values':
      return `send exactly one origin in Access-Control-Allow-Origin (got '${hint}'): when both a proxy and the backend add it, remove one (a route with \`cors\` replaces the backend's)`
    case 'invalid-allow-origin-value':
      return `send \`Access-Control-Allow-Origin: ${origin}\` (an origin such as http://localhost:5173, or \`*\`), not '${hint}'`
    case 'allow-origin-mismatch':
      return `allow the page's origin: send \`Access-Control-Allow-Origin: ${origin}\` instead of '${hint}' (e.g. add '${origin}' to \`cors.origin\`)`
    case 'invalid-allow-credentials':
      return `send \`Access-Control-Allow-Credentials: true\` on ${where} (\`cors: { credentials: true }\`), or stop sending credentials ('include')`
    case 'preflight-invalid-status':
      return `answer the preflight (OPTIONS) with a 2xx status instead of ${context.status}, ${throughProxy(context, 'it')}`
    case 'preflight-redirect':
      return `request the final URL directly (the preflight was answered ${context.status} with a redirect, which a preflight never follows), ${throughProxy(context, 'it')}`
    case 'invalid-allow-methods':
      return 'send Access-Control-Allow-Methods as a comma-separated list of method names, e.g. `GET, PUT, DELETE`'
    case 'invalid-allow-headers':
      return 'send Access-Control-Allow-Headers as a comma-separated list of header names, e.g. `content-type, x-foo`'
    case 'method-not-allowed':
      return hint !== hint.toUpperCase()
        ? `send \`${hint.toUpperCase()}\` from the script (the browser uppercases only DELETE, GET, HEAD, OPTIONS, POST and PUT, and compares case-sensitively), or add \`${hint}\` to \`cors.methods\``
        : `add \`${hint}\` to \`cors.methods\` (Access-Control-Allow-Methods), ${throughProxy(context, 'the preflight')}`
    case 'header-not-allowed':
      return `add ${refusedHeaderList(error)} to \`cors.allowedHeaders\` (Access-Control-Allow-Headers), ${throughProxy(context, 'the preflight')}`
    case 'cors-disabled-scheme':
      return 'redirect to an http: or https: URL: a cross-origin call cannot follow a redirect to another scheme'
    case 'redirect-contains-credentials':
      return "redirect to a URL without `user:password@` (send credentials in a header instead): fetch follows no such redirect, not even on the page's own origin"
  }
}

/** The fix for a request allowed only because Chromium still lets `*` cover Authorization. */
export const AUTHORIZATION_WILDCARD_FIX =
  'list `authorization` explicitly in Access-Control-Allow-Headers (`cors.allowedHeaders`): per the Fetch standard `*` never covers Authorization, and Chromium lets it through today with only a deprecation issue in DevTools (AuthorizationCoveredByWildcard, nothing in the console)'

/** The fix for a forbidden method, which no browser script can send. */
export const FORBIDDEN_METHOD_FIX =
  'use another method: browsers never let a script send CONNECT, TRACE or TRACK (fetch throws before sending anything); test such a method with curl instead'

/**
 * Every header a preflight answer refused, as a fix lists them (`` `x-a`, `x-b` and `x-c` ``):
 * fixing only the one Chromium named would just make it name the next.
 *
 * @example
 * refusedHeaderList({ kind: 'header-not-allowed', preflight: true, hint: 'x-a', headers: ['x-a', 'x-b'] }) // '`x-a` and `x-b`'
 */
export function refusedHeaderList(error: CorsError): string {
  const names = (error.headers ?? [error.hint ?? '']).map((name) => `\`${name}\``)
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '')
}
