import { headerEntries, trimHttpWhitespace } from '../http/header-list.js'
import type { BrowserAnswer, BrowserCallResult } from './browser-call.js'
import type { CallContext, Hop } from './call-context.js'
import { allowed, blocked, failed } from './call-results.js'
import { checkAccess } from './evaluate-cors.js'
import { REDIRECT_STATUSES, redirectStep } from './redirect-step.js'

/** The answer judged: refused, blocked, allowed, or a redirect to follow (`undefined`, the state moved on). */
export function judgeAnswer(
  ctx: CallContext,
  hop: Hop,
  response: BrowserAnswer,
): BrowserCallResult | undefined {
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
