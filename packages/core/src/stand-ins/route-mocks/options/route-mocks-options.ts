import type { IncomingHttpHeaders } from 'node:http'

/**
 * One mocked answer: a status, headers, and `json` (sent as JSON) or `body` (sent as it is).
 * The same shape a mock file holds (see the Mocks guide).
 *
 * @example
 * const answer: MockAnswer = { status: 200, json: { id: 1, name: 'Ada' } }
 */
export interface MockAnswer {
  /**
   * The status, 200 to 599.
   * @default 200
   */
  status?: number
  /** Header name → value (an array for a repeated field such as `Set-Cookie`). */
  headers?: Record<string, string | string[]>
  /** Sent as JSON, with `Content-Type: application/json; charset=utf-8` unless `headers` set one. */
  json?: unknown
  /** Sent as it is, with `Content-Type: text/plain; charset=utf-8` unless `headers` set one. */
  body?: string | Uint8Array
}

/** What a function mock is asked with: the request, its path relative to the route's prefix. */
export interface MockRequest {
  readonly method: string
  /** The path after the route's prefix, without the query (`/users/42`). */
  readonly path: string
  /** The key's `:name` segments (percent-decoded), and `'*'` for a final wildcard. */
  readonly params: Readonly<Record<string, string>>
  readonly query: URLSearchParams
  readonly headers: IncomingHttpHeaders
  /** JSON data for a JSON body, text for any other, `undefined` without a body. */
  readonly body?: unknown
}

/**
 * A function mock: its answer, or `undefined` to let the request go on to the target. A throw
 * or a rejection is answered 500 naming the key.
 *
 * @example
 * const mock: MockFunction = ({ params }) => (params.id === '0' ? { status: 404, json: { error: 'no user 0' } } : undefined)
 */
export type MockFunction = (request: MockRequest) => MockAnswer | undefined | Promise<MockAnswer | undefined>

/**
 * A route's `mocks`: `'METHOD /path/:param'` (or `'/path'`, any method) keys relative to the
 * route's prefix, each an answer or a function; or `true` for files only, in the route's folder
 * `cors-dev-proxy/mocks/<route>/`; or the path of another folder (relative to the dev server's
 * root or the working directory). With keys, the route's folder is read too, before them.
 */
export type MocksOption = true | string | Record<string, MockAnswer | MockFunction>
