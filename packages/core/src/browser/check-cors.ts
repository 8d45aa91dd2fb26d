import type { HeadersInput } from '../http/header-list.js'
import { type BrowserCallResult, type BrowserExchange, createBrowserModel } from './browser-model.js'
import type { CorsInitiator } from './chromium-messages.js'
import type { CorsResponseInput } from './evaluate-cors.js'
import { createNetworkSend } from './network-send.js'
import type { RequestBodyInput } from './request-body.js'

/** The call to check: what a page's script would pass to `fetch`, plus the page's origin. */
export interface CheckCorsRequest {
  /** The URL the page calls. */
  url: string
  /** The page's origin, e.g. `http://localhost:5173`. */
  origin: string
  /**
   * The method as the script writes it (`patch` stays lowercase, as in the browser).
   * @default 'GET'
   */
  method?: string
  /** Headers the script sets; several values of one name are sent combined (`a, b`), as the browser does. */
  headers?: HeadersInput
  /**
   * `credentials: 'include'`.
   * @default false
   */
  credentials?: boolean
  /** A request body (sent with the actual request; a `Blob`'s type or a string's becomes the `Content-Type` when none is set). */
  body?: RequestBodyInput
  /**
   * Who makes the call; Chromium words its message after it.
   * @default 'fetch'
   */
  initiator?: CorsInitiator
  /**
   * fetch's `redirect` option: redirects are followed as the browser follows them, CORS checked at each hop.
   * @default 'follow'
   */
  redirect?: 'follow' | 'error' | 'manual'
}

/** Options of {@link checkCors}. */
export interface CheckCorsOptions {
  /**
   * Milliseconds to wait for each answer.
   * @default 10000
   */
  timeout?: number
  /**
   * Verify the server's TLS certificate.
   * @default true
   */
  secure?: boolean
}

/** What the browser would decide, with every request it would send and the answers it got. */
export interface CheckCorsResult extends BrowserCallResult {
  /** The last preflight's answer, when one was sent. */
  preflightResponse?: CorsResponseInput
}

/** The last preflight's answer among the exchanges. */
function lastPreflight(exchanges: readonly BrowserExchange[]): CorsResponseInput | undefined {
  return exchanges.findLast((exchange) => exchange.kind === 'preflight')?.response
}

/**
 * Sends the requests a browser would send for a cross-origin call (the preflight first when one
 * is needed, the request itself only if the preflight passed, then every redirect hop, each
 * checked and preflighted as Chromium does) and predicts the browser's verdict in Chromium's
 * words. This is `cors-dev-proxy check`; the playground uses it too. For a sequence of calls
 * sharing a preflight cache, use `createBrowserModel` with `createNetworkSend`.
 *
 * @example
 * const verdict = await checkCors({ url: 'http://localhost:3000/users', origin: 'http://localhost:5173', method: 'PUT', headers: { 'content-type': 'application/json' } })
 * if (!verdict.allowed) console.log(verdict.message, verdict.fix)
 */
export async function checkCors(
  call: CheckCorsRequest,
  options: CheckCorsOptions = {},
): Promise<CheckCorsResult> {
  const network = createNetworkSend({ timeout: options.timeout ?? 10_000, secure: options.secure ?? true })
  try {
    const browser = createBrowserModel({ origin: call.origin, send: network.send })
    const result = await browser.fetch({
      url: call.url,
      method: call.method ?? 'GET',
      headers: call.headers,
      credentials: call.credentials ? 'include' : 'same-origin',
      body: call.body,
      initiator: call.initiator,
      redirect: call.redirect,
    })
    const preflightResponse = lastPreflight(result.exchanges)
    return preflightResponse === undefined ? result : { ...result, preflightResponse }
  } finally {
    await network.close()
  }
}
