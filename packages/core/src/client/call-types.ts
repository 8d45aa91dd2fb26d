/*
 * What the overlay's client and the dev server exchange to explain a failed call: the body of
 * `POST /__cors-dev-proxy/explain` and its answer. Types only, so the client (served as its own
 * source, with no imports at run time) and the inspector share them through `import type`,
 * which the compiler erases.
 */

/** What the page's client knows about a failed call (the body of `POST /__cors-dev-proxy/explain`). */
export interface FailedCall {
  /** The absolute URL called. */
  readonly url: string
  readonly method: string
  /** Headers the script set, as pairs. */
  readonly headers: readonly (readonly [string, string])[]
  /** fetch's `credentials` (XHR: `include` with `withCredentials`). */
  readonly credentials: 'omit' | 'same-origin' | 'include'
  /** Who made the call. */
  readonly initiator: 'fetch' | 'XMLHttpRequest' | 'EventSource' | 'WebSocket'
}

/**
 * How sure the verdict is: `exact` when the probe sent what the browser sent (or nothing needed
 * sending), `inferred` when it read the actual answer's CORS headers off a GET or HEAD that
 * differs from the page's call (another method, headers or cookies left out), `unknown` when
 * nothing decided it (not probed, or a redirect the probe does not follow).
 */
export type Certainty = 'exact' | 'inferred' | 'unknown'

/** What the dev server sent to explain the call. */
export interface ProbeSummary {
  /** The methods sent to the URL, in order: at most `OPTIONS` and one `GET` or `HEAD`. */
  readonly sent: readonly string[]
  /** The page's method when it is not GET or HEAD: the probe never sends it. */
  readonly notRepeated?: string
  /** The explanation is the one made for the same call a moment ago: nothing was sent for this one. */
  readonly fromMemo: boolean
  /** One line: what was probed and how sure the verdict is ("probed with OPTIONS and HEAD; the POST was not repeated…"). */
  readonly text: string
}

/** The answer: what the browser said, why, and what to change. */
export interface CallExplanation {
  /**
   * What kind of failure it is; `not-probed` when the probe budget for the host is spent,
   * `undetermined` when the URL redirects and the probe went no further.
   */
  readonly kind:
    | 'cors'
    | 'network'
    | 'mixed-content'
    | 'local-network'
    | 'websocket'
    | 'not-cors'
    | 'not-probed'
    | 'undetermined'
  /** The console text Chromium printed for it, as the browser model gives it. */
  readonly message: string | undefined
  /** The cause in plain words. */
  readonly cause: string
  /** The route to add to the config (or the configured one), written as in the config. */
  readonly route: string
  /** The call to write instead (`fetch('/api/items')`). */
  readonly call: string
  /** Whether the route already exists. */
  readonly routeExists: boolean
  /**
   * Where the route goes when it is not the routes of the front end in use (a WebSocket route
   * under Next's `proxy.ts` goes to the custom server): the card's line above it.
   */
  readonly routeWhere?: string
  /** The alternative on the server's side: the header(s) to send, when proxying is not wanted. */
  readonly serverFix: string | undefined
  /** Whether the server probed the URL (for this call or, with `probe.fromMemo`, a moment ago). */
  readonly probed: boolean
  /** What happens to the cookies the answer sets (one line per cookie the browser drops). */
  readonly cookies: readonly string[]
  /** How sure the verdict is. */
  readonly certainty: Certainty
  /** What was sent to the URL. */
  readonly probe: ProbeSummary
}
