import { didYouMean } from './did-you-mean.js'
import { CorsDevProxyError } from './errors.js'
import { renderValue } from './option-path.js'

/** Keys a route object accepts (`RouteOptions`). */
export const ROUTE_OPTION_NAMES: readonly string[] = Object.freeze([
  'target',
  'changeOrigin',
  'pathRewrite',
  'headers',
  'xfwd',
  'ws',
  'secure',
  'timeout',
  'cookieDomainRewrite',
  'cookiePathRewrite',
  'cors',
  'mock',
  'jsonp',
  'rewriteLocation',
  'rewriteOrigin',
  'rewriteWsOrigin',
  'on',
  'configure',
  'bypass',
  'router',
  'pathFilter',
  'transformResponse',
])

/** Keys a CORS policy accepts (`CorsOptions`, the `cors` package's option names). */
export const CORS_OPTION_NAMES: readonly string[] = Object.freeze([
  'origin',
  'methods',
  'allowedHeaders',
  'exposedHeaders',
  'credentials',
  'maxAge',
  'preflightContinue',
  'optionsSuccessStatus',
])

/** Keys the mock backend accepts (`MockBackendOptions`). */
export const MOCK_OPTION_NAMES: readonly string[] = Object.freeze([
  'cors',
  'jsonpParam',
  'bodyLimit',
  'logLimit',
])

/** Keys `jsonp` accepts as an object. */
export const JSONP_OPTION_NAMES: readonly string[] = Object.freeze(['param'])

/** Keys the shared options (second argument) accept (`CorsDevProxyOptions`). */
export const GLOBAL_OPTION_NAMES: readonly string[] = Object.freeze([
  'changeOrigin',
  'xfwd',
  'secure',
  'timeout',
  'headers',
  'cors',
  'jsonp',
  'rewriteLocation',
  'rewriteOrigin',
  'on',
  'log',
  'logger',
])

/** The hooks `on` accepts (http-proxy-middleware's names). */
export const HOOK_NAMES: readonly string[] = Object.freeze(['proxyReq', 'proxyRes', 'error', 'proxyReqWs'])

/** Which object a key was found in: the advice and the example fix depend on it. */
export type OptionLevel = 'route' | 'global' | 'cors' | 'mock' | 'jsonp' | 'hooks'

/** A correct example per level, for a key with neither advice nor a close match. */
const LEVEL_EXAMPLES: Readonly<Record<OptionLevel, string>> = {
  route: "{ target: 'http://localhost:3000', changeOrigin: true }",
  global: "{ log: 'info', timeout: 30000 }",
  cors: "{ cors: { origin: 'http://localhost:5173', credentials: true } }",
  mock: "{ mock: { cors: 'reflect' } }",
  jsonp: "{ jsonp: { param: 'callback' } }",
  hooks: "{ on: { proxyReq: (proxyReq) => proxyReq.setHeader('x-token', 'dev') } }",
}

/** What a key is called in messages at each level. */
const LEVEL_NOUNS: Readonly<Record<OptionLevel, string>> = {
  route: 'an option',
  global: 'an option',
  cors: 'a CORS option',
  mock: 'a mock backend option',
  jsonp: 'a jsonp option',
  hooks: 'a hook cors-dev-proxy runs',
}

/** Wraps the example of a nested option in its parent key, so the fix can be pasted as it is. */
function nestedExample(level: OptionLevel, example: string): string {
  if (level === 'hooks') return `{ on: ${example} }`
  return level === 'cors' || level === 'mock' || level === 'jsonp' ? `{ ${level}: ${example} }` : example
}

/** Advice for a key that exists in another tool (or elsewhere in ours), with a correct example. */
interface Advice {
  problem: string
  example: string
}

/** http-proxy-middleware 2's hook options, and what they are called in `on`. */
const LEGACY_HOOKS: Readonly<Record<string, string>> = {
  onProxyReq: 'proxyReq',
  onProxyRes: 'proxyRes',
  onProxyReqWs: 'proxyReqWs',
  onError: 'error',
}
/** A valid function for each hook, with http-proxy-middleware's parameter names, for examples. */
const HOOK_SIGNATURES: Readonly<Record<string, string>> = {
  proxyReq: '(proxyReq, req, res) => {}',
  proxyRes: '(proxyRes, req, res) => {}',
  proxyReqWs: '(proxyReq, req, socket, head) => {}',
  error: '(err, req, res) => {}',
}
const PER_ROUTE = [
  'target',
  'pathRewrite',
  'ws',
  'mock',
  'cookieDomainRewrite',
  'cookiePathRewrite',
  'rewrite',
  'rewriteWsOrigin',
  'configure',
  'bypass',
  'router',
  'pathFilter',
  'transformResponse',
]

/**
 * Names users bring from Vite's `server.proxy`, http-proxy(-middleware) or the `cors` package,
 * or put at the wrong level. `secure`, `changeOrigin`, `headers`, `xfwd`, `ws`, `timeout` and
 * the cookie rewrites have the same name and meaning here, so they need no advice.
 */
