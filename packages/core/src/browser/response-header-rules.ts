import { getHeader, type HeadersInput, headerEntries } from '../http/header-list.js'
import { parseHeaderListValues } from './header-list-values.js'

/**
 * CORS-safelisted response-header names (Fetch standard §2.2.2): readable by the script on any
 * CORS response without `Access-Control-Expose-Headers`.
 */
const SAFELISTED_RESPONSE_HEADERS: ReadonlySet<string> = new Set([
  'cache-control',
  'content-language',
  'content-length',
  'content-type',
  'expires',
  'last-modified',
  'pragma',
])

/**
 * Forbidden response-header names (Fetch standard §2.2.2): the browser filters them out of
 * every response a script sees, even a same-origin one, and no `Access-Control-Expose-Headers`
 * brings them back.
 */
const FORBIDDEN_RESPONSE_HEADERS: ReadonlySet<string> = new Set(['set-cookie', 'set-cookie2'])

/** Options of {@link readableResponseHeaders}. */
export interface ReadableResponseHeadersOptions {
  /**
   * The request's credentials mode: with `'include'`, `*` in `Access-Control-Expose-Headers` is
   * a header name, not a wildcard (Fetch standard §4.1 "main fetch" step 15.1.2).
   * @default 'same-origin'
   */
  readonly credentials?: RequestCredentials
  /**
   * The response is same-origin (a "basic" filtered response): every header is readable but the
   * forbidden ones.
   * @default false
   */
  readonly sameOrigin?: boolean
}

/**
 * The names in `Access-Control-Expose-Headers`, lowercased (Fetch standard §4.1 "main fetch"
 * step 15.1.1: "extract header list values"): a list with one item that is not a token (`x-a,
 * "x-b"`, `x-a x-b`, `x-a;b`) is unparsable as a whole and exposes nothing, not even its valid
 * items (measured in Chromium 156).
 */
function exposedNames(headers: HeadersInput): Set<string> {
  const items = parseHeaderListValues(getHeader(headers, 'access-control-expose-headers')) ?? []
  return new Set(items.map((item) => item.toLowerCase()))
}

/**
 * The response header names a page's script can read (`[...response.headers.keys()]`, or the
 * names in XMLHttpRequest's `getAllResponseHeaders()`), lowercase, sorted, each once: for a CORS
 * response the CORS-safelisted response-header names and those `Access-Control-Expose-Headers`
 * names (`*`: every header, unless credentials are included), never `Set-Cookie` or
 * `Set-Cookie2` (Fetch standard §2.2.6 "CORS filtered response"). Each rule was checked against
 * what Chromium 156 lists in test/browser (the exposed-headers cases), where Chromium agrees.
 *
 * @example
 * readableResponseHeaders({ 'content-type': 'text/plain', 'x-id': '1', date: 'Mon, ...' })
 * // ['content-type']
 * readableResponseHeaders({ 'x-id': '1', 'access-control-expose-headers': 'X-Id' })
 * // ['x-id']
 */
export function readableResponseHeaders(
  headers: HeadersInput,
  options: ReadableResponseHeadersOptions = {},
): string[] {
  const exposed = exposedNames(headers)
  const everything = options.sameOrigin === true || (options.credentials !== 'include' && exposed.has('*'))
  const names = new Set<string>()
  for (const [name] of headerEntries(headers)) {
    if (FORBIDDEN_RESPONSE_HEADERS.has(name)) continue
    if (everything || SAFELISTED_RESPONSE_HEADERS.has(name) || exposed.has(name)) names.add(name)
  }
  return [...names].sort()
}
