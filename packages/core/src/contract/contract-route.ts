import { routeOption } from '../config/option-path.js'
import type { ResolvedRoute } from '../config/resolved-route.js'
import { type HeldAnswer, holdHead, tapBody } from '../http/body-taps.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import type { HookableResponse } from '../http/response-head.js'
import { joinTargetPath } from '../http/rewrite-path.js'
import type { Logger } from '../log/logger.js'
import type { Exchange, ExchangeContract, ExchangeViolation } from '../pipeline/exchange.js'
import type { RouteStep } from '../pipeline/route-pipeline.js'
import { answerRefused, documentAnswerFor, sendDocumentAnswer } from './contract-answers.js'
import { type ContractSource, createContractSource } from './contract-source.js'
import type { Contract, ContractCheck, ContractOperation } from './contract-types.js'
import {
  BODY_NOT_READ,
  BODY_NOT_WHOLE,
  type BodyCopy,
  type BodyRead,
  copyBody,
  readBody,
} from './exchange-bodies.js'
import type { ResolvedOpenApiOptions } from './options/openapi-options.js'
import { pathShape } from './path-shape.js'
import type { ViolationLog } from './violation-log.js'

/*
 * A route's `openapi` at request time: a step before the route's stand-ins and target that
 * copies the request body and the answer on their way (never changing or holding them) and,
 * once the response has closed, checks both against the operation the target's path matches
 * (the path after `pathRewrite`, through the document's `servers` base paths). What it finds
 * goes into the request's exchange (the inspector's record, the HAR) and the proxy's violation
 * log (`/__cors-dev-proxy/violations`, one log line per distinct violation). Under
 * `enforce: 'request'` the request is read and checked first, and refused with a 400 when it
 * breaks the document; under `mock: 'missing'` the forwarder's fallback answers from the
 * document when the target cannot be reached. A route without `openapi` gets none of this.
 */

/** The statuses that may mean "not implemented here" (see should-mock-missing.ts): held under `mock: 'missing'`. */
const MISSING_STATUSES: ReadonlySet<number> = new Set([404, 501])

/** What the contract step needs from the proxy. */
export interface ContractRouteDeps {
  readonly logger: Logger
  /** Where a relative document path goes: the dev server's root, or the working directory. */
  readonly root?: string | undefined
  /** The proxy's distinct violations; the route makes its own when none is given. */
  readonly violations?: ViolationLog | undefined
}

/** What a route with `openapi` adds to its backend (a `BackendSlot`, stand-ins/stand-in.ts). */
export interface ContractSlot {
  readonly step: RouteStep
  readonly fallback: MissingFallback | undefined
  readonly needsExchange: true
}

/** The forwarder's fallback under `mock: 'missing'` (forward/forward-context.ts's `UpstreamFallback`). */
export type MissingFallback = (
  req: ProxyRequest,
  res: ProxyResponse,
  cause: string,
  at: { readonly path: string; readonly exchange: Exchange | undefined },
) => Promise<boolean>

/** What one route's checks share, built once. */
interface RouteContract {
  readonly route: ResolvedRoute
  readonly openapi: ResolvedOpenApiOptions
  readonly source: ContractSource
  readonly violations: ViolationLog | undefined
}

/**
 * The contract step of a route with `openapi`, or `undefined` for a route without (which then
 * pays nothing). The document loads on the route's first exchange.
 *
 * @example
 * const slot = createContractRoute(route, { logger, root, violations })
 */
