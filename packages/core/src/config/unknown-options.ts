import { openApiForeignAdvice } from '../contract/options/openapi-foreign-names.js'
import { parseOrigin } from '../http/parse-origin.js'
import { didYouMean } from './did-you-mean.js'
import { CorsDevProxyError } from './errors.js'
import { type Advice, foreignOption, REWRITE_EXAMPLE } from './foreign-options.js'
import { CORS_OPTION_NAMES, NESTED_FIX_VALUES } from './nested-option-names.js'
import { nestedExample, quote } from './option-path.js'
import { validateTarget } from './validate-target.js'

/** Which object a key was found in: the advice and the example fix depend on it. */
export type OptionLevel =
  | 'route'
  | 'global'
  | 'cors'
  | 'mock'
  | 'jsonp'
  | 'hooks'
  | 'inspector'
  | 'recordings'
  | 'openapi'

/**
 * A correct example per level, for a key with neither advice nor a close match (wrapped in
 * its parent key, or its factory's call, for the nested levels).
 */
const LEVEL_EXAMPLES: Readonly<Record<OptionLevel, string>> = {
  route: "{ target: 'http://localhost:3000', changeOrigin: true }",
  global: "{ log: 'info', timeout: 30000 }",
  cors: "{ origin: 'http://localhost:5173', credentials: true }",
  mock: "{ cors: 'reflect' }",
  jsonp: "{ param: 'callback' }",
  hooks: "{ proxyReq: (proxyReq) => proxyReq.setHeader('x-token', 'dev') }",
  inspector: '{ inspector: { exchanges: 500, bodyLimit: 65536 } }',
  recordings: "{ recordings: { dir: 'cors-dev-proxy/recordings', maxFiles: 1000 } }",
  openapi: "{ openapi: { document: './openapi.yaml', enforce: 'request' } }",
}

/**
 * What the option table says of the names at the top level (a route's or the shared options'),
 * for the unknown-key check: derived from the table by option-derivations.ts (`optionVocabulary`)
 * and passed in, so this file, which the validators import, does not import the table.
 */
export interface TopLevelVocabulary {
  /** A valid example value per name, for a fix that names it (`'true'` when absent). */
  readonly fixValues: Readonly<Record<string, string>>
  /** The names only a route takes: in the shared options, the advice says where they go. */
  readonly routeOnly: readonly string[]
}

const NO_VOCABULARY: TopLevelVocabulary = Object.freeze({ fixValues: {}, routeOnly: [] })

/**
 * The value to show for `key` at `level` in an example: the user's own value when it is valid
 * there (a boolean for an option that takes either, a valid target or origin string), else the
 * option's example value (`pathRewrite: true` is not valid, so `pathRewrite` shows `false`).
 */
function exampleValue(
  level: OptionLevel,
  key: string,
  value: unknown,
  vocabulary: TopLevelVocabulary = NO_VOCABULARY,
): string {
  const example =
    (level === 'route' || level === 'global'
      ? Object.hasOwn(vocabulary.fixValues, key)
        ? vocabulary.fixValues[key]
        : undefined
      : NESTED_FIX_VALUES[level][key]) ?? 'true'
  if (typeof value === 'boolean') return example === 'true' ? String(value) : example
  if (typeof value !== 'string') return example
  if (key === 'origin' && parseOrigin(value) !== null) return quote(value)
  if (key === 'target' && isValidTarget(value)) return quote(value)
  return example
}

function isValidTarget(value: string): boolean {
  try {
    validateTarget(value, 'target')
    return true
  } catch {
    return false
  }
}

/** What a key is called in messages at each level. */
const LEVEL_NOUNS: Readonly<Record<OptionLevel, string>> = {
  route: 'an option',
  global: 'an option',
  cors: 'a CORS option',
  mock: 'a mock backend option',
  jsonp: 'a jsonp option',
  hooks: 'a hook cors-dev-proxy runs',
  inspector: 'an inspector option',
  recordings: 'a recordings option',
  openapi: 'an openapi option',
}

/**
 * Wraps the example of a nested option in its parent key (or its standalone factory's call),
 * so the fix can be pasted as it is where `option` points.
 */
function wrapForLevel(level: OptionLevel, option: string, example: string): string {
  if (level === 'hooks') return `{ on: ${example} }`
  if (level === 'inspector') return example.startsWith('{ inspector') ? example : `{ inspector: ${example} }`
  if (level === 'recordings')
    return example.startsWith('{ recordings') ? example : `{ recordings: ${example} }`
  if (level === 'openapi') return openApiExample(example)
  return level === 'cors' || level === 'mock' || level === 'jsonp'
    ? nestedExample(option, level, example)
    : example
}

/**
 * An `openapi` field inside a whole `openapi` object: `document` is required, so it is added in
 * front unless the field is `document` itself.
 */
function openApiExample(example: string): string {
  if (example.startsWith('{ openapi')) return example
  if (example.startsWith('{ document')) return `{ openapi: ${example} }`
  return `{ openapi: { document: './openapi.yaml', ${example.slice(2)} }`
}

