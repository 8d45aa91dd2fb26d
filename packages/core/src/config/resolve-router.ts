import { normalizePath, prefixMatches, splitPathAndQuery } from '../http/normalize-path.js'
import type { ProxyRequest } from '../http/proxy-types.js'
import { clientHost } from '../http/request-origin.js'
import { CorsDevProxyError } from './errors.js'
import type { Router } from './hook-options.js'
import { describeType, isPlainObject, optionEntry } from './option-path.js'
import { validateTarget } from './validate-target.js'

/** A router's answer that is not a usable target: answered 502, naming the router. */
export class RouterAnswerError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RouterAnswerError'
  }
}

/**
 * The target of one request: a URL, or `undefined` for the route's own target. Throws (or
 * rejects with) a {@link RouterAnswerError} for an answer that is not an http(s)/ws(s) URL.
 */
export type ResolvedRouter = (req: ProxyRequest) => URL | undefined | Promise<URL | undefined>

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
    const target = validateTarget(value, optionEntry(option, key)).url
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

/** The function form: its answer checked as a target is, at request time. */
function functionRouter(route: (req: ProxyRequest) => unknown, option: string): ResolvedRouter {
  const remembered = new Map<string, URL>()
  const check = (answer: unknown): URL | undefined => {
    if (answer === undefined || answer === null) return undefined
    const text = answer instanceof URL ? answer.href : answer
    if (typeof text === 'string') {
      const known = remembered.get(text)
      if (known !== undefined) return known
    }
    try {
      const url = validateTarget(text, `${option} returned`).url
      if (remembered.size >= MAX_REMEMBERED) remembered.clear()
      remembered.set(text as string, url)
      return url
    } catch (error) {
      const detail =
        error instanceof CorsDevProxyError
          ? error.message.split('\n')[0]?.replace('[cors-dev-proxy] ', '')
          : String(error)
      throw new RouterAnswerError(
        `${detail ?? `${option} returned ${describeType(answer)}`}: not an http(s) or ws(s) URL`,
      )
    }
  }
  return function routeByFunction(req) {
    const answer = route(req)
    return answer instanceof Promise ? answer.then(check) : check(answer)
  }
}

/**
 * Validates `router` once and returns the per-request target chooser, or `undefined` for none.
 * The object's targets are checked here; a function's answers when they come.
 *
 * @example
 * resolveRouter({ 'tenant-b.localhost:5173': 'http://localhost:3002' }, "routes['/api'].router")
 */
export function resolveRouter(router: Router | unknown, option: string): ResolvedRouter | undefined {
  if (router === undefined) return undefined
  if (typeof router === 'function') return functionRouter(router as (req: ProxyRequest) => unknown, option)
  if (isPlainObject(router)) return objectRouter(router, option)
  throw new CorsDevProxyError(
    'INVALID_OPTION',
    option,
    `must be a function (req) => target, or an object of host / path → target, got ${describeType(router)}`,
    EXAMPLE,
  )
}