export function createContractRoute(route: ResolvedRoute, deps: ContractRouteDeps): ContractSlot | undefined {
  const openapi = route.kind === 'forward' ? route.openapi : undefined
  if (openapi === undefined) return undefined
  const option = routeOption(route.prefix, 'openapi')
  const source = createContractSource(openapi, {
    root: deps.root ?? process.cwd(),
    option,
    logger: deps.logger,
  })
  const ctx: RouteContract = { route, openapi, source, violations: deps.violations }
  return {
    step: function contractStep(req, res, next, path, exchange) {
      if (exchange === undefined) {
        next()
        return
      }
      const check: ExchangeContract = { violations: [], skipped: undefined, done: false }
      exchange.contract = check
      ctx.violations?.running(1)
      let answer: Buffer | undefined
      tapBody(res as unknown as HookableResponse, openapi.maxBodyBytes + 1, (body) => {
        answer = body
      })
      // An undeclared 404 or 501 from the target is held until the document says whether it answers instead.
      if (openapi.mock === 'missing') {
        holdHead(res as unknown as Parameters<typeof holdHead>[0], MISSING_STATUSES, (status) =>
          missingAnswer(ctx, req, path, exchange, status),
        )
      }
      if (openapi.enforce !== 'request') {
        const body = copyBody(req, openapi.maxBodyBytes)
        res.once('close', () => void finish(ctx, req, res, path, exchange, { body, answer: () => answer }))
        next()
        return
      }
      // A check that fails lets the request go on unchecked: enforcing never breaks the route.
      const verdict = enforceRequest(ctx, req, res, path, exchange).catch(() => ({ refused: false }))
      // Listened to at once: a client that leaves while the body is read still ends the check.
      res.once('close', () => {
        void verdict.then((settled) =>
          finish(ctx, req, res, path, exchange, { ...settled, answer: () => answer }),
        )
      })
      void verdict.then((settled) => {
        if (!settled.refused) next()
      })
    },
    fallback: openapi.mock === 'missing' ? missingFallback(ctx) : undefined,
    needsExchange: true,
  }
}

/** The request's path and query as the target gets them: the forwarder's, else the route's rewrite of `path`. */
function upstreamPathOf(route: ResolvedRoute, req: ProxyRequest, path: string, exchange: Exchange): string {
  if (exchange.upstreamPath !== undefined) return exchange.upstreamPath
  if (route.kind !== 'forward') return path
  // A `pathRewrite` function may be asynchronous: the path as matched then.
  const rewritten = route.rewritePath(path, req, () => undefined)
  return typeof rewritten === 'string' ? joinTargetPath(route.target, rewritten) : path
}

/** The operation of a request, or the violation that says the document has none. */
function operationOf(
  contract: Contract,
  method: string,
  pathname: string,
): ContractOperation | ExchangeViolation {
  const operation = contract.findOperation(method, pathname)
  if (operation !== undefined) return operation
  // One violation for every id of the same missing operation (path-shape.ts).
  const id = `${method} ${pathShape(pathname)}`
  return { in: 'request', operation: id, pointer: 'path', message: `no operation in the document for ${id}` }
}

/** What the exchange's check has by the time the response closes. */
interface Seen {
  /** The request body's copy, when the request is checked at the end. */
  readonly body?: BodyCopy
  /** The request's own check, made before the target was asked (`enforce: 'request'`). */
  readonly request?: ContractCheck
  readonly answer: () => Buffer | undefined
}

/** Splits `/v1/pets?limit=2` into its path and query. */
function splitPath(pathAndQuery: string): [string, string] {
  const mark = pathAndQuery.indexOf('?')
  return mark < 0 ? [pathAndQuery, ''] : [pathAndQuery.slice(0, mark), pathAndQuery.slice(mark)]
}

/** The body as the checker takes it: the bytes, or why it has none to check. */
function bodyParts(read: BodyRead): { body: Buffer } | { bodySkipped: string } {
  return 'bytes' in read ? { body: read.bytes } : { bodySkipped: read.skipped }
}

/**
 * The request's header fields as the target gets them: what the forwarder sent, once it has;
 * before (`enforce: 'request'`) or without it (a stand-in answered), the client's with the
 * route's own `auth` and `headers` added as the forwarder adds them. A header the document
 * requires and the route supplies is never reported missing from the page's request.
 */
function requestHeaders(route: ResolvedRoute, req: ProxyRequest, exchange: Exchange): Record<string, string> {
  const sent = exchange.upstreamHeaders
  if (sent !== undefined) {
    exchange.upstreamHeaders = undefined
    return flatHeaders(sent)
  }
  const headers = flatHeaders(req.headers)
  if (route.kind !== 'forward') return headers
  if (route.authorization !== undefined) headers.authorization ??= route.authorization
  for (const [name, value] of route.headers) headers[name.toLowerCase()] = String(value)
  return headers
}

