import { CorsDevProxyError } from './errors.js'
import { quote, routeOption } from './option-path.js'

/** Path characters a browser percent-encodes (WHATWG URL "path percent-encode set"), and `\`. */
const BROWSER_ENCODED = /[\0-\x20"<>`{}\\\x7f-\uffff]/
/** `.` or `..` as a whole segment, percent-encoded forms included (WHATWG URL standard). */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i

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
  const found = firstProblem(key)
  if (found !== undefined) {
    const example = `{ ${quote(repair(found.fixed))}: ${target} }`
    throw new CorsDevProxyError('INVALID_PREFIX', routeOption(key), found.problem, example)
  }
  return key.length > 1 && key.endsWith('/') ? key.slice(0, -1) : key
}

/** What is wrong with a key, and the key the user most likely meant (`undefined`: no guess). */
interface PrefixProblem {
  problem: string
  fixed: string | undefined
}

/**
 * Applies the fixes one after the other, since a key can have several problems (`^api*`), so
 * the example's key is itself valid; `/api` when there is no guess.
 */
function repair(fixed: string | undefined): string {
  for (let step = 0; fixed !== undefined && step < 8; step++) {
    const next = firstProblem(fixed)
    if (next === undefined) return fixed
    fixed = next.fixed
  }
  return '/api'
}

function firstProblem(key: string): PrefixProblem | undefined {
  if (key.startsWith('^')) {
    return {
      problem: 'looks like a regular expression: keys are path prefixes (matching whole segments)',
      fixed: withOneSlash(key.slice(1).replace(/(?:\.\*|\/\*|\$|\.\+)+$/, '')),
    }
  }
  if (!key.startsWith('/')) return { problem: "must start with '/'", fixed: withOneSlash(key) }
  if (/[?#]/.test(key)) {
    return {
      problem: 'must not contain a query or fragment (? or #): prefixes match paths only',
      fixed: withOneSlash(key.split(/[?#]/)[0] as string),
    }
  }
  if (key.includes('*')) {
    return {
      problem: 'must not contain wildcards: a prefix already matches everything below it',
      fixed: withOneSlash(key.replace(/\/?\*.*$/, '')),
    }
  }
  if (key.includes('//')) {
    return { problem: "must not contain '//'", fixed: withOneSlash(key.replace(/\/{2,}/g, '/')) }
  }
  if (key.includes('..') || DOT_SEGMENT.test(key)) {
    return {
      problem:
        "must not contain '..' or '.' segments: request paths are resolved before matching, so it would never match",
      fixed: undefined,
    }
  }
  if (BROWSER_ENCODED.test(key)) {
    return {
      problem: 'contains characters a browser percent-encodes: write the key as the browser sends it',
      fixed: new URL(key, 'http://localhost').pathname,
    }
  }
  return undefined
}
