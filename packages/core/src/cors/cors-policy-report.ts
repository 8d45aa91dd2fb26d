import type { CorsError } from '../browser/chromium-messages.js'
import { corsFix, refusedHeaderList } from '../browser/cors-fix.js'
import { diagnoseResponse } from '../browser/diagnose-response.js'
import type { ResolvedRoute } from '../config/resolved-route.js'
import type { ProxyRequest } from '../http/proxy-types.js'
import { requestedOrigin } from '../http/request-origin.js'
import type { Logger } from '../log/logger.js'
import { allowOriginExample } from './allow-origin-example.js'
import type { CorsDecision } from './cors-decision.js'

/**
 * Checks the answer about to be written to `req` with `status` and the policy's `decision`, and
 * logs if the browser will refuse it to the page. Never throws.
 */
export type CorsPolicyReporter = (req: ProxyRequest, decision: CorsDecision, status: number) => void

/**
 * What to change in the route's own policy. `corsFix` speaks to a backend's owner ("or let
 * cors-dev-proxy answer with `cors: true`"), which is no help on a route that already has `cors`.
 */
function policyFix(error: CorsError, origin: string, route: ResolvedRoute, status: number): string {
  const prefix = route.prefix
  const where = `the \`cors\` option of route '${prefix}'`
  const hint = error.hint ?? ''
  switch (error.kind) {
    case 'missing-allow-origin':
      return `allow the page's origin in ${where}, e.g. \`${allowOriginExample(route.cors?.origin, origin)}\``
    case 'wildcard-origin-with-credentials':
      return `the page sends credentials, which \`*\` never allows: answer with its origin instead, e.g. \`cors: { origin: ['${origin}'], credentials: true }\` in ${where}`
    case 'invalid-allow-credentials':
      return `the page sends credentials: add \`credentials: true\` to ${where}`
    case 'method-not-allowed':
      return hint === hint.toUpperCase()
        ? `add \`${hint}\` to \`methods\` in ${where}`
        : corsFix(error, { origin, status })
    case 'header-not-allowed':
      return `add ${refusedHeaderList(error)} to \`allowedHeaders\` in ${where}, or leave \`allowedHeaders\` unset to allow the headers the page asks for`
    default:
      return corsFix(error, { origin, status })
  }
}

/** The inputs of one allowed verdict, compared one by one: a repeated request builds no key. */
interface AllowedInputs {
  readonly own: string
  readonly origin: string
  readonly method: string | undefined
  readonly status: number
  readonly requestMethod: unknown
  readonly requestHeaders: unknown
  readonly cookieless: boolean
  readonly fetchMode: unknown
}

/** How many allowed verdicts a shared decision remembers as {@link AllowedInputs}. */
const RECENT_PER_DECISION = 4

function sameInputs(
  seen: AllowedInputs,
  req: ProxyRequest,
  own: string,
  origin: string,
  status: number,
): boolean {
  const h = req.headers
  return (
    seen.status === status &&
    seen.origin === origin &&
    seen.own === own &&
    seen.method === req.method &&
    seen.requestMethod === h['access-control-request-method'] &&
    seen.requestHeaders === h['access-control-request-headers'] &&
    seen.cookieless === (h.cookie === undefined) &&
    seen.fetchMode === h['sec-fetch-mode']
  )
}

/**
 * The diagnostics of a route WITH `cors`: the route's own policy decides the CORS headers, so
 * when it refuses a cross-origin page (an origin it does not allow, a method or header it does
 * not list, credentials it does not accept) the browser blocks the answer while the proxy
 * answered normally. The log then says so in Chromium's words, with the change to make in the
 * route's `cors`, at most once per route and kind of refusal every 10 s (`logger.limited`). Requests without `Origin`, from the dev server's
 * own pages, or that the origin function took CORS off for, are not checked. Never throws.
 *
 * @example
 * const report = createCorsPolicyReporter(route, logger)
 * report(req, decision, 204) // just before the answer's head is written
 */