/** The request's header fields as the checker reads them: lowercase names, one string each. */
function flatHeaders(headers: Readonly<Record<string, unknown>>): Record<string, string> {
  const flat: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)
  }
  return flat
}

/**
 * The answer's head as it went out: Node's own text of it (HTTP/1.1; the relay writes raw
 * header lists that `getHeaders()` does not hold), the Fetch front end's flat list, else the
 * response's header object (HTTP/2).
 */
function sentHeaders(res: ProxyResponse): Record<string, string> {
  const text = (res as { _header?: unknown })._header
  const list = (res as { sentHeadList?: readonly unknown[] }).sentHeadList
  const fields: Record<string, string> = {}
  const add = (name: string, value: string): void => {
    const key = name.toLowerCase()
    const known = fields[key]
    fields[key] = known === undefined ? value : `${known}, ${value}`
  }
  if (typeof text === 'string') {
    // Read in place, line by line past the status line: every checked answer goes through here.
    let start = text.indexOf('\r\n') + 2
    while (start > 1 && start < text.length) {
      let stop = text.indexOf('\r\n', start)
      if (stop < 0) stop = text.length
      const colon = text.indexOf(':', start)
      if (colon > start && colon < stop) add(text.slice(start, colon), text.slice(colon + 1, stop).trim())
      start = stop + 2
    }
    return fields
  }
  if (Array.isArray(list)) {
    for (let index = 0; index + 1 < list.length; index += 2) add(String(list[index]), String(list[index + 1]))
    return fields
  }
  return flatHeaders(res.getHeaders() as Record<string, unknown>)
}

/** Checks the request before the target is asked; a request that breaks the document is answered 400. */
async function enforceRequest(
  ctx: RouteContract,
  req: ProxyRequest,
  res: ProxyResponse,
  path: string,
  exchange: Exchange,
): Promise<{ refused: boolean; request?: ContractCheck }> {
  const contract = await ctx.source.current()
  if (contract === undefined) return { refused: false }
  const method = (req.method ?? 'GET').toUpperCase()
  const [pathname, search] = splitPath(upstreamPathOf(ctx.route, req, path, exchange))
  const found = operationOf(contract, method, pathname)
  const body = await readBody(req, ctx.openapi.maxBodyBytes)
  const request: ContractCheck =
    'checkRequest' in found
      ? found.checkRequest({
          method,
          pathname,
          search,
          headers: requestHeaders(ctx.route, req, exchange),
          ...bodyParts(body),
        })
      : { violations: [found] }
  const first = request.violations[0]
  if (first === undefined || res.headersSent) return { refused: false, request }
  exchange.notFromTarget = true
  answerRefused(res, request.violations, ctx.route.prefix)
  // The rest of a body read in part is dropped, as Node does with one nobody reads: the
  // client's connection stays usable for its next request.
  if (!req.readableEnded) req.resume()
  return { refused: true, request }
}

