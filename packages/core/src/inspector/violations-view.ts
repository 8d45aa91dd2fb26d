import type { ViolationLog } from '../contract/violation-log.js'
import { maskUrl } from '../http/mask-secrets.js'
import type { ExchangeViolation } from '../pipeline/exchange.js'
import type { Recording } from './record-exchange.js'

/** The header of `/violations` giving how many checks are still running (the overlay asks again while any is). */
export const PENDING_CHECKS_HEADER = 'x-cors-dev-proxy-pending-checks'

/** One distinct violation as `GET /__cors-dev-proxy/violations` lists it. */
export interface ViolationView extends ExchangeViolation {
  /** The route's prefix. */
  readonly route: string
  /** How many exchanges had it. */
  readonly count: number
  /** The last exchange that had it (its id in `/exchanges`), when the inspector recorded it. */
  readonly lastExchange: number | undefined
  /** That exchange's method and URL as the page asked (secrets masked), for the overlay's card; with `lastExchange`. */
  readonly method?: string
  readonly url?: string
  /** When it last came, as an ISO date. */
  readonly lastAt: string
}

/**
 * The distinct violations of the routes with `openapi`, oldest first, for the overlay and
 * `cors-dev-proxy mcp`: each with its route, how often it came and the last exchange's id.
 *
 * @example
 * sendJson(res, 200, violationsView(engine.violations))
 */
export function violationsView(log: ViolationLog | undefined): ViolationView[] {
  if (log === undefined) return []
  return log.list().map((entry) => {
    // The exchange is the inspector's recording when the inspector is on (record-exchange.ts).
    const record = (entry.lastExchange as Partial<Recording>).record
    return {
      route: entry.route,
      ...entry.violation,
      count: entry.count,
      lastExchange: record?.id,
      ...(record === undefined ? {} : { method: record.method, url: maskUrl(record.url) }),
      lastAt: new Date(entry.lastAt).toISOString(),
    }
  })
}
