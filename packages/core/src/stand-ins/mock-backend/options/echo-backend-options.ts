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
   * @example 'reflect'
   */
  cors?: MockCorsMode
  /**
   * In `reflect` mode, the origin sent as `Access-Control-Allow-Origin` instead of the request's
   * own, as a backend configured for one front end answers: a page on that origin may read, a
   * page on another gets Chromium's "... is not equal to the supplied origin".
   * @default undefined (the request's origin is reflected)
   * @example 'http://localhost:5173'
   */
  origin?: string
  /**
   * Send `Access-Control-Allow-Credentials: true` (or, `false`, never) when a request does not
   * choose with `?credentials=`. `true` with `wildcard` shows the browser refusing `*` with
   * credentials.
   * @default undefined (sent in `reflect` mode only)
   * @example true
   */
  credentials?: boolean
  /**
   * Name of the JSONP callback query parameter.
   * @default 'callback'
   * @example 'cb'
   */
  jsonpParam?: string
  /**
   * Largest request body the echo reads, in bytes; a larger body is answered 413.
   * @default 1048576 (1 MiB)
   * @example 16 * 1024 * 1024
   */
  bodyLimit?: number
  /**
   * How many requests the backend's `log` keeps (the oldest are dropped first).
   * @default 1000
   * @example 100
   */
  logLimit?: number
}