export function createCorsPolicyReporter(route: ResolvedRoute, logger: Logger): CorsPolicyReporter {
  // The verdict depends only on the inputs in `verdictKey`, not on the path, and almost every
  // answer is allowed: remembering the allowed ones keeps the full browser check (which costs
  // more than answering a preflight) off the hot path. Bounded, and cleared when full.
  const allowed = new Set<string>()
  // Without an origin function a decision is shared by every request with the same answer (see
  // `createCorsDecider`): the last few allowed inputs of each are compared field by field, which
  // spares a page's repeated calls the key above (a long string built and hashed per request).
  const recent =
    route.cors?.origin.kind === 'function' ? undefined : new WeakMap<CorsDecision, AllowedInputs[]>()
  const remember = (
    req: ProxyRequest,
    own: string,
    origin: string,
    status: number,
    decision: CorsDecision,
  ) => {
    if (recent === undefined) return
    const h = req.headers
    const inputs: AllowedInputs = {
      own,
      origin,
      method: req.method,
      status,
      requestMethod: h['access-control-request-method'],
      requestHeaders: h['access-control-request-headers'],
      cookieless: h.cookie === undefined,
      fetchMode: h['sec-fetch-mode'],
    }
    const list = recent.get(decision)
    if (list === undefined) recent.set(decision, [inputs])
    else if (list.unshift(inputs) > RECENT_PER_DECISION) list.pop()
  }

  return function corsPolicyReport(req, decision, status) {
    const origin = req.headers.origin
    if (origin === undefined || decision.disabled) return
    const own = requestedOrigin(req)
    if (own === undefined || origin === own) return
    const seen = recent?.get(decision)
    if (seen !== undefined) {
      for (const inputs of seen) if (sameInputs(inputs, req, own, origin, status)) return
    }
    const key = verdictKey(req, own, origin, status, decision)
    if (allowed.has(key)) {
      remember(req, own, origin, status, decision)
      return
    }
    // Checked after the memo, since parsing two origins costs more than the lookup; a
    // same-origin request gets no diagnosis and is remembered as allowed below.
    try {
      const diagnosis = diagnoseResponse({
        url: `${own}${req.url ?? '/'}`,
        method: req.method ?? 'GET',
        requestHeaders: req.headers as Record<string, string | string[] | undefined>,
        response: { status, headers: decision.headers },
      })
      if (diagnosis === undefined || diagnosis.allowed || diagnosis.error === undefined) {
        if (allowed.size >= MAX_REMEMBERED) allowed.clear()
        allowed.add(key)
        remember(req, own, origin, status, decision)
        return
      }
      // Keyed by route and kind of refusal, never by origin or header names: a client that
      // forges a new Origin on every request must not get a new line each time.
      const { error } = diagnosis
      logger.limited(
        'warn',
        `cors ${route.prefix} ${diagnosis.stage}:${error.kind}`,
        () =>
          `${req.method} ${req.url} from ${origin}: the browser will refuse this answer to the page (route '${route.prefix}' has \`cors\`, whose policy does not allow it)\n  ${diagnosis.message}\n  Fix: ${policyFix(error, origin, route, status)}`,
      )
    } catch (error) {
      logger.debug(`CORS diagnostics failed for ${req.method} ${req.url}: ${String(error)}`)
    }
  }
}

/** How many allowed verdicts a route remembers. */
const MAX_REMEMBERED = 512

/** Everything `diagnoseResponse` decides on, joined: equal keys always get equal verdicts. */
function verdictKey(
  req: ProxyRequest,
  own: string,
  origin: string,
  status: number,
  decision: CorsDecision,
): string {
  const h = req.headers
  let key = `${own}\n${origin}\n${req.method}\n${status}\n${h['access-control-request-method']}\n${h['access-control-request-headers']}\n${h.cookie === undefined}\n${h['sec-fetch-mode']}`
  for (const [name, value] of decision.headers) key += `\n${name}:${value}`
  return key
}