/** Checks the exchange once its response closed, and notes what it found; never throws. */
async function finish(
  ctx: RouteContract,
  req: ProxyRequest,
  res: ProxyResponse,
  path: string,
  exchange: Exchange,
  seen: Seen,
): Promise<void> {
  const check = exchange.contract as ExchangeContract
  try {
    const contract = await ctx.source.current()
    if (contract === undefined) {
      check.skipped = 'the OpenAPI document did not load'
      return
    }
    const method = (req.method ?? 'GET').toUpperCase()
    const [pathname, search] = splitPath(upstreamPathOf(ctx.route, req, path, exchange))
    const found = operationOf(contract, method, pathname)
    if (!('checkRequest' in found)) {
      note(ctx, exchange, check, [found], undefined)
      return
    }
    const body = seen.body === undefined ? undefined : await seen.body()
    const request =
      seen.request ??
      found.checkRequest({
        method,
        pathname,
        search,
        headers: requestHeaders(ctx.route, req, exchange),
        ...(body === undefined ? {} : bodyParts(body)),
      })
    const response = responseCheck(found, res, exchange, seen.answer(), ctx.openapi.maxBodyBytes)
    const skipped = request.skipped ?? response.skipped
    note(ctx, exchange, check, [...request.violations, ...response.violations], skipped)
    // The checker's reasons are logged; an answer the proxy made or one cut short has its own line already.
    if (skipped !== undefined && !QUIET.has(skipped)) ctx.violations?.skipped(ctx.route.prefix, skipped)
  } catch (error) {
    check.skipped = `the check failed: ${error instanceof Error ? error.message : String(error)}`
  } finally {
    // Kept only for the check: the inspector's ring holds the exchange long after.
    exchange.upstreamHeaders = undefined
    check.done = true
    ctx.violations?.running(-1)
    check.onDone?.()
  }
}

/** Why an answer was not checked, when no log line needs to say so (see `responseCheck`). */
const NO_ANSWER = 'no answer was sent'
const OWN_ANSWER = "the answer is the proxy's own, not the target's"
const CUT_SHORT = 'the answer was cut short'
const QUIET: ReadonlySet<string> = new Set([NO_ANSWER, OWN_ANSWER, CUT_SHORT, BODY_NOT_WHOLE, BODY_NOT_READ])

/** The answer's check: skipped for an answer the proxy made itself or one cut short. */
function responseCheck(
  operation: ContractOperation,
  res: ProxyResponse,
  exchange: Exchange,
  answer: Buffer | undefined,
  maxBodyBytes: number,
): ContractCheck {
  if (!res.headersSent) return { violations: [], skipped: 'no answer was sent' }
  if (exchange.notFromTarget)
    return { violations: [], skipped: "the answer is the proxy's own, not the target's" }
  if (!res.writableFinished || answer === undefined)
    return { violations: [], skipped: 'the answer was cut short' }
  const headers = sentHeaders(res)
  if (answer.byteLength > maxBodyBytes)
    return { violations: [], skipped: `the body is over maxBodyBytes (${maxBodyBytes} bytes)` }
  return operation.checkResponse({ status: res.statusCode, headers, body: answer })
}

/** The exchange's violations, in its record and the proxy's log. */
function note(
  ctx: RouteContract,
  exchange: Exchange,
  check: ExchangeContract,
  violations: readonly ExchangeViolation[],
  skipped: string | undefined,
): void {
  check.violations = violations
  check.skipped = skipped
  ctx.violations?.note(ctx.route.prefix, violations, exchange)
}

/**
 * `mock: 'missing'`: the document's answer for the request, given what the target did (could
 * not be reached, or answered this status), as a function that sends it; `undefined` when the
 * target's answer stands.
 */
async function missingAnswer(
  ctx: RouteContract,
  req: ProxyRequest,
  path: string,
  exchange: Exchange,
  upstream: number | 'unreachable',
): Promise<HeldAnswer> {
  const contract = await ctx.source.current()
  if (contract === undefined) return undefined
  const method = (req.method ?? 'GET').toUpperCase()
  const [pathname] = splitPath(upstreamPathOf(ctx.route, req, path, exchange))
  const operation = contract.findOperation(method, pathname)
  if (operation === undefined) return undefined
  const answer = await documentAnswerFor(req, { operation, version: contract.version }, upstream)
  if (answer === undefined) return undefined
  return (res) => sendDocumentAnswer(req, res as ProxyResponse, answer, operation, exchange)
}

/** `mock: 'missing'`: where the target cannot be reached, the document's answer for the operation. */
function missingFallback(ctx: RouteContract): MissingFallback {
  return async function openApiMissing(req, res, _cause, at) {
    if (at.exchange === undefined) return false
    const send = await missingAnswer(ctx, req, at.path, at.exchange, 'unreachable')
    if (send === undefined || res.headersSent) return false
    send(res as unknown as HookableResponse)
    return true
  }
}
