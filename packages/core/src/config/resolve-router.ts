import { normalizePath, prefixMatches, splitPathAndQuery } from '../http/normalize-path.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { clientHost } from '../http/request-origin.js'
import { CorsDevProxyError } from './errors.js'
import type { RequestOptions, Router } from './hook-options.js'
import { describeType, isPlainObject, optionEntry } from './option-path.js'
import { validateTarget } from './validate-target.js'

/** A router's answer that is not a usable target: answered 502, naming the router. */
export class RouterAnswerError extends Error {
  /** The option to name in the 502 (`routes['/x'].target` for a route without one); `undefined`: the router. */
  readonly option: string | undefined
  constructor(message: string, option?: string) {
    super(message)
    this.name = 'RouterAnswerError'
    this.option = option
  }
}

/**
 * The target of one request: a URL, or `undefined` for the route's own target. Throws (or
 * rejects with) a {@link RouterAnswerError} for an answer that is not an http(s)/ws(s) URL.
 * `options` is the request's copy of the route's options (see `copyRouteOptions`), a router
 * function's third argument: a `target` it assigns there counts as its answer.
 */
export type ResolvedRouter = (
  req: ProxyRequest,
  res: ProxyResponse | undefined,
  options?: RequestOptions,
) => URL | undefined | Promise<URL | undefined>

const EXAMPLE = "{ router: (req) => (req.headers['x-tenant'] === 'b' ? 'http://localhost:3002' : undefined) }"

/** Answers remembered per router, so a router returning a few fixed URLs parses each once. */
const MAX_REMEMBERED = 64

/**
 * The object form: each key a host (`api.localhost:5173`, compared exactly, case-insensitive),
 * a path (`/v2`, a segment-safe prefix of the request path) or both (`api.localhost:5173/v2`),
 * tried in the order written; the first that matches gives the target. Prefix matching of hosts
 * (`localhost` taking `localhost.evil.example`) is what the 2026 advisory against
 * http-proxy-middleware's router was about, so hosts match whole.
 */
function objectRouter(table: Record<string, unknown>, option: string): ResolvedRouter {
  const rules = Object.entries(table).map(([key, value]) => {
    const validated = validateTarget(value, optionEntry(option, key))
    if (validated.socketPath !== undefined) {
      throw new CorsDevProxyError(
        'INVALID_OPTION',
        optionEntry(option, key),
        "is a Unix socket: a socketPath is only supported as the route's own target (`target: { socketPath }`)",
        "'http://localhost:3002'",
      )
    }
    const target = validated.url
    const slash = key.indexOf('/')
    const host = (slash === -1 ? key : key.slice(0, slash)).toLowerCase()
    const path = slash === -1 ? undefined : key.slice(slash).replace(/\/+$/, '') || '/'
    if (host === '' && path === undefined) {
      throw new CorsDevProxyError(
        'INVALID_OPTION',
        optionEntry(option, key),
        'is empty',
        "{ router: { '/v2': 'http://localhost:3002' } }",
      )
    }
    return { host, path, target }
  })
  return function routeByTable(req) {
    const host = clientHost(req)?.toLowerCase()
    const [rawPath] = splitPathAndQuery(req.url ?? '/')
    const path = normalizePath(rawPath)
    for (const rule of rules) {
      if (rule.host !== '' && rule.host !== host) continue
      if (rule.path !== undefined && !prefixMatches(rule.path, path)) continue
      return rule.target
    }
    return undefined
  }
}

/** What a router function is called with: http-proxy-middleware 4's `(req, res, options)`. */
type RouterFunction = (req: ProxyRequest, res: ProxyResponse | undefined, options: unknown) => unknown

