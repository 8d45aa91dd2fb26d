import type {
  ResolvedForwardRoute,
  ResolvedMockRoute,
  ResolvedRoute,
} from '../../src/config/resolved-route.js'

/** The route as a forwarding route; throws (failing the test) when it is missing or mocks. */
export function forwardRoute(route: ResolvedRoute | undefined): ResolvedForwardRoute {
  if (route?.kind !== 'forward') throw new Error(`expected a forwarding route, got ${route?.kind}`)
  return route
}

/** The route as a mock route; throws (failing the test) when it is missing or forwards. */
export function mockRoute(route: ResolvedRoute | undefined): ResolvedMockRoute {
  if (route?.kind !== 'mock') throw new Error(`expected a mock route, got ${route?.kind}`)
  return route
}
