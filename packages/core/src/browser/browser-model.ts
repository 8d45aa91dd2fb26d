import { headerEntries, trimHttpWhitespace } from '../http/header-list.js'
import { normalizeMethod } from '../http/method.js'
import { isSameOrigin, originOf, serializeOrigin } from '../http/parse-origin.js'
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
import { createPreflightCache, type PreflightCache, preflightCacheEntry } from './preflight-cache.js'
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

/** Options of {@link createBrowserModel}. */
export interface BrowserModelOptions {
  /** The page's origin, e.g. `http://localhost:5173`. */
  readonly origin: string
  /** Sends a request; tests pass scripted answers, `checkCors` sends real ones. */
  readonly send: BrowserSend
  /** The clock the preflight cache runs on, in milliseconds. @default Date.now */
  readonly now?: () => number
  /**
   * The page's URL, which Chromium names when a `mode: 'same-origin'` request is redirected to
   * another origin. @default `${origin}/`
   */
  readonly pageUrl?: string
  /**
   * The origin of the top-level page, when the page is a frame inside another site's page: its
   * site is part of the preflight cache's key (the network isolation key). @default origin
   */
  readonly topLevelOrigin?: string
  /**
   * A preflight cache to share: Chromium keeps one per browser profile, for every page, keyed by
   * page origin and top-level site. Give the same cache to the models of several pages of one
   * browser. @default a cache of this model's own
   */
  readonly preflightCache?: PreflightCache
}

/**
 * A schemeful site as the network isolation key holds it: scheme and host, the port left out
 * (pages of 127.0.0.1:3000 and 127.0.0.1:5173 share entries, measured in Chromium 156). Chromium
 * also reduces a host name to its registrable domain (`a.example.com` → `example.com`); without
 * the public suffix list the model keeps the whole host, so sibling subdomains count as two sites.
 */
function schemefulSite(origin: string): string {
  const parsed = originOf(origin)
  return parsed === null || parsed.opaque ? origin : `${parsed.scheme}://${parsed.host}`
}

/** A page's view of the network: calls judged as Chromium judges them, with its preflight cache. */
export interface BrowserModel {
  /** The page's origin, serialized. */
  readonly origin: string
  /** Makes a call as the page's script would, following redirects and using the preflight cache. */
  fetch(call: BrowserCall): Promise<BrowserCallResult>
  /** The preflight cache, shared by every call of this model (fetch and XMLHttpRequest alike). */
  readonly preflightCache: PreflightCache
}

/** The script's headers as the request carries them: combined per name, forbidden ones dropped, the body's type added. */
function requestHeaders(call: BrowserCall): Array<readonly [string, string]> {
  return combinedHeaders(headersWithBody(call.headers, call.body, call.initiator)).filter(
    ([name, value]) => !isForbiddenRequestHeader(name, value),
  )
}

/**
 * A stateful model of what Chromium does with a page's calls: it keeps Chromium's preflight
 * cache (keyed by origin and exact URL, `Access-Control-Max-Age` 5 s by default, 7200 s at most)
 * and follows redirects (CORS checked at every hop, a new preflight where one is needed,
 * `Origin: null` once the origin is tainted, "(redirected from '…')" in the message). The
 * stateless `evaluateCors` stays the tool for one exchange; this is for a sequence of calls.
 *
 * @example
 * const browser = createBrowserModel({ origin: 'http://localhost:5173', send: async (request) => answer(request) })
 * const first = await browser.fetch({ url: 'http://localhost:3000/items', method: 'PUT' })
 * const second = await browser.fetch({ url: 'http://localhost:3000/items', method: 'PUT' })
 * second.cachedPreflights // ['http://localhost:3000/items'] within 5 s
 */