/**
 * The function form: its answer checked as a target is, at request time. It is called as
 * http-proxy-middleware 4 calls it (`router.ts`: `router(req, res, config)`, `res` undefined for
 * a WebSocket upgrade, `config` the request's copy of the options); version 3 passed `req`
 * alone, which a `(req) => ...` router still reads. An answer may be a URL string, a `URL`, or
 * http-proxy's target object (`{ protocol, host, port }`); a router that answers nothing but
 * assigned `options.target` on its copy chose that target, as in http-proxy-middleware 4.
 */
function functionRouter(route: RouterFunction, option: string, source: unknown): ResolvedRouter {
  const remembered = new Map<string, URL>()
  const check = (answer: unknown, assigned = false): URL | undefined => {
    if (answer === undefined || answer === null || answer === '') return undefined
    const text = answer instanceof URL ? answer.href : answer
    if (typeof text === 'string') {
      const known = remembered.get(text)
      if (known !== undefined) return known
    }
    try {
      const validated = validateTarget(
        text,
        `${option} ${assigned ? 'set options.target, which' : 'returned'}`,
      )
      if (validated.socketPath !== undefined) {
        throw new RouterAnswerError(
          `${option} ${assigned ? 'set options.target to' : 'returned'} a socketPath: a Unix socket is only supported as a route's target`,
        )
      }
      if (typeof text === 'string') {
        if (remembered.size >= MAX_REMEMBERED) remembered.clear()
        remembered.set(text, validated.url)
      }
      return validated.url
    } catch (error) {
      if (error instanceof RouterAnswerError) throw error
      const detail =
        error instanceof CorsDevProxyError
          ? error.message.split('\n')[0]?.replace('[cors-dev-proxy] ', '')
          : String(error)
      throw new RouterAnswerError(
        `${detail ?? `${option} returned ${describeType(answer)}`}: not an http(s) or ws(s) URL`,
      )
    }
  }
  const settle = (answer: unknown, options: RequestOptions | undefined): URL | undefined => {
    if (answer !== undefined && answer !== null && answer !== '') return check(answer)
    if (options === undefined || options.target === (source as RequestOptions).target) return undefined
    return check(options.target, true)
  }
  return function routeByFunction(req, res, options) {
    const answer = route(req, res, options ?? source)
    return answer instanceof Promise
      ? answer.then((settled) => settle(settled, options))
      : settle(answer, options)
  }
}

/**
 * For a route without `target` (a `router` or a Vite `bypass` chooses): a router that finds no
 * target answers 502 naming the route's missing `target`, as http-proxy-middleware refuses with
 * "Must provide a proper URL as target".
 */
export function requireRoutedTarget(
  router: ResolvedRouter | undefined,
  targetOption: string,
): ResolvedRouter {
  const none = (): never => {
    throw new RouterAnswerError(
      router === undefined
        ? 'the route has no target and its bypass let the request through'
        : 'the router returned no target and the route has none to fall back on',
      targetOption,
    )
  }
  if (router === undefined) return none
  const settle = (url: URL | undefined): URL => url ?? none()
  return function routeOrRefuse(req, res, options) {
    const chosen = router(req, res, options)
    return chosen instanceof Promise ? chosen.then(settle) : settle(chosen)
  }
}

/**
 * Validates `router` once and returns the per-request target chooser, or `undefined` for none.
 * The object's targets (strings or target objects) are checked here; a function's answers when
 * they come. `source` is the route as written, a function router's third argument.
 *
 * @example
 * resolveRouter({ 'tenant-b.localhost:5173': 'http://localhost:3002' }, "routes['/api'].router")
 */
export function resolveRouter(
  router: Router | unknown,
  option: string,
  source?: unknown,
): ResolvedRouter | undefined {
  if (router === undefined) return undefined
  if (typeof router === 'function') return functionRouter(router as RouterFunction, option, source)
  if (isPlainObject(router)) return objectRouter(router, option)
  throw new CorsDevProxyError(
    'INVALID_OPTION',
    option,
    `must be a function (req) => target, or an object of host / path → target, got ${describeType(router)}`,
    EXAMPLE,
  )
}
