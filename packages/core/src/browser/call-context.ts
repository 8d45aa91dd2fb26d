import type {
  BrowserAnswer,
  BrowserCall,
  BrowserExchange,
  BrowserRequest,
  BrowserSend,
} from './browser-call.js'
import type { PreflightReason } from './classify-request.js'
import type { PreflightCache } from './preflight-cache.js'
import type { RequestState } from './redirect-step.js'

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
 * sent so far, and the request as the current hop sends it. The steps (fetch-call.ts,
 * preflight-step.ts, answer-step.ts) read and update it in place, one call at a time, so they
 * stay module-level functions rather than closures.
 */
export interface CallContext {
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
export interface Hop {
  readonly redirects: number
  readonly corsMode: boolean
  readonly noCors: boolean
  readonly requestOrigin: string
  readonly include: boolean
}

/** Sends one request and keeps it, without its body, in the call's exchanges. */
export async function exchange(ctx: CallContext, request: BrowserRequest): Promise<BrowserAnswer> {
  const response = await ctx.page.send(request)
  const { body: _body, ...sent } = request
  ctx.exchanges.push({ ...sent, response })
  return response
}
