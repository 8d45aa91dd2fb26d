import type { BrowserAnswer, BrowserCallResult } from './browser-call.js'
import type { CallContext } from './call-context.js'
import { type CorsError, chromiumCorsMessage } from './chromium-messages.js'
import { AUTHORIZATION_WILDCARD_FIX, corsFix, FORBIDDEN_METHOD_FIX } from './cors-fix.js'
import { isForbiddenMethod } from './request-header-rules.js'
import { readableResponseHeaders } from './response-header-rules.js'
import { ALPN_FAILURE_ERROR, isAlpnRefusal, streamRefusalReason } from './streaming-upload.js'

/** The browser throws before sending anything: the `Request` constructor or `open()` refused the call. */
export function scriptErrorResult(method: string, scriptError: string, first: string): BrowserCallResult {
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
export function blocked(
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
export function failed(
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
export function sendFailed(ctx: CallContext, error: unknown): BrowserCallResult {
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
export function allowed(
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
