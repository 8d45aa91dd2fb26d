import type { ServedEndpoints } from '../client/served-endpoints.js'

export type { ServedEndpoints } from '../client/served-endpoints.js'

/** What decides the endpoints: the resolved `inspector` and `overlay`, and what the routes have. */
export interface EndpointFacts {
  /** `inspector` is on (a recorder exists). */
  readonly inspector: boolean
  /** `overlay` is on. */
  readonly overlay: boolean
  /** Some route has live switches (control options or recordings). */
  readonly switches: boolean
  /** Some route has `mocks`. */
  readonly mocks: boolean
  /** Some route has `openapi` (the proxy keeps a violation log). */
  readonly contract?: boolean
}

/**
 * The one rule for which endpoints under `/__cors-dev-proxy/` a proxy serves, whatever its front
 * end: nothing at all when the inspector, the overlay and every live switch are off (the path is
 * then left to the app or the dev server); otherwise the page and `/control` always, the
 * inspector's own endpoints with `inspector` on, the overlay's with `overlay` on, and "Mock this
 * answer" where a route has `mocks` and the inspector (which keeps the exchanges it writes) is on,
 * and `/violations` where a route has `openapi`.
 *
 * @example
 * servedEndpointsOf({ inspector: true, overlay: true, switches: false, mocks: false })
 * // { inspector: true, explain: true, control: false, mocks: false }
 */
export function servedEndpointsOf(facts: EndpointFacts): ServedEndpoints | undefined {
  if (!facts.inspector && !facts.overlay && !facts.switches && facts.contract !== true) return undefined
  return Object.freeze({
    inspector: facts.inspector,
    explain: facts.overlay,
    control: facts.switches,
    mocks: facts.mocks && facts.inspector,
    ...(facts.contract === true ? { violations: true as const } : {}),
  })
}
