/*
 * One call through the browser model, hop after hop, in the order Chromium takes: this file runs
 * the hops and the steps before sending; the preflight is preflight-step.ts, the answer's check
 * and the redirect answer-step.ts, what a call carries on its way call-context.ts, and the results
 * (blocked, failed, allowed) call-results.ts.
 */
import { normalizeMethod } from '../http/method.js'
import { isSameOrigin } from '../http/parse-origin.js'
import { judgeAnswer } from './answer-step.js'
import type { BrowserAnswer, BrowserCall, BrowserCallResult } from './browser-call.js'
import { type BrowserPage, type CallContext, exchange, type Hop } from './call-context.js'
import { failed, scriptErrorResult, sendFailed } from './call-results.js'
import { classifyRequest, combinedHeaders } from './classify-request.js'
import { serializeUrl } from './evaluate-cors.js'
import { preflightIfNeeded } from './preflight-step.js'
import { headersWithBody } from './request-body.js'
import { requestConstructorError } from './request-constructor.js'
import { isForbiddenRequestHeader, unsafeHeaderCause } from './request-header-rules.js'
import { ALPN_FAILURE_ERROR, streamingUploadRefusal, streamRefusalReason } from './streaming-upload.js'
import { answersUrlCredentials, withUrlCredentials } from './url-credentials.js'

/**
 * The headers a `no-cors` request keeps (Fetch standard §5.2 Headers "append" step 3, guard
 * "request-no-cors"): only no-CORS-safelisted request-headers (`accept`, `accept-language`,
 * `content-language`, `content-type` with safelisted values); the others are silently dropped.
 */
function noCorsHeaders(headers: ReadonlyArray<readonly [string, string]>): Array<readonly [string, string]> {
  const names = new Set(['accept', 'accept-language', 'content-language', 'content-type'])
  return headers.filter(([name, value]) => names.has(name) && unsafeHeaderCause(name, value) === undefined)
}

/** The script's headers as the request carries them: combined per name, forbidden ones dropped, the body's type added. */
function requestHeaders(call: BrowserCall): Array<readonly [string, string]> {
  return combinedHeaders(headersWithBody(call.headers, call.body, call.initiator)).filter(
    ([name, value]) => !isForbiddenRequestHeader(name, value),
  )
}

/**
 * Makes one call as Chromium would: the script's own errors first, then hop after hop (a preflight
 * where one is needed, the request, the CORS check, a redirect) until an answer, a block or a
 * network error.
 *
 * @example
 * const result = await runFetchCall(page, { url: 'http://localhost:3000/items', method: 'PUT' })
 * result.allowed // false when the preflight's answer does not allow PUT
 */
export async function runFetchCall(page: BrowserPage, call: BrowserCall): Promise<BrowserCallResult> {
  const method = call.method ?? 'GET'
  const initiator = call.initiator ?? 'fetch'
  const first = serializeUrl(call.url)
  const reasons = classifyRequest({ ...call, method }).reasons
  const scriptError = requestConstructorError({ ...call, initiator })
  if (scriptError !== undefined) return scriptErrorResult(method, scriptError, first)
  const mode = call.mode ?? 'cors'
  const ctx: CallContext = {
    page,
    call,
    initiator,
    credentials: call.credentials ?? 'same-origin',
    mode,
    first,
    reasons,
    exchanges: [],
    cachedPreflights: [],
    urlList: [first],
    state: {
      url: first,
      method: normalizeMethod(method),
      headers: mode === 'no-cors' ? noCorsHeaders(requestHeaders(call)) : requestHeaders(call),
      body: call.body,
      tainted: false,
    },
    authorizationViaWildcard: false,
  }
  try {
    for (let redirects = 0; ; redirects++) {
      const result = await runHop(ctx, redirects)
      if (result !== undefined) return result
    }
  } catch (error) {
    return sendFailed(ctx, error)
  }
}

