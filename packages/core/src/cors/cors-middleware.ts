import type { ServerResponse } from 'node:http'
import type { Http2ServerResponse } from 'node:http2'
import type { CorsOptions } from '../config/cors-options.js'
import { resolveCorsOptions } from '../config/resolve-cors-options.js'
import type { ProxyRequest } from '../http/proxy-types.js'
import { applyCorsDecision, type CorsDecision, createCorsDecider } from './cors-decision.js'
import { answerPreflight, type PreflightResponse } from './preflight-answer.js'

/** A connect-style middleware, usable with `http`, `http2` (compat API), connect, Express and Vite. */
export type CorsMiddleware = (
  req: ProxyRequest,
  res: ServerResponse | Http2ServerResponse,
  next: (err?: unknown) => void,
) => void

/**
 * Where the middleware reports advice given at construction.
 *
 * @example
 * createCorsMiddleware({ maxAge: 86400 }, { warn: (message) => logger.warn(message) })
 */
export interface CorsMiddlewareHooks {
  /**
   * Receives warnings (a `maxAge` Chromium caps, lowercase method names...).
   * @default console.warn with a `[cors-dev-proxy]` tag
   */
  warn?: (message: string) => void
  /**
   * Path of the options in messages.
   * @default 'cors'
   */
  option?: string
}

function defaultWarn(message: string): void {
  console.warn(`[cors-dev-proxy] ${message}`)
}

/**
 * Creates a standalone CORS middleware with the `cors` package's options and meaning
 * (`origin` as boolean, string, RegExp, array or function, sync, async or callback style;
 * `methods`, `allowedHeaders` (reflected with `Vary: Access-Control-Request-Headers` when
 * unset), `exposedHeaders`, `credentials`, `maxAge`, `preflightContinue`,
 * `optionsSuccessStatus`), resolved once. Differences from `cors`, all on purpose:
 *
 * - The default origin is localhost and loopback only (`isLoopbackOrigin`), not `*`;
 *   `null` is allowed only when listed.
 * - An OPTIONS without `Origin` and `Access-Control-Request-Method` is not a preflight: it
 *   gets the ordinary CORS headers and goes on to the next handler.
 * - A fixed origin string is sent only when it equals the request's `Origin`
 *   (`cors` sends it to every origin), and origin strings are normalized (`HTTP://LocalHost:80`).
 * - `'*'` with `credentials: true` throws `CorsDevProxyError` (INVALID_CORS) here, instead of
 *   failing in the browser; so does a non-2xx `optionsSuccessStatus`.
 * - `Vary: Origin` is sent whenever the answer depends on the origin, including when an
 *   origin function answers `'*'` or `false`.
 * - Unknown keys and wrong types throw, with a suggestion.
 *
 * An error from the origin function is passed to `next(err)`, as `cors` does.
 *
 * @example
 * app.use(createCorsMiddleware({ origin: ['http://localhost:5173'], credentials: true }))
 */
export function createCorsMiddleware(
  options: CorsOptions = {},
  hooks: CorsMiddlewareHooks = {},
): CorsMiddleware {
  const policy = resolveCorsOptions(options, {
    option: hooks.option ?? 'cors',
    warn: hooks.warn ?? defaultWarn,
  })
  if (policy === undefined) {
    // `origin: false`: CORS is off, everything passes through untouched (as in `cors`).
    return function corsDisabled(_req, _res, next) {
      next()
    }
  }
  const decide = createCorsDecider(policy)
  const finish = (res: PreflightResponse, next: (err?: unknown) => void, decision: CorsDecision): void => {
    if (decision.preflight && !decision.disabled && !policy.preflightContinue) {
      answerPreflight(res, decision, policy)
      return
    }
    applyCorsDecision(res, decision)
    next()
  }
  return function corsMiddleware(req, res, next) {
    const decision = decide(req)
    const response = res as PreflightResponse
    if (decision instanceof Promise) decision.then((settled) => finish(response, next, settled), next)
    else finish(response, next, decision)
  }
}
