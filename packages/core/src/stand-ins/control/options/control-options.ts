import type { TargetObject } from '../../../config/validate-target.js'

/**
 * Milliseconds added before a request is forwarded: a fixed delay, or `[min, max]` for a
 * delay drawn uniformly between the two for each request.
 */
export type Latency = number | readonly [min: number, max: number]

/** What a failed request gets: an HTTP status (400 to 599), or `'reset'` for a dropped connection. */
export type FailWith = number | 'reset'

/**
 * The faults of a route or of one path pattern of it (`faults`): latency, failures and a
 * bandwidth limit, all off unless set.
 */
export interface FaultOptions {
  /**
   * Milliseconds added before the request is forwarded (on a `ws` route, before the WebSocket
   * handshake is), or `[min, max]`.
   * @default 0
   * @example [100, 400]
   */
  latency?: Latency
  /**
   * The share of requests (0 to 1) answered with `failWith` instead of being forwarded
   * (WebSocket handshakes included).
   * @default 0
   * @example 0.5
   */
  failRate?: number
  /**
   * What a failed request gets: a status (400 to 599), or `'reset'` to drop the connection.
   * @default 503
   * @example 'reset'
   */
  failWith?: FailWith
  /**
   * Bytes per second, each way: the request body is sent to the target no faster (the client's
   * upload is held back), and the answer is streamed to the client no faster.
   * @default no limit
   * @example 16384
   */
  throttle?: number
}

/** A target as `target` takes it: a URL string, a `URL`, or http-proxy's target object. */
export type TargetChoice = string | URL | TargetObject
