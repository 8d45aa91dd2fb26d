import { type PathRewriter, removePrefix, rewriteByFunction, rewriteByRules } from '../http/rewrite-path.js'
import { CorsDevProxyError } from './errors.js'
import { optionEntry } from './option-path.js'
import type { PathRewrite } from './option-value-types.js'

// A route's `pathRewrite`, resolved once: which rewrite it gets and its rules checked. The
// rewrite itself runs per request from http/rewrite-path.ts.

/**
 * What `createPathRewriter` needs. The shape of `pathRewrite` is validated by the caller;
 * the regular expressions are compiled (and checked) here.
 *
 * @example
 * createPathRewriter({ prefix: '/api', pathRewrite: { '^/api/v1': '/v2' }, option: "routes['/api'].pathRewrite" })
 */
export interface PathRewriterOptions {
  /** The route's normalized prefix. */
  prefix: string
  /**
   * The user's `pathRewrite`.
   * @default undefined (remove the prefix)
   */
  pathRewrite?: PathRewrite | undefined
  /**
   * Name of the option, for configuration errors.
   * @default 'pathRewrite'
   */
  option?: string
  /**
   * The route as written: a `pathRewrite` function's fourth argument, as http-proxy-middleware 4
   * passes its options.
   * @default undefined
   */
  source?: unknown
}

/**
 * Whether a `pathRewrite` map only removes the route's prefix, as the default does: the
 * `{ '^/api': '' }` that `proxy.conf.json` files and http-proxy-middleware configs carry on an
 * `/api` route. The resolver then keeps the default, whose rewrite the proxy can undo (a
 * redirect of the target comes back with the prefix); a RegExp map in general cannot be undone.
 * The prefix must read the same as a RegExp (no character RegExps treat specially but `.`,
 * which matches itself on a path that starts with the prefix).
 *
 * @example
 * removesPrefixOnly('/api', { '^/api': '' }) // true
 * removesPrefixOnly('/api', { '^/api': '/v2' }) // false
 */
export function removesPrefixOnly(prefix: string, pathRewrite: PathRewrite | undefined): boolean {
  if (typeof pathRewrite !== 'object' || prefix === '/' || !/^[\w/.~-]+$/.test(prefix)) return false
  const entries = Object.entries(pathRewrite)
  if (entries.length !== 1) return false
  const [source, replacement] = entries[0] as [string, string]
  return replacement === '' && (source === `^${prefix}` || source === `^${prefix.replaceAll('/', '\\/')}`)
}

/**
 * Compiles the rules of a `pathRewrite` object once (see `rewriteByRules`). Throws
 * `CorsDevProxyError` (INVALID_OPTION) for a rule that is not a valid RegExp, naming it.
 */
function compileRules(rules: Record<string, string>, option: string): PathRewriter {
  const compiled = Object.entries(rules).map(([source, replacement]): [RegExp, string] => {
    try {
      return [new RegExp(source), replacement]
    } catch (error) {
      throw new CorsDevProxyError(
        'INVALID_OPTION',
        optionEntry(option, source),
        `is not a valid regular expression (${(error as Error).message})`,
        "{ pathRewrite: { '^/api/v1': '/v2' } }",
      )
    }
  })
  return rewriteByRules(compiled)
}

/**
 * Builds a route's `rewritePath` once, at construction: prefix removal by default, the
 * identity for `false`, ordered RegExp rules for an object, or a user function whose failure
 * is a {@link PathRewriteFailure}.
 * Throws `CorsDevProxyError` (INVALID_OPTION) for a rule that is not a valid RegExp.
 *
 * @example
 * const rewrite = createPathRewriter({ prefix: '/api' })
 * rewrite('/api/users?x=1', req) // '/users?x=1'
 */
export function createPathRewriter(options: PathRewriterOptions): PathRewriter {
  const { prefix, pathRewrite } = options
  const option = options.option ?? 'pathRewrite'
  if (pathRewrite === undefined) return removePrefix(prefix)
  if (pathRewrite === false) return removePrefix('/')
  if (typeof pathRewrite === 'function') return rewriteByFunction(pathRewrite, option, options.source)
  return compileRules(pathRewrite, option)
}
