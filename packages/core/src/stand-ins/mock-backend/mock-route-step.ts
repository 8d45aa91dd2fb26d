import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { ResolvedMockRoute } from '../../config/resolved-route.js'
import { answerSocket } from '../../http/answer-socket.js'
import type { ProxyRequest } from '../../http/proxy-types.js'
import { PathRewriteFailure, type ProblemReport } from '../../http/rewrite-path.js'
import { sendText } from '../../http/send-text.js'
import type { RouteStep } from '../../pipeline/route-pipeline.js'
import { buildMockBackend, type MockBackend } from './mock-backend.js'

/** The terminal step of a `mock` route, with its backend (for `close()` and its request log). */
export interface MockRouteStep {
  readonly step: RouteStep
  readonly backend: MockBackend
  /**
   * Hands a WebSocket upgrade to the backend's echo at the matched `path`, rewritten as the
   * step rewrites it (`/api/ws` reaches the mock as `/ws`); `false` leaves the socket alone.
   */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, path: string): boolean
}

/** The path the mock sees for a matched path: the route's rewrite, as a target would see it. */
function mockTarget(
  route: ResolvedMockRoute,
  path: string,
  req: ProxyRequest,
  report?: ProblemReport,
): string | Promise<string> {
  // `createPathRewriter` always gives a leading slash; a hand-built route may not, and the
  // mock only serves origin-form paths.
  const slashed = (target: string): string => (target.startsWith('/') ? target : `/${target}`)
  const target = route.rewritePath(path, req, report)
  return typeof target === 'string' ? slashed(target) : target.then(slashed)
}

/**
 * The words for a `pathRewrite` that failed (the mock stands where a target would, so the answer
 * is the forwarder's: 502 naming the option), logged once per option through `report`.
 */
function rewriteFailed(req: ProxyRequest, error: unknown, report: ProblemReport | undefined): string {
  const message = error instanceof Error ? error.message : String(error)
  const key = error instanceof PathRewriteFailure ? `${error.option} threw` : 'mock pathRewrite'
  report?.(`502 ${req.method} ${req.url}: ${message}`, key)
  return `${message}\n`
}

/**
 * Builds the terminal step of a route with `mock`: the mock backend answers where a target
 * would, at the path a target would see (`pathRewrite` applied, awaited when async, so by
 * default `/api/users` reaches the mock as `/users`; a `pathRewrite` that throws is a 502
 * naming it). One backend per route, created here once from the route's resolved mock options.
 *
 * @example
 * const { step } = createMockRouteStep(route) // route.kind === 'mock'
 */
export function createMockRouteStep(route: ResolvedMockRoute, report?: ProblemReport): MockRouteStep {
  const backend = buildMockBackend(route.mock)
  return {
    backend,
    step: function mockStep(req, res, _next, path, exchange) {
      if (exchange !== undefined) exchange.hop = 'mock backend'
      const refuse = (error: unknown): void =>
        sendText(res, 502, 'text/plain; charset=utf-8', rewriteFailed(req, error, report))
      let target: string | Promise<string>
      try {
        target = mockTarget(route, path, req, report)
      } catch (error) {
        refuse(error)
        return
      }
      if (typeof target === 'string') backend.handle(req, res, target)
      else void target.then((resolved) => backend.handle(req, res, resolved), refuse)
    },
    upgrade(req, socket, head, path) {
      const refuse = (error: unknown): void => answerSocket(socket, 502, rewriteFailed(req, error, report))
      let target: string | Promise<string>
      try {
        target = mockTarget(route, path, req, report)
      } catch (error) {
        refuse(error)
        return true
      }
      if (typeof target === 'string') return backend.upgrade(req, socket, head, target)
      // The socket is ours from here: a path the mock does not serve gets 404, not silence.
      void target.then((resolved) => {
        if (!backend.upgrade(req, socket, head, resolved)) {
          answerSocket(socket, 404, 'Not Found\n')
        }
      }, refuse)
      return true
    },
  }
}