/** One hop: the refusals before sending, the preflight, the request, then its answer; `undefined` to follow a redirect. */
async function runHop(ctx: CallContext, redirects: number): Promise<BrowserCallResult | undefined> {
  const { state } = ctx
  const crossOrigin = state.tainted || !isSameOrigin(state.url, ctx.page.pageOrigin)
  const refusal = refusalBeforeSending(ctx, crossOrigin, redirects)
  if (refusal !== undefined) return refusal
  const hop: Hop = {
    redirects,
    // Fetch §4.1 "main fetch" step 12: no-cors (and same-origin, refused above) skip the CORS protocol.
    corsMode: crossOrigin && ctx.mode === 'cors',
    noCors: crossOrigin && ctx.mode === 'no-cors',
    requestOrigin: state.tainted ? 'null' : ctx.page.pageOrigin,
    include: ctx.credentials === 'include',
  }
  if (hop.noCors && ctx.call.redirect !== undefined && ctx.call.redirect !== 'follow') {
    // Fetch §4.3 "scheme fetch"/§4.1 step 12 ("no-cors": redirect mode must be "follow"), Chromium's text measured.
    return failed(
      ctx,
      "mode 'no-cors' needs redirect: 'follow'",
      'net::ERR_FAILED',
      undefined,
      `Fetch API cannot load ${state.url}. Request mode is "no-cors" but the redirect mode is not "follow".`,
    )
  }
  const preflightBlock = await preflightIfNeeded(ctx, hop)
  if (preflightBlock !== undefined) return preflightBlock
  // Streaming uploads need HTTP/2, which Chromium never speaks over http:; over https: the
  // server's ALPN decides, so the send refuses (ALPN_NEGOTIATION_FAILED, caught in runFetchCall).
  if (streamingUploadRefusal(state.url, state.body) !== undefined) {
    return failed(ctx, streamRefusalReason('cleartext'), ALPN_FAILURE_ERROR)
  }
  const response = await sendRequest(ctx, hop)
  return judgeAnswer(ctx, hop, response)
}

/** The network errors of a request mode or cache mode, before anything is sent. */
function refusalBeforeSending(
  ctx: CallContext,
  crossOrigin: boolean,
  redirects: number,
): BrowserCallResult | undefined {
  const { state, page } = ctx
  // Fetch §4.1 "main fetch" step 12: a same-origin request to another origin is a network
  // error (first hop: Chromium's "Fetch API cannot load" line, measured in Chromium 156;
  // later hops: Blink's "Unsafe attempt to load URL" line, measured in Chromium 156).
  if (ctx.mode === 'same-origin' && crossOrigin) {
    const line =
      redirects === 0
        ? `Fetch API cannot load ${state.url}. Request mode is "same-origin" but the URL's origin is not same as the request origin ${page.pageOrigin}.`
        : `Unsafe attempt to load URL ${state.url} from frame with URL ${page.pageUrl}. Domains, protocols and ports must match.\n`
    return failed(ctx, "mode 'same-origin' refuses another origin", 'net::ERR_FAILED', undefined, line)
  }
  // The model keeps no HTTP cache, so `only-if-cached` (same-origin mode, the constructor saw
  // to it) always misses: Fetch §4.5 "HTTP-network-or-cache fetch" step 10.1 ("If request's
  // cache mode is "only-if-cached", then return a network error"); measured in a fresh Chromium 156 profile.
  if (ctx.call.cache === 'only-if-cached') {
    return failed(ctx, "cache: 'only-if-cached' and nothing cached", 'net::ERR_CACHE_MISS')
  }
  return undefined
}

/** Sends the request itself, once more with the URL's credentials when the server asks for them. */
async function sendRequest(ctx: CallContext, hop: Hop): Promise<BrowserAnswer> {
  const { state } = ctx
  // Origin goes on every CORS request, and on same-origin ones that are not GET or HEAD (Fetch §3.1 "append a request Origin header").
  const sendOrigin = hop.corsMode || (state.method !== 'GET' && state.method !== 'HEAD')
  const headers = sendOrigin ? [['origin', hop.requestOrigin] as const, ...state.headers] : [...state.headers]
  const response = await exchange(ctx, {
    kind: 'request',
    url: state.url,
    method: state.method,
    headers,
    body: state.body,
  })
  // A URL with user:password (an XMLHttpRequest followed a same-origin redirect to it) sends
  // them only when the server asks, as Chromium does: once more, with `Authorization: Basic`.
  if (!answersUrlCredentials(state.url, response)) return response
  return exchange(ctx, {
    kind: 'request',
    url: state.url,
    method: state.method,
    headers: withUrlCredentials(headers, state.url),
    body: state.body,
  })
}
