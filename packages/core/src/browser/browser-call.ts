import type { HeadersInput } from '../http/header-list.js'
import type { CorsInitiator } from './chromium-messages.js'
import type { CorsResponseInput, CorsVerdict } from './evaluate-cors.js'
import type { RequestBodyInput } from './request-body.js'

/** One call of a page's script: what it passes to `fetch` (or sets on an `XMLHttpRequest`). */
export interface BrowserCall {
  /** The URL called (absolute). */
  readonly url: string | URL
  /** As the script writes it (`patch` stays lowercase). @default 'GET' */
  readonly method?: string
  /** Headers the script sets; several values of one name are combined, as the browser does. */
  readonly headers?: HeadersInput
  /** @default 'same-origin' (fetch's default; XMLHttpRequest's `withCredentials` is `'include'`) */
  readonly credentials?: RequestCredentials
  /** The body; its type can set `Content-Type` and a `ReadableStream` forces a preflight. */
  readonly body?: RequestBodyInput | null
  /** Chromium words its message after it. @default 'fetch' */
  readonly initiator?: CorsInitiator
  /** fetch's `redirect` option. @default 'follow' */
  readonly redirect?: 'follow' | 'error' | 'manual'
  /** An `XMLHttpRequest.upload` listener is registered (forces a preflight). */
  readonly hasUploadListeners?: boolean
  /**
   * fetch's `cache` option: `no-store`, `reload` and `no-cache` also bypass the preflight cache;
   * `reload` and `no-cache` store the new answer, `no-store` does not; `only-if-cached` needs
   * `mode: 'same-origin'` (measured in Chromium 156). @default 'default'
   */
  readonly cache?: RequestCache
  /**
   * fetch's `mode`: `no-cors` sends no preflight and checks nothing (the script gets an opaque
   * response), `same-origin` refuses any other origin, `navigate` throws. @default 'cors'
   */
  readonly mode?: RequestMode
  /** fetch's `duplex`; a `ReadableStream` body needs `'half'` or fetch throws. */
  readonly duplex?: 'half'
}

/** A request the browser puts on the wire: a preflight or one hop of the actual request. */
export interface BrowserRequest {
  readonly kind: 'preflight' | 'request'
  readonly url: string
  /** `OPTIONS` for a preflight. */
  readonly method: string
  /** The headers that matter to CORS, lowercase names, one line per name: `origin`, the `access-control-request-*` pair, the script's own. */
  readonly headers: readonly (readonly [string, string])[]
  /** The body (actual request only). */
  readonly body?: RequestBodyInput | null
}

/** A server's answer as the model needs it; `protocol` is the HTTP version when known (`h2`, `http/1.1`). */
export interface BrowserAnswer extends CorsResponseInput {
  readonly protocol?: string
}

/**
 * Sends one request and returns the server's answer (headers suffice; the body may be dropped).
 * A request with a `ReadableStream` body must go over HTTP/2, as Chromium sends it: when the
 * server offers no HTTP/2, reject with an error whose `code` is `ALPN_NEGOTIATION_FAILED`
 * (`'ERR_ALPN_NEGOTIATION_FAILED'`) without sending it.
 */
export type BrowserSend = (request: BrowserRequest) => Promise<BrowserAnswer>

/** One request the model sent and the answer it got. */
export interface BrowserExchange extends Omit<BrowserRequest, 'body'> {
  readonly response: BrowserAnswer
}

/** What the browser does with one call: the verdict, every request it sends, and what the cache saved. */
export interface BrowserCallResult extends CorsVerdict {
  /** Every request sent, in order: preflights and each hop of the actual request. */
  readonly exchanges: readonly BrowserExchange[]
  /** URLs whose preflight the cache answered, so none was sent. */
  readonly cachedPreflights: readonly string[]
  /** Every URL the actual request went to, the first being the one the script called. */
  readonly urlList: readonly string[]
  /** The last answer of the actual request, when it got one. */
  readonly response?: BrowserAnswer
  /**
   * What the script gets: `cors` or `basic` (same-origin) responses, an `opaque` one (`mode:
   * 'no-cors'` to another origin), or an `opaqueredirect` (`redirect: 'manual'`).
   */
  readonly responseType?: 'basic' | 'cors' | 'opaque' | 'opaqueredirect'
  /** Why the call failed outside CORS (no answer, too many redirects...): the script sees `TypeError: Failed to fetch`. */
  readonly networkError?: string
}