export function createBrowserModel(options: BrowserModelOptions): BrowserModel {
  const now = options.now ?? Date.now
  const parsed = originOf(options.origin)
  const pageOrigin = parsed === null ? options.origin : serializeOrigin(parsed)
  const preflightCache = options.preflightCache ?? createPreflightCache(now)
  const topLevelSite = schemefulSite(options.topLevelOrigin ?? pageOrigin)
  const pageUrl = options.pageUrl ?? `${pageOrigin}/`
  // An opaque page origin (a sandboxed document, `Origin: null`) never finds its preflights again:
  // measured in Chromium 156, every call from a sandboxed page is preflighted, Max-Age or not.
  const opaquePage = pageOrigin === 'null'

  async function fetchCall(call: BrowserCall): Promise<BrowserCallResult> {
    const method = call.method ?? 'GET'
    const initiator = call.initiator ?? 'fetch'
    const credentials = call.credentials ?? 'same-origin'
    const first = serializeUrl(call.url)
    const firstClassification = classifyRequest({ ...call, method })
    const exchanges: BrowserExchange[] = []
    const cachedPreflights: string[] = []
    const urlList = [first]
    const reasons: readonly PreflightReason[] = firstClassification.reasons
    const base = () => ({
      exchanges,
      cachedPreflights,
      urlList,
      reasons,
      preflight: exchanges.some((e) => e.kind === 'preflight'),
    })
    const mode = call.mode ?? 'cors'
    const scriptError = requestConstructorError({ ...call, initiator })
    if (scriptError !== undefined) {
      return {
        allowed: false,
        preflight: false,
        reasons: [],
        scriptError,
        fix: isForbiddenMethod(method)
          ? FORBIDDEN_METHOD_FIX
          : `change the call: the browser throws before sending anything (${scriptError})`,
        exchanges,
        cachedPreflights,
        urlList,
      }
    }

    let state: RequestState = {
      url: first,
      method: normalizeMethod(method),
      headers: mode === 'no-cors' ? noCorsHeaders(requestHeaders(call)) : requestHeaders(call),
      body: call.body,
      tainted: false,
    }
    let authorizationViaWildcard = false
    const blocked = (
      stage: 'preflight' | 'response',
      error: CorsError,
      status: number,
      response?: BrowserAnswer,
    ): BrowserCallResult => ({
      ...base(),
      allowed: false,
      stage,
      message: chromiumCorsMessage({
        url: state.url,
        redirectedFrom: first,
        origin: pageOrigin,
        error,
        initiator,
      }),
      fix: corsFix(error, { origin: pageOrigin, status }),
      error,
      ...(response === undefined ? {} : { response }),
    })
    const failed = (
      reason: string,
      chromiumError: string,
      response?: BrowserAnswer,
      consoleLine: string | null = `Failed to load resource: ${chromiumError}`,
    ): BrowserCallResult => ({
      ...base(),
      allowed: false,
      networkError: reason,
      // Chromium's only console line for these, no CORS text; `null`: Chromium prints nothing at all.
      ...(consoleLine === null ? {} : { message: consoleLine }),
      fix: `make the server answer ${state.url} without that (${reason})`,
      ...(response === undefined ? {} : { response }),
    })
    const exchange = async (request: BrowserRequest): Promise<BrowserAnswer> => {
      const response = await options.send(request)
      const { body: _body, ...sent } = request
      exchanges.push({ ...sent, response })
      return response
    }

    try {
      for (let redirects = 0; ; redirects++) {
        const crossOrigin = state.tainted || !isSameOrigin(state.url, pageOrigin)
        // Fetch §4.1 "main fetch" step 12: a same-origin request to another origin is a network
        // error (first hop: Chromium's "Fetch API cannot load" line, measured in Chromium 156;
        // later hops: Blink's "Unsafe attempt to load URL" line, measured in Chromium 156).
        if (mode === 'same-origin' && crossOrigin) {
          const line =
            redirects === 0
              ? `Fetch API cannot load ${state.url}. Request mode is "same-origin" but the URL's origin is not same as the request origin ${pageOrigin}.`
              : `Unsafe attempt to load URL ${state.url} from frame with URL ${pageUrl}. Domains, protocols and ports must match.\n`
          return failed("mode 'same-origin' refuses another origin", 'net::ERR_FAILED', undefined, line)
        }
        // The model keeps no HTTP cache, so `only-if-cached` (same-origin mode, the constructor saw
        // to it) always misses: Fetch §4.5 "HTTP-network-or-cache fetch" step 10.1 ("If request's
        // cache mode is "only-if-cached", then return a network error"); measured in a fresh Chromium 156 profile.
        if (call.cache === 'only-if-cached') {
          return failed("cache: 'only-if-cached' and nothing cached", 'net::ERR_CACHE_MISS')
        }
        // Fetch §4.1 "main fetch" step 12: no-cors (and same-origin, checked above) skip the CORS protocol.
        const corsMode = crossOrigin && mode === 'cors'
        const noCors = crossOrigin && mode === 'no-cors'
        if (noCors && call.redirect !== undefined && call.redirect !== 'follow') {
          // Fetch §4.3 "scheme fetch"/§4.1 step 12 ("no-cors": redirect mode must be "follow"), Chromium's text measured.
          return failed(
            "mode 'no-cors' needs redirect: 'follow'",
            'net::ERR_FAILED',
            undefined,
            `Fetch API cannot load ${state.url}. Request mode is "no-cors" but the redirect mode is not "follow".`,
          )
        }
        const requestOrigin = state.tainted ? 'null' : pageOrigin
        const include = credentials === 'include'
        const classification = classifyRequest({
          method: state.method,
          headers: state.headers,
          body: state.body,
          hasUploadListeners: call.hasUploadListeners,
        })
        if (corsMode && classification.kind === 'preflight') {
          const key = { origin: requestOrigin, url: state.url, topLevelSite }
          const query = {
            credentials: include,
            method: classification.method,
            unsafeHeaderNames: classification.unsafeHeaderNames,
          }
          // A tainted origin is opaque, a new one each time: its preflights are never found again (checked in Chromium 156).
          const bypass =
            state.tainted ||
            opaquePage ||
            (call.cache !== undefined && PREFLIGHT_CACHE_BYPASS.has(call.cache))
          if (!bypass && preflightCache.covers(key, query)) {
            cachedPreflights.push(state.url)
          } else {
            const headers: Array<readonly [string, string]> = [
              ['origin', requestOrigin],
              ['access-control-request-method', classification.method],
              ['accept', '*/*'],
            ]
            if (classification.unsafeHeaderNames.length > 0) {
              headers.push(['access-control-request-headers', classification.unsafeHeaderNames.join(',')])
            }
            const answer = await exchange({ kind: 'preflight', url: state.url, method: 'OPTIONS', headers })
            const outcome = checkPreflight(
              answer,
              requestOrigin,
              classification.method,
              classification.unsafeHeaderNames,
              include,
            )
            if (outcome.error !== undefined) return blocked('preflight', outcome.error, answer.status)
            authorizationViaWildcard ||= outcome.authorizationViaWildcard
            // Fetch §4.8 "CORS-preflight fetch" step 7.9 stores the entry; Chromium skips it under
            // LOAD_DISABLE_CACHE, which `no-store` sets (preflight_controller.cc, measured in Chromium 156).
            if (!state.tainted && !opaquePage && call.cache !== 'no-store') {
              preflightCache.store(key, preflightCacheEntry(answer, include, now()))
            }
          }
        }
        // Streaming uploads need HTTP/2, which Chromium never speaks over http:; over https: the
        // server's ALPN decides, so the send refuses (ALPN_NEGOTIATION_FAILED, caught below).
        if (streamingUploadRefusal(state.url, state.body) !== undefined) {
          return failed(streamRefusalReason('cleartext'), ALPN_FAILURE_ERROR)
        }
        // Origin goes on every CORS request, and on same-origin ones that are not GET or HEAD (Fetch §3.1 "append a request Origin header").
        const sendOrigin = corsMode || (state.method !== 'GET' && state.method !== 'HEAD')
        const headers = sendOrigin
          ? [['origin', requestOrigin] as const, ...state.headers]
          : [...state.headers]
        let response = await exchange({
          kind: 'request',
          url: state.url,
          method: state.method,
          headers,
          body: state.body,
        })
        // A URL with user:password (an XMLHttpRequest followed a same-origin redirect to it) sends
        // them only when the server asks, as Chromium does: once more, with `Authorization: Basic`.
        if (answersUrlCredentials(state.url, response)) {
          response = await exchange({
            kind: 'request',
            url: state.url,
            method: state.method,
            headers: withUrlCredentials(headers, state.url),
            body: state.body,
          })
        }
        // Chromium's HTTP parser refuses an answer whose Location lines differ, before any CORS
        // check (net::ERR_RESPONSE_HEADERS_MULTIPLE_LOCATION, measured in Chromium 156).
        const locations = headerEntries(response.headers)
          .filter(([name]) => name === 'location')
          .map(([, value]) => trimHttpWhitespace(value))
        if (new Set(locations).size > 1) {
          return failed(
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
        if (corsMode) {
          const error = checkAccess(response.headers, requestOrigin, include, false)
          if (error !== undefined) return blocked('response', error, response.status, response)
        }
        if (!isRedirect || location === undefined)
          return allowed(response, corsMode ? 'cors' : noCors ? 'opaque' : 'basic')
        if (call.redirect === 'manual') return allowed(response, 'opaqueredirect')
        if (call.redirect === 'error')
          return failed("the call asked for redirect: 'error'", 'net::ERR_FAILED', response)
        const step = redirectStep(
          state,
          { status: response.status, location },
          { pageOrigin, corsMode, mode, redirectsSoFar: redirects, initiator },
        )
        if (step.kind === 'cors-error') {
          if (step.at !== undefined) state = { ...state, url: step.at }
          return blocked('response', step.error, response.status, response)
        }
        if (step.kind === 'network-error')
          return failed(step.reason, step.chromiumError, response, step.silent ? null : undefined)
        state = step.next
        urlList.push(state.url)
      }
    } catch (error) {
      // The send would not put a streaming upload on HTTP/1.1 (the server offers no HTTP/2):
      // measured in Chromium 156, the preflight goes out, the request never does, same-origin too.
      if (isAlpnRefusal(error)) return failed(streamRefusalReason('http1-server'), ALPN_FAILURE_ERROR)
      const code = (error as { code?: string }).code ?? 'error'
      const origin = URL.canParse(state.url) ? new URL(state.url).origin : state.url
      return {
        ...base(),
        allowed: false,
        networkError: `${code}: ${(error as Error).message}`,
        message: `Failed to load resource: the server at ${origin} could not be reached (${code}); the script sees "TypeError: Failed to fetch".`,
        fix: `start the server at ${origin}, or check the URL.`,
      }
    }

    function allowed(
      response: BrowserAnswer,
      responseType: 'basic' | 'cors' | 'opaque' | 'opaqueredirect',
    ): BrowserCallResult {
      // An opaque redirect or response shows the script no header at all (checked in Chromium 156).
      const readableHeaders =
        responseType === 'opaqueredirect' || responseType === 'opaque'
          ? []
          : readableResponseHeaders(response.headers, { sameOrigin: responseType === 'basic', credentials })
      return {
        ...base(),
        allowed: true,
        response,
        responseType,
        readableHeaders,
        ...(authorizationViaWildcard ? { fix: AUTHORIZATION_WILDCARD_FIX } : {}),
      }
    }
  }

  return { origin: pageOrigin, fetch: fetchCall, preflightCache }
}
