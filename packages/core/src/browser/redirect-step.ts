import { isSameOrigin } from '../http/parse-origin.js'
import type { CorsError, CorsInitiator } from './chromium-messages.js'
import type { RequestBodyInput } from './request-body.js'

/** Redirect statuses (Fetch standard §2.2.6); a 3xx without `Location` is an ordinary response. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308])

/** Redirects a fetch follows before failing (Fetch standard §4.4 "HTTP-redirect fetch" step 7; Chromium's `ERR_TOO_MANY_REDIRECTS`). */
export const MAX_REDIRECTS = 20

/** The request as it stands before a hop: what the next hop inherits. */
export interface RequestState {
  /** The current URL, serialized. */
  readonly url: string
  /** The method as the browser sends it. */
  readonly method: string
  /** The request's headers as the browser holds them (lowercase names, one combined value per name). */
  readonly headers: readonly (readonly [string, string])[]
  readonly body: RequestBodyInput | null | undefined
  /**
   * The Fetch standard's tainted-origin flag: a redirect led from a cross-origin URL to yet
   * another origin, so the request's `Origin` is `null` from then on.
   */
  readonly tainted: boolean
}

/** Where a redirect leads: the next request, a CORS failure, or a network error. */
export type RedirectStep =
  | { readonly kind: 'follow'; readonly next: RequestState }
  | {
      readonly kind: 'cors-error'
      readonly error: CorsError
      /** The URL Chromium names in its message, when it is the redirect's target rather than the current URL. */
      readonly at?: string
    }
  | {
      readonly kind: 'network-error'
      readonly reason: string
      readonly chromiumError: string
      /** Chromium prints no console line at all for it (the script only sees its TypeError). */
      readonly silent?: true
    }

/**
 * What Chromium 156 does with a Location carrying `user:password@` (or a user alone), measured with
 * fetch and XMLHttpRequest, every credentials mode, and fetch's three modes: in CORS mode, when the
 * hop or the target is of another origin than the page, the CORS error the standard's steps 9-10
 * describe (quoting an empty location); a same-origin mode request to another origin is refused by
 * the next hop's own check ("Unsafe attempt to load URL"); anything else fails a fetch without a
 * console line (beyond the standard, which would follow a same-origin one), while XMLHttpRequest
 * follows a same-origin one and reads the answer (`undefined` here).
 */
function userinfoRefusal(
  target: URL,
  context: {
    readonly pageOrigin: string
    readonly corsMode: boolean
    readonly mode?: RequestMode
    readonly initiator: CorsInitiator
  },
): RedirectStep | undefined {
  if (target.username === '' && target.password === '') return undefined
  const mode = context.mode ?? 'cors'
  const crossOriginTarget = !isSameOrigin(target.href, context.pageOrigin)
  if (mode === 'cors' && (context.corsMode || crossOriginTarget)) {
    return {
      kind: 'cors-error',
      error: { kind: 'redirect-contains-credentials', preflight: false, hint: '' },
    }
  }
  if (mode === 'same-origin' && crossOriginTarget) return undefined
  if (context.initiator !== 'fetch') return undefined
  return {
    kind: 'network-error',
    reason: 'the redirect leads to a URL with user:password, which fetch never follows',
    chromiumError: 'net::ERR_FAILED',
    silent: true,
  }
}

/** Schemes a redirect may never lead to: Chromium fails these with `net::ERR_UNSAFE_REDIRECT`. */
const UNSAFE_REDIRECT_SCHEMES = new Set(['data:', 'about:', 'blob:', 'file:', 'javascript:', 'filesystem:'])

/** Headers describing the body, dropped when a redirect turns the request into a GET (Fetch standard "request-body-header name"). */
const BODY_HEADERS = new Set(['content-encoding', 'content-language', 'content-location', 'content-type'])

const UTF8 = new TextDecoder('utf-8', { fatal: true })

/**
 * The redirect's target, Fetch §2.2.6 "location URL" (steps 3-5): the `Location` value parsed
 * against the current URL (relative paths, `?q`, `//host`, `\\` read as `/`, tabs and newlines
 * dropped, leading and trailing spaces trimmed), and, when it has no fragment, the current
 * URL's fragment carried over (step 5; Chromium's `RedirectInfo::ComputeRedirectInfo` copies
 * the ref too, measured in Chromium 156: it names that URL in its message). The value arrives
 * as bytes (the HTTP client decodes them as Latin-1): UTF-8 bytes are read as UTF-8, as GURL
 * does (`/é` sent as UTF-8 goes to `/%C3%A9`, measured); other bytes are percent-encoded as they are.
 *
 * @example
 * locationUrl('/next', 'http://api.test/a#top').href // 'http://api.test/next#top'
 */
