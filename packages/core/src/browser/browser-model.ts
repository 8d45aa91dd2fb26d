/*
 * browser/: the Fetch standard's and Chromium's rules, as the browser applies them to a
 * cross-origin call, with no policy of ours: `classifyRequest` (simple or preflighted),
 * `evaluateCors` and Chromium's own messages, Local Network Access (address spaces). Here, the
 * stateful model: `createBrowserModel` runs a call (fetch-call.ts) with a preflight cache,
 * redirect steps, bodies and URL credentials on a `send` function it is given; `checkCors`
 * (check-cors.ts) puts it on the network (`createNetworkSend`, a streaming upload only over
 * HTTP/2: http2-only-connector.ts). The inspector's `explain` and the CLI's `check` run it; it
 * imports only http/.
 */
import { originOf, serializeOrigin } from '../http/parse-origin.js'
import type { BrowserCall, BrowserCallResult, BrowserSend } from './browser-call.js'
import type { BrowserPage } from './call-context.js'
import { runFetchCall } from './fetch-call.js'
import { createPreflightCache, type PreflightCache } from './preflight-cache.js'

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
  const page: BrowserPage = {
    send: options.send,
    now,
    pageOrigin,
    preflightCache: options.preflightCache ?? createPreflightCache(now),
    topLevelSite: schemefulSite(options.topLevelOrigin ?? pageOrigin),
    pageUrl: options.pageUrl ?? `${pageOrigin}/`,
    // An opaque page origin (a sandboxed document, `Origin: null`) never finds its preflights again:
    // measured in Chromium 156, every call from a sandboxed page is preflighted, Max-Age or not.
    opaquePage: pageOrigin === 'null',
  }

  // A named function, so a stack trace through a page's call shows `fetchCall`.
  function fetchCall(call: BrowserCall): Promise<BrowserCallResult> {
    return runFetchCall(page, call)
  }

  return { origin: pageOrigin, fetch: fetchCall, preflightCache: page.preflightCache }
}
