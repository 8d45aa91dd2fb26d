/*
 * stand-ins/mock-backend/: the echo backend, a `mock` route's target (here) and the CLI's `mock`
 * command (start-mock-backend.ts). It answers any path itself (mock-backend.ts): the echo, its
 * switches (`?status=`, `?delay=`…, in mock-switches.ts, one table, which
 * the CLI's `mock --help` reads), cookies, redirects, CORS, event streams and a WebSocket echo; it closes its open
 * streams, held answers and sockets with the proxy.
 */
import type { Logger } from '../../log/logger.js'
import type { StandIn } from '../stand-in.js'
import { createMockRouteStep } from './mock-route-step.js'

/** What the mock backend stand-in needs from the proxy: the logger its `pathRewrite` problems go to. */
export interface MockBackendStandInDeps {
  readonly logger: Logger
}

/**
 * The target of a `mock` route: the echo backend answers where a target would, takes the route's
 * WebSocket upgrades, and closes its open streams, held answers and sockets with the proxy.
 *
 * @example
 * const slot = mockBackendStandIn(route, { logger }) // route.kind === 'mock'
 */
export const mockBackendStandIn: StandIn<MockBackendStandInDeps> = function mockBackendStandIn(route, deps) {
  if (route.kind !== 'mock') return undefined
  const mock = createMockRouteStep(route, deps.logger.warn)
  return {
    target: () => mock.step,
    upgrade: function mockUpgrade(handshake, next) {
      const { req, socket, head, path } = handshake
      return mock.upgrade(req, socket, head, path) || next(handshake)
    },
    close: () => mock.backend.close(),
  }
}
