/** What an `origin` function may answer: allow (true / a specific origin string), deny (false). */
export type CorsOriginResult = boolean | string | RegExp | Array<string | RegExp>

/**
 * Decides per request which origin is allowed, like the `cors` package's origin function:
 * either return the value (sync or async) or call `callback(err, value)`.
 */
export type CorsOriginFunction = (
  origin: string | undefined,
  callback: (err: Error | null, allow?: CorsOriginResult) => void,
  // biome-ignore lint/suspicious/noConfusingVoidType: a callback-style function (`(origin, cb) => cb(null, true)`) returns nothing; `undefined` would reject it.
) => void | CorsOriginResult | Promise<CorsOriginResult>

/**
 * CORS policy of a route, with the shape and meaning of the `cors` package's options
 * (and so of Vite's `server.cors`), but a safer default origin.
 *
 * @example
 * corsDevProxy({ '/api': { target: 'http://localhost:3000', cors: { origin: 'http://localhost:5173', credentials: true } } })
 */
export interface CorsOptions {
  /**
   * Which origins may read responses. `true` reflects any origin, `false` disables CORS,
   * a string allows exactly that origin, a RegExp or array tests the request's Origin,
   * a function decides per request. `'*'` must be passed explicitly.
   * `null` (sandboxed frames, data: URLs) is allowed only when listed explicitly.
   * @default localhost and loopback origins only (`http(s)://localhost`, `127.0.0.0/8`, `[::1]`, any port)
   * @example ['http://localhost:5173', /^https:\/\/[a-z]+\.localhost:5173$/]
   */
  origin?: boolean | string | RegExp | Array<string | RegExp> | CorsOriginFunction
  /**
   * Methods listed in `Access-Control-Allow-Methods` of a preflight answer.
   * @default 'GET,HEAD,PUT,PATCH,POST,DELETE'
   * @example ['GET', 'POST']
   */
  methods?: string | string[]
  /**
   * Headers listed in `Access-Control-Allow-Headers`. When unset, the preflight's
   * `Access-Control-Request-Headers` is reflected (with `Vary: Access-Control-Request-Headers`).
   * @default reflect the request's
   * @example ['content-type', 'authorization']
   */
  allowedHeaders?: string | string[]
  /**
   * Headers the script may read, sent as `Access-Control-Expose-Headers`.
   * @default none
   * @example ['x-total-count']
   */
  exposedHeaders?: string | string[]
  /**
   * Send `Access-Control-Allow-Credentials: true`. Refused together with origin `'*'`.
   * @default false
   * @example true
   */
  credentials?: boolean
  /**
   * Seconds a preflight answer may be cached (`Access-Control-Max-Age`). Chromium caps it at 7200.
   * @default unset (the browser's default, 5 s)
   * @example 600
   */
  maxAge?: number
  /**
   * Pass preflights on to the next handler (the backend) after adding the CORS headers.
   * @default false
   * @example true
   */
  preflightContinue?: boolean
  /**
   * Status of a locally answered preflight.
   * @default 204
   * @example 200
   */
  optionsSuccessStatus?: number
}
