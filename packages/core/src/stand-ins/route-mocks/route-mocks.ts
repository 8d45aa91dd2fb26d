import { resolve } from 'node:path'
import { MOCKS_DEFAULTS } from '../../config/defaults.js'
import type { ResolvedForwardRoute, ResolvedRoute } from '../../config/resolved-route.js'
import { createLocationRewrite, type LocationRewriter } from '../../forward/location-rewrite.js'
import { matchPathPattern, pathAfterPrefix } from '../../http/path-pattern.js'
import type { ProxyRequest, ProxyResponse } from '../../http/proxy-types.js'
import { sendText } from '../../http/send-text.js'
import type { Logger } from '../../log/logger.js'
import type { Exchange } from '../../pipeline/exchange.js'
import type { RouteStep } from '../../pipeline/route-pipeline.js'
import { routeFolderOf } from '../route-folder.js'
import { askFunctionMock } from './function-mock.js'
import { MOCKED_HEADER, writeMockAnswer } from './mock-answer-writer.js'
import { createMockFolder, type MockFolder } from './mock-folder.js'
import type { ResolvedMockRule } from './options/resolve-route-mocks.js'
import {
  isMockAnswerProblem,
  type MockAnswerProblem,
  type ResolvedMockAnswer,
} from './options/route-mock-answer.js'
import type { MockFunction } from './options/route-mocks-options.js'

/*
 * What `mocks` adds to a route's pipeline, and only to a route that sets it: the `mocks` slot of
 * its backend step (proxy/create-backend-step.ts), after the faults (so latency and faults apply
 * to mocked paths too), before the recordings and the forwarder, and after JSONP, which wraps a
 * mocked answer like any other. A request a mock file or a key matches is answered here; any
 * other goes on, untouched, to the target.
 */

/** What the step needs from the proxy. */
export interface RouteMocksDeps {
  readonly logger: Logger
  /** What a relative folder is resolved against: the dev server's root, or the working directory. */
  readonly root: string
}

/** A route's mocks, as the pipeline and the inspector use them. */
export interface RouteMocks {
  /** The step of the backend's `mocks` slot, after the faults. */
  readonly step: RouteStep
  /** The route's mock files, where the inspector's "Mock this answer" writes. */
  readonly folder: MockFolder
  readonly route: ResolvedForwardRoute
  /** Resolves once the files being written ("Mock this answer") are on disk; nothing else runs between requests. */
  close(): Promise<void>
}

/** The folder of a route's mock files: `mocks` as a path, or `cors-dev-proxy/mocks/<route>`. */
function folderOf(route: ResolvedForwardRoute, root: string): string {
  const dir = route.mocks?.dir
  return dir === undefined
    ? resolve(root, MOCKS_DEFAULTS.dir, routeFolderOf(route.prefix))
    : resolve(root, dir)
}

/** A method-less key answers any method but a preflight, which belongs to the CORS policy. */
function takesMethod(method: string | undefined, req: ProxyRequest): boolean {
  if (method !== undefined) return method === req.method
  return !(req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined)
}

/** What one route's mocks work from, built once. */
interface MocksContext {
  readonly route: ResolvedForwardRoute
  readonly rules: readonly ResolvedMockRule[]
  readonly folder: MockFolder
  readonly logger: Logger
  readonly rewriteLocation: LocationRewriter | undefined
}

/** A mock that cannot answer: a 500 naming it, and one log line per mock every 10 s. */
function fail(context: MocksContext, res: ProxyResponse, source: string, problem: string): void {
  const words = `mock ${source} of route '${context.route.prefix}' ${problem}`
  context.logger.limited('error', `mock ${context.route.prefix} ${source}`, () => words)
  sendText(res, 500, 'text/plain; charset=utf-8', `cors-dev-proxy: ${words}\n`, [[MOCKED_HEADER, 'error']])
}

