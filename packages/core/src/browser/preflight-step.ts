import type { BrowserCallResult } from './browser-call.js'
import { type CallContext, exchange, type Hop } from './call-context.js'
import { blocked } from './call-results.js'
import { classifyRequest } from './classify-request.js'
import { checkPreflight } from './evaluate-cors.js'
import { preflightCacheEntry } from './preflight-cache.js'

/**
 * fetch `cache` modes that make Chromium send the preflight even when a cached one covers the
 * call: the load flags `RetrieveCacheFlags` keeps in services/network/cors/preflight_controller.cc
 * (VALIDATE_CACHE for no-cache, BYPASS_CACHE for reload and no-store). The Fetch standard's
 * "HTTP fetch" step 4.1 consults the CORS-preflight cache whatever the cache mode; measured in
 * Chromium 156 (`force-cache` uses the entry).
 */
const PREFLIGHT_CACHE_BYPASS: ReadonlySet<RequestCache> = new Set(['no-store', 'reload', 'no-cache'])

/** The preflight a cross-origin call needs, from the cache or sent; a result when its answer blocks the call. */
export async function preflightIfNeeded(ctx: CallContext, hop: Hop): Promise<BrowserCallResult | undefined> {
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
