/*
 * A route's `match`: how its requests find their recordings (see the Record and replay guide).
 */

/** A request, or a recorded one, as a `match` function compares them (secret values masked). */
export interface MatchRequest {
  readonly method: string
  /** The path after the route's prefix, without the query (`/users/42`). */
  readonly path: string
  /** The query's keys and values (the last value of a repeated key), `ignoreQuery` keys left out. */
  readonly query: Readonly<Record<string, string>>
  /** Lower-case names: the request's headers; a recording's hold only those `matchHeaders` named. */
  readonly headers: Readonly<Record<string, string>>
  /** JSON data for a JSON body, text for any other, `undefined` without a body. */
  readonly body: unknown
}

/**
 * A `match` function: whether `recorded` answers `request`. Asked for each recording of the
 * route, the request's own first; the first it accepts answers. A throw counts as `false`.
 *
 * @example
 * const match: MatchFunction = (request, recorded) => request.method === recorded.method && request.path === recorded.path
 */
export type MatchFunction = (request: MatchRequest, recorded: MatchRequest) => boolean

/** A route's match rules. */
export interface MatchRules {
  /** Query keys left out of the match, when recording and when replaying (`['_t', 'timestamp']`). */
  ignoreQuery?: string[]
  /** Request headers the match compares (none by default: the key holds no header unless named here). */
  matchHeaders?: string[]
  /**
   * `'subset'`: a request matches a recording whose JSON body has every field of the recorded
   * one, with the same values (the request may have more).
   * @default 'exact'
   */
  body?: 'exact' | 'subset'
}

/** A route's `match`: rules, or a function that decides. */
export type MatchOption = MatchRules | MatchFunction