/** http-proxy-middleware 2's hook options, and what they are called in `on`. */
const LEGACY_HOOKS: Readonly<Record<string, string>> = {
  onProxyReq: 'proxyReq',
  onProxyRes: 'proxyRes',
  onProxyReqWs: 'proxyReqWs',
  onError: 'error',
}
/** A Vite name that is a route's option here under another name. */
const VITE_PER_ROUTE = ['rewrite']

/**
 * Names users bring from Vite's `server.proxy`, http-proxy(-middleware) or the `cors` package,
 * or put at the wrong level. `secure`, `changeOrigin`, `headers`, `xfwd`, `ws`, `timeout` and
 * the cookie rewrites have the same name and meaning here, so they need no advice.
 */
function foreignAdvice(
  key: string,
  value: unknown,
  level: OptionLevel,
  option: string,
  vocabulary: TopLevelVocabulary,
): Advice | undefined {
  if (level === 'cors') {
    return key === 'headers'
      ? {
          problem: 'is not a CORS option; did you mean `allowedHeaders`?',
          example: nestedExample(option, 'cors', "{ allowedHeaders: ['content-type'] }"),
        }
      : undefined
  }
  if (level === 'hooks') {
    return ['open', 'close', 'start', 'end', 'econnreset'].includes(key)
      ? {
          problem:
            'is an http-proxy-middleware event cors-dev-proxy does not emit: use `proxyReq`, `proxyRes`, `error` or `proxyReqWs`',
          example: '{ on: { proxyRes: (proxyRes, req) => console.log(req.url, proxyRes.statusCode) } }',
        }
      : undefined
  }
  if (level === 'openapi') return openApiForeignAdvice(key)
  if (level === 'mock' || level === 'jsonp' || level === 'inspector' || level === 'recordings')
    return undefined
  if (CORS_OPTION_NAMES.includes(key)) {
    return {
      problem: `is a CORS option: put it inside \`cors\``,
      example: `{ cors: { ${key}: ${exampleValue('cors', key, value)} } }`,
    }
  }
  const hook = LEGACY_HOOKS[key]
  if (hook !== undefined) {
    return {
      problem: `is http-proxy-middleware 2's name: the hook goes in \`on\`, as \`on.${hook}\``,
      example: `{ on: { ${hook}: ${NESTED_FIX_VALUES.hooks[hook]} } }`,
    }
  }
  if (level === 'global' && (vocabulary.routeOnly.includes(key) || VITE_PER_ROUTE.includes(key))) {
    return {
      problem: `is set per route, not in the shared options`,
      example:
        key === 'target'
          ? "{ '/api': { target: 'http://localhost:3000' } }"
          : key === 'mock'
            ? "{ '/api': { mock: true } }"
            : key === 'targets'
              ? `{ '/api': { targets: ${exampleValue('route', key, value, vocabulary)} } }`
              : key === 'rewrite'
                ? `{ '/api': { target: 'http://localhost:3000', pathRewrite: ${REWRITE_EXAMPLE} } }`
                : `{ '/api': { target: 'http://localhost:3000', ${key}: ${exampleValue('route', key, value, vocabulary)} } }`,
    }
  }
  if (level === 'route' && ['log', 'logLevel'].includes(key)) {
    return {
      problem: `is shared by all routes: pass it in the second argument`,
      example: `({ '/api': 'http://localhost:3000' }, { log: 'debug' })`,
    }
  }
  return foreignOption(key, level === 'global')
}

/**
 * Throws `CorsDevProxyError` (UNKNOWN_OPTION) for the first key of `object` that is not in
 * `known`, with advice for names from other tools, else a "did you mean" suggestion, else the
 * list of accepted names. A typo silently ignored is a day lost, so unknown keys always fail.
 *
 * @example
 * assertKnownKeys({ chageOrigin: false }, ROUTE_OPTION_NAMES, 'route', (key) => `routes['/api'].${key}`)
 * // throws: routes['/api'].chageOrigin is not an option; did you mean `changeOrigin`?
 */
export function assertKnownKeys(
  object: Record<string, unknown>,
  known: readonly string[],
  level: OptionLevel,
  optionPath: (key: string) => string,
  vocabulary: TopLevelVocabulary = NO_VOCABULARY,
): void {
  for (const key of Object.keys(object)) {
    if (known.includes(key)) continue
    const value = object[key]
    const option = optionPath(key)
    const advice = foreignAdvice(key, value, level, option, vocabulary)
    if (advice) throw new CorsDevProxyError('UNKNOWN_OPTION', option, advice.problem, advice.example)
    const suggestion = didYouMean(key, known)
    if (suggestion) {
      throw new CorsDevProxyError(
        'UNKNOWN_OPTION',
        option,
        `is not ${LEVEL_NOUNS[level]}; did you mean \`${suggestion}\`?`,
        wrapForLevel(
          level,
          option,
          `{ ${suggestion}: ${exampleValue(level, suggestion, value, vocabulary)} }`,
        ),
      )
    }
    throw new CorsDevProxyError(
      'UNKNOWN_OPTION',
      option,
      `is not ${LEVEL_NOUNS[level]}. Known options: ${known.join(', ')}`,
      wrapForLevel(level, option, LEVEL_EXAMPLES[level]),
    )
  }
}
