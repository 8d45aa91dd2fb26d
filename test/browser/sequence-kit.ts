import type { Route, RouteAnswer } from './sequence-server.js'

/**
 * The vocabulary of the sequence tables (sequence-cases.ts and the sequence-cases-*.ts files
 * beside it): what a call is, what it should give, and the routes most cases answer with.
 */

/** A body a script passes, by kind (built in the page and in Node alike). */
export type BodyKind = 'blob-json' | 'blob-text' | 'blob-untyped' | 'string' | 'params' | 'form' | 'stream'

/** What the script gets from one call. */
export type CallOutcome =
  | {
      readonly readable: true
      readonly status?: number
      /** The response header names the script can read, sorted (asserted when given). */
      readonly headers?: readonly string[]
      /** fetch's `response.type` (asserted for fetch when given). */
      readonly type?: 'basic' | 'cors' | 'opaque' | 'opaqueredirect'
    }
  | {
      readonly readable: false
      /** What fetch throws before any request, as `String(error)`. */
      readonly thrown: string
      /** What XMLHttpRequest throws instead (its `open()` or `setRequestHeader()`), when the case runs as one. */
      readonly xhrThrown?: string
    }
  | {
      readonly readable: false
      /** The URL in Chromium's message (`at '…'`). */
      readonly at: string
      /** The first URL, when Chromium adds "(redirected from '…')". */
      readonly from?: string
      /** The text after "has been blocked by CORS policy: ", in fetch's words. */
      readonly text: string
    }
  | {
      readonly readable: false
      readonly network: true
      /**
       * Chromium's one console line for it (`Failed to load resource: net::…`), no CORS text;
       * `null` when Chromium prints nothing at all (the script only sees its TypeError).
       */
      readonly console: string | null
    }

/** One call of a sequence. */
export interface SequenceCall {
  readonly url: string
  readonly method?: string
  readonly headers?: Readonly<Record<string, string>>
  /** `true`: `'include'` (`withCredentials`); `'omit'`: fetch only. @default same-origin */
  readonly credentials?: boolean | 'omit'
  readonly body?: BodyKind
  /** fetch only. */
  readonly redirect?: 'manual' | 'error'
  /** fetch only. */
  readonly cache?: RequestCache
  /** fetch only. */
  readonly mode?: RequestMode
  /** fetch only: leave `duplex` out of a stream body's init (the harness passes `'half'` otherwise). */
  readonly noDuplex?: true
  /** `user:password` put into the URL after `http://`. */
  readonly userinfo?: string
  /** What XMLHttpRequest gets and sends instead, when it differs from fetch. */
  readonly xhr?: Pick<SequenceCall, 'expected' | 'sent'>
  /**
   * The page that calls: P's own page (default), a page of B (`{PAGE_B}`), P's sandboxed page
   * (`Origin: null`), P's page framed by a top-level page of another site (`localhost`), or
   * framed by B's page (another origin, the same site: 127.0.0.1), or a page of S or H (https:
   * HTTP/1.1 only, or with HTTP/2; `{PAGE_S}`, `{PAGE_H}`).
   */
  readonly page?: 'P' | 'B' | 'sandbox' | 'framed' | 'framed-same-site' | 'S' | 'H'
  /** Milliseconds to wait before this call. */
  readonly waitBefore?: number
  readonly expected: CallOutcome
  /** What reached the servers for this call: `METHOD <server><path> <Origin or ->`. */
  readonly sent: readonly string[]
}

/** The call as `initiator` makes it: XMLHttpRequest's own expectation when the case gives one. */
export function asMadeBy(call: SequenceCall, initiator: 'fetch' | 'XMLHttpRequest'): SequenceCall {
  return initiator === 'XMLHttpRequest' && call.xhr !== undefined ? { ...call, ...call.xhr } : call
}

/** One sequence: the servers' routes and the calls, in order. */
export interface SequenceCase {
  readonly name: string
  readonly routes: Readonly<Record<string, Route>>
  readonly calls: readonly SequenceCall[]
  /** Why the case does not also run as XMLHttpRequest (a fetch-only option), if it does not. */
  readonly fetchOnly?: string
}

export const NO_ALLOW_ORIGIN = "No 'Access-Control-Allow-Origin' header is present on the requested resource."

/** Answers a preflight allowing what it asks for (reflected), with extra headers. */
export function preflightOk(extra: Record<string, string> = {}): Route {
  return (request) => {
    const asked = request.headers
    return {
      status: 204,
      headers: {
        'access-control-allow-origin': request.origin,
        'access-control-allow-methods': String(asked['access-control-request-method'] ?? ''),
        'access-control-allow-headers': String(asked['access-control-request-headers'] ?? ''),
        ...extra,
      },
    }
  }
}

/** A route answering preflights with `preflight` and other requests with `answer`. */
export function route(
  answer: RouteAnswer | ((request: Parameters<Route>[0]) => RouteAnswer),
  preflight?: Route,
): Route {
  return (request) => {
    if (request.method === 'OPTIONS' && preflight !== undefined) return preflight(request)
    return typeof answer === 'function' ? answer(request) : answer
  }
}

export const reflect: RouteAnswer = { headers: { 'access-control-allow-origin': '{PAGE}' } }
/** Allow-Origin echoing whatever Origin came (`null` once tainted). */
export const reflectOrigin: Route = (request) => ({
  headers: { 'access-control-allow-origin': request.origin },
})
export const star: RouteAnswer = { headers: { 'access-control-allow-origin': '*' } }
export const put = { method: 'PUT', headers: { 'X-Foo': '1' } } as const