function foreignAdvice(key: string, value: unknown, level: OptionLevel): Advice | undefined {
  if (level === 'cors') {
    return key === 'headers'
      ? {
          problem: 'is not a CORS option; did you mean `allowedHeaders`?',
          example: "{ cors: { allowedHeaders: ['content-type'] } }",
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
  if (level === 'mock' || level === 'jsonp') return undefined
  if (CORS_OPTION_NAMES.includes(key)) {
    return {
      problem: `is a CORS option: put it inside \`cors\``,
      example: `{ cors: { ${key}: ${renderValue(value)} } }`,
    }
  }
  const hook = LEGACY_HOOKS[key]
  if (hook !== undefined) {
    return {
      problem: `is http-proxy-middleware 2's name: the hook goes in \`on\`, as \`on.${hook}\``,
      example: `{ on: { ${hook}: ${HOOK_SIGNATURES[hook]} } }`,
    }
  }
  if (level === 'global' && PER_ROUTE.includes(key)) {
    return {
      problem: `is set per route, not in the shared options`,
      example:
        key === 'target'
          ? "{ '/api': { target: 'http://localhost:3000' } }"
          : `{ '/api': { target: 'http://localhost:3000', ${key === 'rewrite' ? 'pathRewrite' : key}: ... } }`,
    }
  }
  if (level === 'route' && ['log', 'logger', 'logLevel', 'logProvider'].includes(key)) {
    return {
      problem: `is shared by all routes: pass it in the second argument`,
      example: `({ '/api': 'http://localhost:3000' }, { log: 'debug' })`,
    }
  }
  switch (key) {
    case 'rewrite':
      return {
        problem:
          'is the name Vite uses: here it is `pathRewrite` (a function, or an object of RegExp → replacement)',
        example: `{ '/api': { target: 'http://localhost:3000', pathRewrite: (path) => path.replace(/^\\/api/, '') } }`,
      }
    case 'logLevel':
      return { problem: 'is called `log` here', example: "{ log: 'debug' }" }
    case 'logProvider':
      return { problem: 'is called `logger` here', example: '{ logger: { info, warn, error } }' }
    case 'context':
    case 'filter':
      return {
        problem:
          'is `pathFilter` here; the route key is already the path prefix (it matches the prefix and everything below it)',
        example: "{ pathFilter: (path, req) => req.method === 'GET' }",
      }
    case 'onOpen':
    case 'onClose':
      return {
        problem:
          'is not supported: WebSocket sockets are joined end to end; use `on.proxyReqWs` to act on the handshake',
        example: "{ on: { proxyReqWs: (proxyReq) => proxyReq.setHeader('x-token', 'dev') } }",
      }
    case 'plugins':
    case 'ejectPlugins':
      return {
        problem: 'is not supported (http-proxy-middleware plugins): use the `on` hooks',
        example: "{ on: { proxyReq: (proxyReq) => proxyReq.setHeader('x-token', 'dev') } }",
      }
    case 'selfHandleResponse':
    case 'responseInterceptor':
      return {
        problem:
          'is not needed: `transformResponse` gets the whole answer, decompressed, and returns the new body',
        example: '{ transformResponse: (body) => body }',
      }
    case 'autoRewrite':
    case 'hostRewrite':
    case 'protocolRewrite':
      return {
        problem:
          'is not needed: `rewriteLocation` (on by default) points redirects from the target back at the dev server, with the route prefix',
        example: "{ '/api': { target: 'http://localhost:3000', rewriteLocation: true } }",
      }
    case 'proxyTimeout':
      return { problem: 'is called `timeout` here (milliseconds)', example: '{ timeout: 30000 }' }
    case 'followRedirects':
      return {
        problem:
          'is not supported: redirects are passed to the browser, which follows them itself; remove it',
        example: "{ '/api': 'http://localhost:3000' }",
      }
    case 'agent':
      return {
        problem: 'is not supported: upstream connections are pooled with keep-alive already; remove it',
        example: "{ '/api': 'http://localhost:3000' }",
      }
    case 'websocket':
    case 'websockets':
      return {
        problem: 'is called `ws` here',
        example: "{ '/socket': { target: 'http://localhost:3000', ws: true } }",
      }
    case 'callback':
    case 'callbackName':
    case 'jsonpCallback':
      return { problem: 'is set with `jsonp: { param }`', example: "{ jsonp: { param: 'callback' } }" }
    case 'ignorePath':
    case 'prependPath':
      return { problem: 'is not supported: use `pathRewrite`', example: '{ pathRewrite: false }' }
    default:
      return undefined
  }
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
): void {
  for (const key of Object.keys(object)) {
    if (known.includes(key)) continue
    const value = object[key]
    const advice = foreignAdvice(key, value, level)
    if (advice) throw new CorsDevProxyError('UNKNOWN_OPTION', optionPath(key), advice.problem, advice.example)
    const suggestion = didYouMean(key, known)
    if (suggestion) {
      throw new CorsDevProxyError(
        'UNKNOWN_OPTION',
        optionPath(key),
        `is not ${LEVEL_NOUNS[level]}; did you mean \`${suggestion}\`?`,
        nestedExample(level, `{ ${suggestion}: ${renderValue(value)} }`),
      )
    }
    throw new CorsDevProxyError(
      'UNKNOWN_OPTION',
      optionPath(key),
      `is not ${LEVEL_NOUNS[level]}. Known options: ${known.join(', ')}`,
      LEVEL_EXAMPLES[level],
    )
  }
}
