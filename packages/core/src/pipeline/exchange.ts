/**
 * What is learnt about one request on its way through a route, for the debug line
 * (`log: 'debug'`) and the inspector's record (which hop answered it and when the upstream's
 * head came), what a step decides for the forwarder (the upload's pace under `throttle`), and what
 * a route's recordings keep between their step and the forwarder's fallback (the request body's
 * copy, whether the answer is the target's). One object per request, made where the request
 * enters the engine (proxy/create-cors-dev-proxy.ts) only when something reads it (the debug
 * line, the inspector, a route whose stand-ins keep state in it: control options, recordings),
 * and handed along
 * explicitly: the fifth argument of each route step (`RouteStep`), then the forwarder's `Relay`.
 * On a plain route without them, it is `undefined` and nothing is allocated for it.
 *
 * The inspector's recording of a request is its exchange (inspector/record-exchange.ts), so an
 * inspected request allocates nothing more for it either.
 *
 * Writers, each with the words the debug line shows: the forwarder (`http://host:port/path`,
 * with ` over h2` or ` over h1.1` on a route with `http2`), the route mocks (`mocked by <file or
 * key>`), the recordings (`replay`, `replay (target failed: <cause>)`), the faults
 * (`fault injected (<status>)`), the mock backend (`mock backend`), a route's `openapi`
 * (`mocked by openapi <operation>`; and its check, `contract`).
 */
export interface Exchange {
  /** What answered: the upstream URL the forwarder sent to, or the stand-in that answered in its place. */
  hop: string | undefined
  /** When the upstream's response head arrived (`performance.now()`); `undefined` when none did. */
  headAt: number | undefined
  /** The rate (bytes per second) a route's `throttle` set for the request's upload, read where the forwarder sends the body. */
  uploadPace: number | undefined
  /**
   * The copy of the request body a route's recordings took as the forwarder read it (their
   * file's key, and `replay: 'fallback'`'s match once the target failed): the body, or
   * `undefined` when it was longer than `recordings.maxBodyBytes`.
   */
  bodyCopy: (() => Promise<Buffer | undefined>) | undefined
  /** The answer is the proxy's own, not the target's (a 502/504 for a target that failed, a replay): `record` leaves it out. */
  notFromTarget: boolean
  /** The path and query the target was sent (after the route's `pathRewrite`), set by the forwarder; `undefined` before. */
  upstreamPath: string | undefined
  /**
   * The header fields the target was sent (the route's `headers` and `auth`, a router's and the
   * `proxyReq` hooks' changes made), set by the forwarder for a route with `openapi` only, whose
   * check reads them and then lets them go; `undefined` otherwise.
   */
  upstreamHeaders: Readonly<Record<string, unknown>> | undefined
  /**
   * What a route with `openapi` found checking the exchange against its document
   * (contract/contract-route.ts); filled in once the response has closed, so a reader sees
   * `done: false` until then. `undefined` on a route without `openapi`.
   */
  contract: ExchangeContract | undefined
}

/** One place an exchange breaks its route's OpenAPI document, as contract/contract-types.ts's `ContractViolation`. */
export interface ExchangeViolation {
  readonly in: 'request' | 'response'
  readonly operation: string
  readonly pointer: string
  readonly message: string
  readonly expected?: string
  readonly actual?: string
}

/** The contract check of one exchange: its violations, why a part was not checked, whether it is over. */
export interface ExchangeContract {
  violations: readonly ExchangeViolation[]
  skipped: string | undefined
  done: boolean
  /** Called once `done` is set: the inspector's recorder sends the exchange again on the live stream (inspector/record-exchange.ts). */
  onDone?: (() => void) | undefined
}

/**
 * A new exchange, nothing learnt yet.
 *
 * @example
 * const exchange = logger.level === 'debug' ? newExchange() : undefined
 */
export function newExchange(): Exchange {
  return {
    hop: undefined,
    headAt: undefined,
    uploadPace: undefined,
    bodyCopy: undefined,
    notFromTarget: false,
    upstreamPath: undefined,
    upstreamHeaders: undefined,
    contract: undefined,
  }
}
