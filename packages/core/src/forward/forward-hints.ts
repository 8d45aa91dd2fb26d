import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import { splitPathAndQuery } from '../http/normalize-path.js'
import type { ProxyRequest } from '../http/proxy-types.js'
import { requestedOrigin } from '../http/request-origin.js'
import type { Logger } from '../log/logger.js'
import type { LocationRewrite } from './location-rewrite.js'
import { targetLabel } from './proxy-error.js'
import { type RawField, rawHeaderValue } from './raw-headers.js'

/** The fix for a body read before the proxy, as the 500 answer and the log give it. */
export const BODY_FIX =
  'Mount cors-dev-proxy before the body parser (express.json(), bodyParser...), or leave req.body in place'

/**
 * Asks the route's target, once, for a path with the route's prefix kept (`HEAD /api/users`):
 * its status, or `undefined` when it could not be asked.
 */
export type PrefixProbe = (path: string) => Promise<number | undefined>

/** At most this many 404s per route are checked against the path with the prefix. */
const MAX_PREFIX_PROBES = 3

/** Methods a probe may repeat as a HEAD without doing anything the client did not ask for. */
function isSafeMethod(method: string | undefined): boolean {
  return method === 'GET' || method === 'HEAD'
}

/** The answer's parts the hints look at: its headers as an object, or undici's raw list. */
interface Answer {
  readonly statusCode: number
  readonly headers: Readonly<Record<string, string | string[] | undefined>> | readonly RawField[]
}

/** One-line explanations of surprising answers, each printed once per route. */
export interface ForwardHints {
  /** A body parser read the body before the proxy: the request is answered 500, never forwarded empty. */
  bodyLost(req: ProxyRequest, cause: string): void
  /** Looks at an answer about to be relayed. */
  answered(req: ProxyRequest, answer: Answer, path: string, upstreamPath: string): void
}

/**
 * The hints of one route. Each kind is printed at most once per route for the proxy's life: a
 * hint explains a configuration, which does not change from one request to the next. The 404
 * hint needs evidence: after a 404 to a GET or HEAD whose prefix the default rewrite removed,
 * `probe` asks the target for the path with the prefix (at most three times per route), and
 * the hint is given only when that path exists.
 *
 * @example
 * const hints = createForwardHints(route, createLocationRewrite(route), logger)
 * hints.answered(req, upstream, '/api/users', '/users')
 */
export function createForwardHints(
  route: ResolvedForwardRoute,
  location: LocationRewrite,
  logger: Logger,
  probe?: PrefixProbe,
): ForwardHints {
  const label = targetLabel(route.target)
  const given = new Set<string>()
  const once = (kind: string, print: () => void): void => {
    if (given.has(kind)) return
    given.add(kind)
    print()
  }
  const hint: HintContext = { label, route, logger, once }
  // The default rewrite removed the prefix: a 404 may mean the server expected it.
  const prefixRemoved = route.pathRewrite === undefined && route.prefix !== '/' && probe !== undefined
  // Most 404s are a missing item: only evidence (the path with the prefix exists) earns a hint.
  let probesLeft = MAX_PREFIX_PROBES

  return {
    bodyLost(req, cause) {
      once('body', () =>
        logger.error(
          `500 ${req.method} ${req.url} → ${label}: ${cause}, so it was not forwarded. ${BODY_FIX}.`,
        ),
      )
    },
    answered(req, answer, path, upstreamPath) {
      const status = answer.statusCode
      if (
        status === 404 &&
        prefixRemoved &&
        probesLeft > 0 &&
        !given.has('404') &&
        isSafeMethod(req.method)
      ) {
        probesLeft--
        const removed = splitPathAndQuery(upstreamPath)[0]
        const kept = splitPathAndQuery(path)[0]
        void (probe as PrefixProbe)(path).then((found) => {
          // Anything but "not found" (a 200, a redirect, a 401/403/405) says the path exists there.
          if (found === undefined || found === 404 || found === 410 || found >= 500) return
          probesLeft = 0
          once('404', () =>
            logger.warn(
              `${label} answered 404 for ${removed}, and ${found} for ${kept}: route '${route.prefix}' removes its prefix ` +
                '(the default), and the server seems to expect it: set `pathRewrite: false` on route ' +
                `'${route.prefix}'.`,
            ),
          )
        })
      }
      if (status === 403) originRefusedHint(hint, req)
      if (location.kind === 'irreversible') irreversibleLocationHint(hint, location, req, answer)
    },
  }
}

/** What the hints of one route share: its target's label, the route, the logger, and "say it once". */
interface HintContext {
  readonly label: string
  readonly route: ResolvedForwardRoute
  readonly logger: Logger
  readonly once: (kind: string, print: () => void) => void
}

/** A 403 to a request whose Origin went to the target unchanged: the server may check Origin (once per route). */
function originRefusedHint(hint: HintContext, req: ProxyRequest): void {
  const { label, route, logger, once } = hint
  const origin = req.headers.origin
  if (typeof origin !== 'string') return
  const own = requestedOrigin(req)
  const rewritten = route.changeOrigin && route.rewriteOrigin && origin === own
  if (rewritten) return
  once('403', () =>
    logger.warn(
      `${label} answered 403 to ${req.method} ${req.url}, whose Origin ${origin} went to it unchanged. ` +
        `If the server checks Origin (a CSRF check, a WebSocket server), allow ${origin} there, or open the page ` +
        `from the dev server${own === undefined ? '' : ` (${own})`} so the call is same-origin and cors-dev-proxy sends the target's own origin.`,
    ),
  )
}

/** A redirect to the target that a `pathRewrite` which cannot be undone leaves pointing there (once per route). */
function irreversibleLocationHint(
  hint: HintContext,
  location: Extract<LocationRewrite, { kind: 'irreversible' }>,
  req: ProxyRequest,
  answer: Answer,
): void {
  const { label, route, logger, once } = hint
  const { headers } = answer
  const value = Array.isArray(headers)
    ? rawHeaderValue(headers, 'location')
    : (headers as Readonly<Record<string, string | string[] | undefined>>).location
  if (typeof value !== 'string' || !location.pointsAtTarget(value)) return
  once('location', () =>
    logger.warn(
      `${label} redirected ${req.method} ${req.url} to ${value}, passed on unchanged: route '${route.prefix}' has a ` +
        '`pathRewrite` that cannot be undone (a RegExp map or a function), so the browser leaves the dev server. ' +
        'Use the default rewrite or `pathRewrite: false` to keep redirects on the dev server, or `rewriteLocation: false` to silence this.',
    ),
  )
}
