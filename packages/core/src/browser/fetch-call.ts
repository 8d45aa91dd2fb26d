import { headerEntries, trimHttpWhitespace } from '../http/header-list.js'
import { normalizeMethod } from '../http/method.js'
import { isSameOrigin } from '../http/parse-origin.js'
import type {
  BrowserAnswer,
  BrowserCall,
  BrowserCallResult,
  BrowserExchange,
  BrowserRequest,
  BrowserSend,
} from './browser-call.js'
import { type CorsError, chromiumCorsMessage } from './chromium-messages.js'
import { classifyRequest, combinedHeaders, type PreflightReason } from './classify-request.js'
import { AUTHORIZATION_WILDCARD_FIX, corsFix, FORBIDDEN_METHOD_FIX } from './cors-fix.js'
import { checkAccess, checkPreflight, serializeUrl } from './evaluate-cors.js'
import { type PreflightCache, preflightCacheEntry } from './preflight-cache.js'
import { REDIRECT_STATUSES, type RequestState, redirectStep } from './redirect-step.js'
import { headersWithBody } from './request-body.js'
import { requestConstructorError } from './request-constructor.js'
import { isForbiddenMethod, isForbiddenRequestHeader, unsafeHeaderCause } from './request-header-rules.js'
import { readableResponseHeaders } from './response-header-rules.js'
import {
  ALPN_FAILURE_ERROR,
  isAlpnRefusal,
  streamingUploadRefusal,
  streamRefusalReason,
} from './streaming-upload.js'
import { answersUrlCredentials, withUrlCredentials } from './url-credentials.js'

/**
 * fetch `cache` modes that make Chromium send the preflight even when a cached one covers the
 * call: the load flags `RetrieveCacheFlags` keeps in services/network/cors/preflight_controller.cc
 * (VALIDATE_CACHE for no-cache, BYPASS_CACHE for reload and no-store). The Fetch standard's
 * "HTTP fetch" step 4.1 consults the CORS-preflight cache whatever the cache mode; measured in
 * Chromium 156 (`force-cache` uses the entry).
 */
const PREFLIGHT_CACHE_BYPASS: ReadonlySet<RequestCache> = new Set(['no-store', 'reload', 'no-cache'])

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

/** What every call of one page shares: resolved once by `createBrowserModel`. */
export interface BrowserPage {
  /** Sends one request (a preflight or the request itself). */
  readonly send: BrowserSend
  /** The clock the preflight cache runs on, in milliseconds. */
  readonly now: () => number
  /** The page's origin, serialized (`null` for an opaque one). */
  readonly pageOrigin: string
  /** The preflight cache, shared by every call of the page. */
  readonly preflightCache: PreflightCache
  /** The top-level page's schemeful site, part of the preflight cache's key. */
  readonly topLevelSite: string
  /** The page's URL, named in Chromium's same-origin redirect message. */
  readonly pageUrl: string
  /** An opaque page origin never finds its preflights again. */
  readonly opaquePage: boolean
}

/**
 * One call on its way through its hops: the page, the call as the script made it, what has been
 * sent so far, and the request as the current hop sends it. The steps below read and update it
 * in place, one call at a time, so they stay module-level functions rather than closures.
 */
interface CallContext {
  readonly page: BrowserPage
  readonly call: BrowserCall
  readonly initiator: NonNullable<BrowserCall['initiator']>
  readonly credentials: NonNullable<BrowserCall['credentials']>
  readonly mode: NonNullable<BrowserCall['mode']>
  /** The first URL, named in "(redirected from '…')". */
  readonly first: string
  readonly reasons: readonly PreflightReason[]
  readonly exchanges: BrowserExchange[]
  readonly cachedPreflights: string[]
  readonly urlList: string[]
  state: RequestState
  authorizationViaWildcard: boolean
}