export function locationUrl(location: string, current: string): URL {
  const bytes = Uint8Array.from(location, (char) => char.charCodeAt(0) & 0xff)
  let text: string
  try {
    text = /[\u0080-\u00ff]/.test(location) ? UTF8.decode(bytes) : location
  } catch {
    text = location.replace(/[\u0080-\u00ff]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
  }
  const target = new URL(text, current)
  const fragment = new URL(current).hash
  // "Location URL" step 5: an empty fragment (`/t#`) is a fragment; only a missing one inherits.
  if (target.hash === '' && !text.includes('#') && fragment !== '') target.hash = fragment
  return target
}

/**
 * One redirect of the actual request, by the Fetch standard's "HTTP-redirect fetch" (§4.4; the
 * step numbers in the comments are those of the standard's 2025 text, where step 1 names the
 * request) as
 * Chromium applies it: the Location is resolved against the current URL; a non-HTTP(S) target,
 * the 21st redirect or an unparsable Location is a network error; a cross-origin request may
 * not be sent to a URL with `user:password@` (`userinfoRefusal`: what Chromium adds); 303 (and
 * 301/302 for POST) turn the request into a body-less GET; leaving an origin drops `Authorization`; and going from a cross-origin URL to
 * yet another origin taints the request's origin (it is sent as `Origin: null` from then on).
 *
 * @example
 * redirectStep(state, { status: 302, location: '/next' }, { pageOrigin: 'http://localhost:5173', corsMode: true, redirectsSoFar: 0, initiator: 'fetch' })
 */
export function redirectStep(
  state: RequestState,
  answer: { readonly status: number; readonly location: string },
  context: {
    readonly pageOrigin: string
    /** The CORS protocol applies to this hop (mode `cors` and a URL of another origin, or a tainted origin). */
    readonly corsMode: boolean
    /** The request's mode. @default 'cors' */
    readonly mode?: RequestMode
    readonly redirectsSoFar: number
    readonly initiator: CorsInitiator
  },
): RedirectStep {
  // Step 7: "If request's redirect count is 20, then return a network error."
  if (context.redirectsSoFar >= MAX_REDIRECTS) {
    return {
      kind: 'network-error',
      reason: 'more than 20 redirects',
      chromiumError: 'net::ERR_TOO_MANY_REDIRECTS',
    }
  }
  // Steps 3-5: the location URL (with the current URL's fragment); failure is a network error.
  let target: URL
  try {
    target = locationUrl(answer.location, state.url)
  } catch {
    return {
      kind: 'network-error',
      reason: `the Location '${answer.location}' is not a URL`,
      chromiumError: 'net::ERR_INVALID_REDIRECT',
    }
  }
  // Step 6: "If locationURL's scheme is not an HTTP(S) scheme, then return a network error."
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    // Checked in Chromium 156: `data:` and `about:` fail as unsafe redirects (no CORS text);
    // any other scheme (`ftp:`) is refused by CORS, naming the target.
    if (UNSAFE_REDIRECT_SCHEMES.has(target.protocol)) {
      return {
        kind: 'network-error',
        reason: `the redirect leads to a ${target.protocol} URL, which fetch never follows`,
        chromiumError: 'net::ERR_UNSAFE_REDIRECT',
      }
    }
    return { kind: 'cors-error', error: { kind: 'cors-disabled-scheme', preflight: false }, at: target.href }
  }
  // Steps 9-10: "If request's mode is "cors", locationURL includes credentials, and request's origin
  // is not same origin with locationURL's origin" / "If request's response tainting is "cors" and
  // locationURL includes credentials", a network error (Chromium words it as a CORS error).
  const refusal = userinfoRefusal(target, context)
  if (refusal !== undefined) return refusal
  let method = state.method
  let headers = state.headers
  let body = state.body
  // Step 12: 301/302 with POST, or 303 with anything but GET or HEAD, become a GET without body
  // or request-body-header names.
  if (
    (answer.status === 303 && method !== 'HEAD') ||
    ((answer.status === 301 || answer.status === 302) && method === 'POST')
  ) {
    method = 'GET'
    body = null
    headers = headers.filter(([name]) => !BODY_HEADERS.has(name))
  }
  const leavesOrigin = !isSameOrigin(target.href, state.url)
  // Step 13: leaving the current URL's origin removes `Authorization` (a CORS non-wildcard request-header name).
  if (leavesOrigin) headers = headers.filter(([name]) => name !== 'authorization')
  // Step 14: to another origin from a URL not of the request's origin sets the tainted-origin flag.
  const tainted = state.tainted || (leavesOrigin && !isSameOrigin(state.url, context.pageOrigin))
  return { kind: 'follow', next: { url: target.href, method, headers, body, tainted } }
}
