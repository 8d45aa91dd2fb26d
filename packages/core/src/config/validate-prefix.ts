import { CorsDevProxyError } from './errors.js'
import { quote, routeOption } from './option-path.js'

/** Path characters a browser percent-encodes (WHATWG URL "path percent-encode set"), and `\`. */
const BROWSER_ENCODED = /[\0-\x20"<>`{}\\\x7f-\uffff]/
/** `.` or `..` as a whole segment, percent-encoded forms included (WHATWG URL standard). */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i

function invalid(
  key: string,
  problem: string,
  fixedKey: string | undefined,
  target: string,
): CorsDevProxyError {
  const example = `{ ${fixedKey === undefined ? "'/api'" : quote(fixedKey)}: ${target} }`
  return new CorsDevProxyError('INVALID_PREFIX', routeOption(key), problem, example)
}

/** `api/` → `/api`, `///api` → `/api`: the key the user most likely meant. */
function withOneSlash(path: string): string {
  const trimmed = path.replace(/^\/+/, '').replace(/\/+$/, '')
  return `/${trimmed}`
}

/**
 * Validates a route key and returns the normalized prefix (no trailing `/`, except the root
 * route `/`). A prefix is compared with request paths as the browser sends them, segment by
 * segment, so anything that could never match, or could match in surprising ways, is refused
 * at start-up with INVALID_PREFIX and the corrected key:
 * - not starting with `/` (`api`, or a Vite RegExp key `^/api`);
 * - a query or fragment (`?`, `#`): prefixes match paths only;
 * - `//`, `..` or a `.` segment: request paths are normalized before matching, so these would
 *   never match (and `..` invites path-escape mistakes);
 * - wildcards (`*`): a prefix already covers everything below it;
 * - characters a browser percent-encodes (spaces, non-ASCII, `\`): write the encoded form.
 *
 * `target` is rendered into the example fix (e.g. `'http://localhost:3000'`).
 *
 * @example
 * normalizePrefix('/api/', "'http://localhost:3000'") // '/api'
 */
export function normalizePrefix(key: string, target = "'http://localhost:3000'"): string {
  if (key.startsWith('^')) {
    const fixed = withOneSlash(key.slice(1).replace(/(?:\.\*|\/\*|\$|\.\+)+$/, ''))
    throw invalid(
      key,
      'looks like a regular expression: keys are path prefixes (matching whole segments)',
      fixed,
      target,
    )
  }
  if (!key.startsWith('/')) throw invalid(key, "must start with '/'", withOneSlash(key), target)
  if (/[?#]/.test(key)) {
    const fixed = withOneSlash(key.split(/[?#]/)[0] as string)
    throw invalid(
      key,
      'must not contain a query or fragment (? or #): prefixes match paths only',
      fixed,
      target,
    )
  }
  if (key.includes('*')) {
    const fixed = withOneSlash(key.replace(/\/?\*.*$/, ''))
    throw invalid(
      key,
      'must not contain wildcards: a prefix already matches everything below it',
      fixed,
      target,
    )
  }
  if (key.includes('//')) {
    throw invalid(key, "must not contain '//'", withOneSlash(key.replace(/\/{2,}/g, '/')), target)
  }
  if (key.includes('..') || DOT_SEGMENT.test(key)) {
    throw invalid(
      key,
      "must not contain '..' or '.' segments: request paths are resolved before matching, so it would never match",
      undefined,
      target,
    )
  }
  if (BROWSER_ENCODED.test(key)) {
    const fixed = new URL(key, 'http://localhost').pathname
    throw invalid(
      key,
      'contains characters a browser percent-encodes: write the key as the browser sends it',
      fixed,
      target,
    )
  }
  return key.length > 1 && key.endsWith('/') ? key.slice(0, -1) : key
}