/** What the current hop is: whether it crosses origins and how the CORS protocol applies. */
interface Hop {
  readonly redirects: number
  readonly corsMode: boolean
  readonly noCors: boolean
  readonly requestOrigin: string
  readonly include: boolean
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

/** The browser throws before sending anything: the `Request` constructor or `open()` refused the call. */
function scriptErrorResult(method: string, scriptError: string, first: string): BrowserCallResult {
  return {
    allowed: false,
    preflight: false,
    reasons: [],
    scriptError,
    fix: isForbiddenMethod(method)
      ? FORBIDDEN_METHOD_FIX
      : `change the call: the browser throws before sending anything (${scriptError})`,
    exchanges: [],
    cachedPreflights: [],
    urlList: [first],
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

/** The preflight a cross-origin call needs, from the cache or sent; a result when its answer blocks the call. */
async function preflightIfNeeded(ctx: CallContext, hop: Hop): Promise<BrowserCallResult | undefined> {
  const { state, page, call } = ctx
  const classification = classifyRequest({
    method: state.method,
    headers: state.headers,
    body: state.body,
    hasUploadListeners: call.hasUploadListeners,
  })
  if (!hop.corsMode || classification.kind !== 'preflight') return undefined
  const key = { origin: hop.requestOrigin, url: state.url, topLevelSite: page.topLevelSite }
  const query = {
    credentials: hop.include,
    method: classification.method,
    unsafeHeaderNames: classification.unsafeHeaderNames,
  }
  // A tainted origin is opaque, a new one each time: its preflights are never found again (checked in Chromium 156).
  const bypass =
    state.tainted || page.opaquePage || (call.cache !== undefined && PREFLIGHT_CACHE_BYPASS.has(call.cache))
  if (!bypass && page.preflightCache.covers(key, query)) {
    ctx.cachedPreflights.push(state.url)
    return undefined
  }
  const headers: Array<readonly [string, string]> = [
    ['origin', hop.requestOrigin],
    ['access-control-request-method', classification.method],
    ['accept', '*/*'],
  ]
  if (classification.unsafeHeaderNames.length > 0) {
    headers.push(['access-control-request-headers', classification.unsafeHeaderNames.join(',')])
  }
  const answer = await exchange(ctx, { kind: 'preflight', url: state.url, method: 'OPTIONS', headers })
  const outcome = checkPreflight(
    answer,
    hop.requestOrigin,
    classification.method,
    classification.unsafeHeaderNames,
    hop.include,
  )
  if (outcome.error !== undefined) return blocked(ctx, 'preflight', outcome.error, answer.status)
  ctx.authorizationViaWildcard ||= outcome.authorizationViaWildcard
  // Fetch §4.8 "CORS-preflight fetch" step 7.9 stores the entry; Chromium skips it under
  // LOAD_DISABLE_CACHE, which `no-store` sets (preflight_controller.cc, measured in Chromium 156).
  if (!state.tainted && !page.opaquePage && call.cache !== 'no-store') {
    page.preflightCache.store(key, preflightCacheEntry(answer, hop.include, page.now()))
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

/** The answer judged: refused, blocked, allowed, or a redirect to follow (`undefined`, the state moved on). */
function judgeAnswer(ctx: CallContext, hop: Hop, response: BrowserAnswer): BrowserCallResult | undefined {
  // Chromium's HTTP parser refuses an answer whose Location lines differ, before any CORS
  // check (net::ERR_RESPONSE_HEADERS_MULTIPLE_LOCATION, measured in Chromium 156).
  const locations = headerEntries(response.headers)
    .filter(([name]) => name === 'location')
    .map(([, value]) => trimHttpWhitespace(value))
  if (new Set(locations).size > 1) {
    return failed(
      ctx,
      'the answer has several different Location headers',
      'net::ERR_RESPONSE_HEADERS_MULTIPLE_LOCATION',
      response,
    )
  }
  const location = locations[0]
  // Fetch §2.2.6 "location URL" step 2-3 would resolve an empty value to the current URL;
  // Chromium (`HttpResponseHeaders::IsRedirect`) treats an empty Location as no redirect at
  // all, and the script reads the 3xx (measured in Chromium 156).
  const isRedirect = REDIRECT_STATUSES.has(response.status) && location !== undefined && location !== ''
  // Every CORS response is checked, redirects included (Fetch §4.3 HTTP fetch, before redirects are handled).
  if (hop.corsMode) {
    const error = checkAccess(response.headers, hop.requestOrigin, hop.include, false)
    if (error !== undefined) return blocked(ctx, 'response', error, response.status, response)
  }
  if (!isRedirect || location === undefined)
    return allowed(ctx, response, hop.corsMode ? 'cors' : hop.noCors ? 'opaque' : 'basic')
  if (ctx.call.redirect === 'manual') return allowed(ctx, response, 'opaqueredirect')
  if (ctx.call.redirect === 'error')
    return failed(ctx, "the call asked for redirect: 'error'", 'net::ERR_FAILED', response)
  return followRedirect(ctx, hop, response, location)
}

/** The next hop's request, or the CORS or network error the redirect ends in. */
function followRedirect(
  ctx: CallContext,
  hop: Hop,
  response: BrowserAnswer,
  location: string,
): BrowserCallResult | undefined {
  const step = redirectStep(
    ctx.state,
    { status: response.status, location },
    {
      pageOrigin: ctx.page.pageOrigin,
      corsMode: hop.corsMode,
      mode: ctx.mode,
      redirectsSoFar: hop.redirects,
      initiator: ctx.initiator,
    },
  )
  if (step.kind === 'cors-error') {
    if (step.at !== undefined) ctx.state = { ...ctx.state, url: step.at }
    return blocked(ctx, 'response', step.error, response.status, response)
  }
  if (step.kind === 'network-error')
    return failed(ctx, step.reason, step.chromiumError, response, step.silent ? null : undefined)
  ctx.state = step.next
  ctx.urlList.push(ctx.state.url)
  return undefined
}

/** Sends one request and keeps it, without its body, in the call's exchanges. */
async function exchange(ctx: CallContext, request: BrowserRequest): Promise<BrowserAnswer> {
  const response = await ctx.page.send(request)
  const { body: _body, ...sent } = request
  ctx.exchanges.push({ ...sent, response })
  return response
}

/** What every result of a call that was sent carries: the exchanges so far and whether one was a preflight. */
function base(ctx: CallContext) {
  return {
    exchanges: ctx.exchanges,
    cachedPreflights: ctx.cachedPreflights,
    urlList: ctx.urlList,
    reasons: ctx.reasons,
    preflight: ctx.exchanges.some((e) => e.kind === 'preflight'),
  }
}

/** The call blocked by CORS, with Chromium's console message and the fix. */
function blocked(
  ctx: CallContext,
  stage: 'preflight' | 'response',
  error: CorsError,
  status: number,
  response?: BrowserAnswer,
): BrowserCallResult {
  const { pageOrigin } = ctx.page
  return {
    ...base(ctx),
    allowed: false,
    stage,
    message: chromiumCorsMessage({
      url: ctx.state.url,
      redirectedFrom: ctx.first,
      origin: pageOrigin,
      error,
      initiator: ctx.initiator,
    }),
    fix: corsFix(error, { origin: pageOrigin, status }),
    error,
    ...(response === undefined ? {} : { response }),
  }
}

/** The call ended in a network error, not a CORS one. */
function failed(
  ctx: CallContext,
  reason: string,
  chromiumError: string,
  response?: BrowserAnswer,
  consoleLine: string | null = `Failed to load resource: ${chromiumError}`,
): BrowserCallResult {
  return {
    ...base(ctx),
    allowed: false,
    networkError: reason,
    // Chromium's only console line for these, no CORS text; `null`: Chromium prints nothing at all.
    ...(consoleLine === null ? {} : { message: consoleLine }),
    fix: `make the server answer ${ctx.state.url} without that (${reason})`,
    ...(response === undefined ? {} : { response }),
  }
}

/** The send itself threw: a refused streaming upload, or a server that could not be reached. */
function sendFailed(ctx: CallContext, error: unknown): BrowserCallResult {
  // The send would not put a streaming upload on HTTP/1.1 (the server offers no HTTP/2):
  // measured in Chromium 156, the preflight goes out, the request never does, same-origin too.
  if (isAlpnRefusal(error)) return failed(ctx, streamRefusalReason('http1-server'), ALPN_FAILURE_ERROR)
  const code = (error as { code?: string }).code ?? 'error'
  const { url } = ctx.state
  const origin = URL.canParse(url) ? new URL(url).origin : url
  return {
    ...base(ctx),
    allowed: false,
    networkError: `${code}: ${(error as Error).message}`,
    message: `Failed to load resource: the server at ${origin} could not be reached (${code}); the script sees "TypeError: Failed to fetch".`,
    fix: `start the server at ${origin}, or check the URL.`,
  }
}

/** The call allowed: the answer and the headers the script may read. */
function allowed(
  ctx: CallContext,
  response: BrowserAnswer,
  responseType: 'basic' | 'cors' | 'opaque' | 'opaqueredirect',
): BrowserCallResult {
  // An opaque redirect or response shows the script no header at all (checked in Chromium 156).
  const readableHeaders =
    responseType === 'opaqueredirect' || responseType === 'opaque'
      ? []
      : readableResponseHeaders(response.headers, {
          sameOrigin: responseType === 'basic',
          credentials: ctx.credentials,
        })
  return {
    ...base(ctx),
    allowed: true,
    response,
    responseType,
    readableHeaders,
    ...(ctx.authorizationViaWildcard ? { fix: AUTHORIZATION_WILDCARD_FIX } : {}),
  }
}
