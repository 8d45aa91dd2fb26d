/**
 * The exchange inspector's options (`inspector` in the shared options): how many exchanges the
 * ring keeps and how much of each body it copies while an inspector page is open.
 *
 * @example
 * corsDevProxy({ '/api': 'http://localhost:3000' }, { inspector: { exchanges: 500, bodyLimit: 131072 } })
 */
export interface InspectorOptions {
  /**
   * How many exchanges the inspector keeps, newest first; the oldest is dropped when a new one
   * comes (a ring, so memory stays flat under load). From 1 to 10000.
   * @default 200
   * @example 500
   */
  exchanges?: number
  /**
   * Bytes of each request and response body the inspector copies, and only while an inspector
   * page (or another client of `/__cors-dev-proxy/events`) is connected; `0` keeps no body.
   * From 0 to 16777216 (16 MiB).
   * @default 65536
   * @example 0
   */
  bodyLimit?: number
}