/** Writes what a mock gave, or the 500 that names what is wrong with it. */
function answer(
  context: MocksContext,
  req: ProxyRequest,
  res: ProxyResponse,
  source: string,
  found: ResolvedMockAnswer | MockAnswerProblem,
  exchange: Exchange | undefined,
): void {
  if (isMockAnswerProblem(found)) {
    fail(context, res, source, `cannot be used: ${found.field === '' ? 'it' : found.field} ${found.problem}`)
    return
  }
  if (exchange !== undefined) exchange.hop = `mocked by ${source}`
  writeMockAnswer(req, res, found, source, context.route, context.rewriteLocation)
}

/** A function key: `false` when it returned `undefined` (the request goes on). */
async function fromFunction(
  context: MocksContext,
  req: ProxyRequest,
  res: ProxyResponse,
  rule: ResolvedMockRule,
  relative: string,
  params: Record<string, string>,
  exchange: Exchange | undefined,
): Promise<boolean> {
  const source = `'${rule.key}'`
  const limit = MOCKS_DEFAULTS.maxBodyBytes
  let outcome: Awaited<ReturnType<typeof askFunctionMock>>
  try {
    outcome = await askFunctionMock(rule.answer as MockFunction, req, relative, params, limit)
  } catch (error) {
    fail(context, res, source, `threw: ${error instanceof Error ? error.message : String(error)}`)
    return true
  }
  if (outcome === undefined) return false
  if (outcome === 'too-large') {
    const words = `mock ${source} of route '${context.route.prefix}' takes request bodies up to ${limit} bytes`
    sendText(res, 413, 'text/plain; charset=utf-8', `cors-dev-proxy: ${words}\n`)
    return true
  }
  answer(context, req, res, source, outcome, exchange)
  return true
}

/** The config's keys, in the order written: `true` when one answered. */
async function fromRules(
  context: MocksContext,
  req: ProxyRequest,
  res: ProxyResponse,
  relative: string,
  exchange: Exchange | undefined,
): Promise<boolean> {
  for (const rule of context.rules) {
    if (!takesMethod(rule.method, req)) continue
    const params = matchPathPattern(rule.pattern, relative)
    if (params === undefined) continue
    if (typeof rule.answer !== 'function') {
      answer(context, req, res, `'${rule.key}'`, rule.answer, exchange)
      return true
    }
    if (await fromFunction(context, req, res, rule, relative, params, exchange)) return true
  }
  return false
}

/** The route's files first (the most specific first), then its keys: `true` when one answered. */
async function handle(
  context: MocksContext,
  req: ProxyRequest,
  res: ProxyResponse,
  path: string,
  exchange: Exchange | undefined,
) {
  const relative = pathAfterPrefix(context.route.prefix, path)
  const { folder } = context
  for (const rule of await folder.rules()) {
    if (!takesMethod(rule.method, req) || matchPathPattern(rule.pattern, relative) === undefined) continue
    answer(context, req, res, folder.label(rule.name), await folder.answer(rule), exchange)
    return true
  }
  return fromRules(context, req, res, relative, exchange)
}

/**
 * A route's mocks step; `undefined` for a route without `mocks`, which gets nothing at all. Mock
 * files are tried first (the most specific first), then the config's keys in the order written.
 *
 * @example
 * const mocks = createRouteMocks(route, { logger, root: process.cwd() })
 * if (mocks) steps.push(mocks.step)
 */
export function createRouteMocks(route: ResolvedRoute, deps: RouteMocksDeps): RouteMocks | undefined {
  if (route.kind !== 'forward' || route.mocks === undefined) return undefined
  const location = createLocationRewrite(route)
  const context: MocksContext = {
    route,
    rules: route.mocks.rules,
    folder: createMockFolder(folderOf(route, deps.root), deps.root),
    logger: deps.logger,
    rewriteLocation: location.kind === 'rewrite' ? location.rewrite : undefined,
  }
  return {
    route,
    folder: context.folder,
    step: function routeMocksStep(req, res, next, path, exchange) {
      handle(context, req, res, path, exchange).then(
        (answered) => {
          if (!answered) next()
        },
        (error: unknown) => next(error),
      )
    },
    close: () => context.folder.flush(),
  }
}
