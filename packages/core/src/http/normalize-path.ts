/**
 * Path normalization applied before a request is matched against the route prefixes.
 *
 * Only what can change which route (or which part of a target) a request reaches is
 * normalized: dot-segments (RFC 3986 section 5.2.4) and backslashes. Everything else,
 * percent-encoded slashes (`%2f`) included, is data and is forwarded untouched.
 */

/** Any character that may need work: `.`, `\` or a `%2e`/`%2E` that might form a dot-segment. */
const NEEDS_NORMALIZATION = /[.\\]|%2e/i

/**
 * The segment without its path parameters (`..;jsessionid=x` → `..`). Tomcat, Jetty and
 * Spring drop what follows `;` before resolving dot-segments, so `/api/..;/admin` is `/admin`
 * to them: the proxy resolves it the same way, or the request would climb out of the
 * target's base path on such a backend while matching a route here. Browsers never send one.
 */
function withoutParameters(segment: string): string {
  const semicolon = segment.indexOf(';')
  return semicolon === -1 ? segment : segment.slice(0, semicolon)
}

/**
 * WHATWG URL standard, "single-dot URL path segment": `.` or an ASCII case-insensitive `%2e`.
 * The percent-encoded forms count because browsers and many servers decode them before
 * resolving, so `/api/%2e%2e/admin` must be treated as `/admin`.
 */
function isSingleDotSegment(segment: string): boolean {
  const bare = withoutParameters(segment)
  return bare === '.' || (bare.length === 3 && bare.toLowerCase() === '%2e')
}

/** WHATWG URL standard, "double-dot URL path segment": `..`, `.%2e`, `%2e.` or `%2e%2e`, case-insensitive. */
function isDoubleDotSegment(segment: string): boolean {
  const bare = withoutParameters(segment)
  if (bare === '..') return true
  if (bare.length !== 4 && bare.length !== 6) return false
  const lower = bare.toLowerCase()
  return lower === '.%2e' || lower === '%2e.' || lower === '%2e%2e'
}

/**
 * Normalizes the path part (no query) of an origin-form request target:
 *
 * - Backslashes become slashes. Browsers never send one (the WHATWG URL parser treats `\` as
 *   `/` in http(s) URLs), but curl and scripts can, and some servers (IIS, some frameworks)
 *   treat it as a separator. Resolving it here as a browser would means `/api\..\admin` is
 *   `/admin` for us *and* for the upstream, so it can neither escape its prefix nor reach a
 *   path we did not match. `%5c` stays data, like `%2f`.
 * - Dot-segments are removed per RFC 3986 section 5.2.4 (`remove_dot_segments`), recognising
 *   the percent-encoded forms as the WHATWG URL standard does, and the forms with path
 *   parameters (`..;x`) as Java servers do. `..` never climbs above `/`.
 *   A trailing `.` or `..` leaves a trailing slash (`/a/b/..` → `/a/`), as the RFC specifies.
 * - Empty segments (`//`) are kept: they are data to the RFC.
 *
 * Pure and cheap: a path without `.`, `\` or `%2e` is returned as is.
 *
 * @example
 * normalizePath('/api/%2e%2e/admin') // '/admin'
 * normalizePath('/api\\users')        // '/api/users'
 */
export function normalizePath(path: string): string {
  if (!NEEDS_NORMALIZATION.test(path)) return path
  const segments = (path.includes('\\') ? path.replaceAll('\\', '/') : path).split('/')
  const output: string[] = []
  // segments[0] is the empty string before the leading '/'.
  for (let index = 1; index < segments.length; index++) {
    const segment = segments[index] as string
    const last = index === segments.length - 1
    if (isSingleDotSegment(segment)) {
      if (last) output.push('')
    } else if (isDoubleDotSegment(segment)) {
      output.pop()
      if (last) output.push('')
    } else {
      output.push(segment)
    }
  }
  return `/${output.join('/')}`
}

/**
 * Splits an origin-form request target into its path and its query (with the `?`, verbatim;
 * `''` when there is none).
 *
 * @example
 * splitPathAndQuery('/api/users?x=1') // ['/api/users', '?x=1']
 */
export function splitPathAndQuery(rawUrl: string): [path: string, query: string] {
  const queryStart = rawUrl.indexOf('?')
  return queryStart === -1 ? [rawUrl, ''] : [rawUrl.slice(0, queryStart), rawUrl.slice(queryStart)]
}

/**
 * Whether `prefix` covers `path` on segment boundaries: `/api` covers `/api`, `/api/` and
 * `/api/x`, never `/api2`. The root prefix `/` covers everything. Case-sensitive, as paths are
 * (RFC 3986 section 6.2.2.1). Allocation-free, since it runs for every request.
 */
export function prefixMatches(prefix: string, path: string): boolean {
  if (prefix === '/') return true
  if (!path.startsWith(prefix)) return false
  return path.length === prefix.length || path.charCodeAt(prefix.length) === 0x2f
}
