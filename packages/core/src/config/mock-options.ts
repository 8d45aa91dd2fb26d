/**
 * CORS behaviour of the mock backend when a request does not choose one with `?cors=`.
 * `off`: no CORS headers; `reflect`: the request's origin with credentials; `wildcard`: `*`.
 */
export type MockCorsMode = 'off' | 'reflect' | 'wildcard'

/**
 * Options of the built-in mock backend (`mock: true` on a route, `createMockBackend`,
 * `startMockBackend`, `cors-dev-proxy mock`).
 *
 * @example
 * corsDevProxy({ '/api': { mock: { cors: 'reflect' } } })
 */
export interface MockBackendOptions {
  /**
   * Default CORS behaviour; a request may override it with `?cors=off|reflect|wildcard`.
   * @default 'off'
   */
  cors?: MockCorsMode
  /**
   * Name of the JSONP callback query parameter.
   * @default 'callback'
   */
  jsonpParam?: string
  /**
   * Largest request body the echo reads, in bytes; a larger body is answered 413.
   * @default 1048576 (1 MiB)
   */
  bodyLimit?: number
  /**
   * How many requests the backend's `log` keeps (the oldest are dropped first).
   * @default 1000
   */
  logLimit?: number
}
