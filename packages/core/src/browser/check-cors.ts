import type { HeadersInput } from '../http/header-list.js'
import type { AddressSpace } from './address-space.js'
import type { BrowserCallResult, BrowserExchange, BrowserSend } from './browser-call.js'
import { createBrowserModel } from './browser-model.js'
import type { CorsInitiator } from './chromium-messages.js'
import type { CorsResponseInput } from './evaluate-cors.js'
import { type LocalNetworkAccessPrediction, localNetworkAccessOfCall } from './local-network-access.js'
import { createNetworkSend } from './network-send.js'
import { isStreamBody, type RequestBodyInput } from './request-body.js'

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
  /**
   * The page's IP address space, for Local Network Access: give it when the page's host is a name
   * this machine does not resolve as the browser's would (a public domain in front of the dev server).
   * @default the space of the address the page's host resolves to here
   */
  pageSpace?: AddressSpace
  /** fetch's `targetAddressSpace` option, when the script passes one. */
  targetAddressSpace?: string
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
  /**
   * Wraps the function that puts each request on the wire, to change or refuse what is sent (the
   * overlay's explanation sends at most a preflight and a GET or HEAD this way).
   * @default the requests go out as the browser sends them
   */
  intercept?: (send: BrowserSend) => BrowserSend
}

/** What the browser would decide, with every request it would send and the answers it got. */
export interface CheckCorsResult extends BrowserCallResult {
  /** The last preflight's answer, when one was sent. */
  preflightResponse?: CorsResponseInput
  /**
   * Set when Local Network Access comes into play (a public page calling a local or loopback
   * target, or a `targetAddressSpace` that does not match). Chromium decides it before CORS: when
   * its `outcome` is not `not-needed`, nothing is sent unless the permission is granted, and the
   * CORS verdict above is what follows once it is.
   */
  localNetworkAccess?: LocalNetworkAccessPrediction
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
  const [result, localNetworkAccess] = await Promise.all([
    sendAsBrowser(call, options),
    localNetworkAccessOfCall(call),
  ])
  return localNetworkAccess === undefined ? result : { ...result, localNetworkAccess }
}

/** The CORS part of {@link checkCors}: every request the browser sends, and the verdict. */
async function sendAsBrowser(call: CheckCorsRequest, options: CheckCorsOptions): Promise<CheckCorsResult> {
  const network = createNetworkSend({ timeout: options.timeout ?? 10_000, secure: options.secure ?? true })
  try {
    const send = options.intercept === undefined ? network.send : options.intercept(network.send)
    const browser = createBrowserModel({ origin: call.origin, send })
    const result = await browser.fetch({
      url: call.url,
      method: call.method ?? 'GET',
      headers: call.headers,
      credentials: call.credentials ? 'include' : 'same-origin',
      body: call.body,
      initiator: call.initiator,
      redirect: call.redirect,
      // A script must pass `duplex: 'half'` with a stream body or fetch throws; check the call that works.
      ...(isStreamBody(call.body) ? { duplex: 'half' as const } : {}),
    })
    const preflightResponse = lastPreflight(result.exchanges)
    return preflightResponse === undefined ? result : { ...result, preflightResponse }
  } finally {
    await network.close()
  }
}
