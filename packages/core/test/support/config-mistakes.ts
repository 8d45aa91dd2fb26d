import { Agent as HttpAgent } from 'node:http'
import {
  CORS_OPTION_NAMES,
  HOOK_NAMES,
  INSPECTOR_OPTION_NAMES,
  JSONP_OPTION_NAMES,
  MOCK_OPTION_NAMES,
  OPENAPI_OPTION_NAMES,
  RECORDINGS_OPTION_NAMES,
} from '../../src/config/nested-option-names.js'
import { GLOBAL_OPTION_NAMES, ROUTE_OPTION_NAMES } from '../../src/config/option-lists.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { createCorsMiddleware } from '../../src/cors/cors-middleware.js'
import { createJsonpMiddleware } from '../../src/jsonp/jsonp-middleware.js'
import { createFetchHandler } from '../../src/proxy/create-fetch-handler.js'
import { createMockBackend } from '../../src/stand-ins/mock-backend/mock-backend.js'
import { startMockBackend } from '../../src/stand-ins/mock-backend/start-mock-backend.js'

/**
 * A broad corpus of wrong configurations, to make every configuration error print its example
 * fix: targeted cases for each throw site of the validators, and generated ones (every option at
 * every level with wrong values, every name another tool uses, typos of every known name).
 */
export interface ConfigMistake {
  readonly title: string
  /** Builds the configuration: throws (or rejects) with a `CorsDevProxyError` when it is wrong. */
  readonly run: () => unknown
  /** Targeted cases must throw; generated ones may happen to be valid. */
  readonly mustThrow: boolean
}

const TARGET = 'http://localhost:3000'

type Build = (value: unknown) => () => unknown

const routes: Build = (value) => () => resolveOptions(value as never)
const route: Build = (config) => routes({ '/api': config })
const routeWith = (options: Record<string, unknown>) => route({ target: TARGET, ...options })
const shared: Build = (options) => () => resolveOptions({ '/api': TARGET }, options as never)
const standaloneCors: Build = (options) => () => createCorsMiddleware(options as never, { warn: () => {} })
const standaloneMock: Build = (options) => () => createMockBackend(options as never).close()
const standaloneJsonp: Build = (options) => () => createJsonpMiddleware(options as never)
const started: Build = (options) => async () => (await startMockBackend(options as never)).close()

/** A title's rendering of any value (`String` throws for symbols in templates and for null-prototype objects). */
function label(value: unknown): string {
  try {
    return typeof value === 'function' || typeof value === 'symbol'
      ? String(value)
      : (JSON.stringify(value) ?? String(value))
  } catch {
    return Object.prototype.toString.call(value)
  }
}

/** Values of every kind, most of them wrong for most options. */
const WRONG_VALUES: readonly unknown[] = [
  'yes',
  '',
  'not a url',
  'http://localhost:5173/',
  'a\nb',
  0,
  -1,
  1.5,
  3000,
  70_000,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  1n,
  true,
  false,
  null,
  {},
  { x: 1 },
  { x: 'a\nb' },
  Object.create(null),
  [],
  ['x'],
  [42],
  () => 'x',
  /x/,
  new Date(0),
  Symbol('x'),
]

/** An object written as `{ … }` (or with no prototype), not an array, a date or a pattern. */
function isObjectLiteral(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/** Where each level of options is written, as builders of a configuration around one object of that level. */
const LEVEL_CONTEXTS: Readonly<Record<string, readonly Build[]>> = {
  route: [(options) => routeWith(options as Record<string, unknown>)],
  global: [shared],
  cors: [(cors) => routeWith({ cors }), (cors) => shared({ cors }), standaloneCors],
  mock: [(mock) => route({ mock }), standaloneMock],
  jsonp: [(jsonp) => routeWith({ jsonp }), (jsonp) => shared({ jsonp }), standaloneJsonp],
  hooks: [(on) => routeWith({ on }), (on) => shared({ on })],
  inspector: [(inspector) => shared({ inspector })],
  recordings: [(recordings) => shared({ recordings })],
  // The object form needs its document: the corpus's objects are given one, its other values go as they are.
  openapi: [
    (openapi) =>
      routeWith({
        openapi: isObjectLiteral(openapi) ? { document: './openapi.yaml', ...openapi } : openapi,
      }),
  ],
}

const KNOWN_NAMES: Readonly<Record<string, readonly string[]>> = {
  route: ROUTE_OPTION_NAMES,
  global: GLOBAL_OPTION_NAMES,
  cors: CORS_OPTION_NAMES,
  mock: MOCK_OPTION_NAMES,
  jsonp: JSONP_OPTION_NAMES,
  hooks: HOOK_NAMES,
  inspector: INSPECTOR_OPTION_NAMES,
  recordings: RECORDINGS_OPTION_NAMES,
  openapi: OPENAPI_OPTION_NAMES,
}

/**
 * Names from Vite's `server.proxy`, http-proxy, http-proxy-middleware and the `cors` package,
 * names of other levels, and a name nothing resembles: each gets advice, a suggestion, or the
 * list of known names, at every level.
 */
const FOREIGN_NAMES: readonly string[] = [
  ...new Set([
    ...ROUTE_OPTION_NAMES,
    ...GLOBAL_OPTION_NAMES,
    ...CORS_OPTION_NAMES,
    ...MOCK_OPTION_NAMES,
    ...JSONP_OPTION_NAMES,
    'configure',
    'on',
    'onProxyReq',
    'onProxyRes',
    'onProxyReqWs',
    'onError',
    'onOpen',
    'onClose',
    'plugins',
    'bypass',
    'rewrite',
    'logLevel',
    'logProvider',
    'pathFilter',
    'context',
    'filter',
    'router',
    'proxyTimeout',
    'followRedirects',
    'agent',
    'websocket',
    'websockets',
    'callback',
    'callbackName',
    'jsonpCallback',
    'ignorePath',
    'prependPath',
    'autoRewrite',
    'hostRewrite',
    'protocolRewrite',
    'selfHandleResponse',
    'responseInterceptor',
    'ejectPlugins',
    'open',
    'close',
    'start',
    'end',
    'econnreset',
    'forward',
    'toProxy',
    'ssl',
    'auth',
    'localAddress',
    'preserveHeaderKeyCase',
    'buffer',
    'rewriteWsOrigin',
    'selfHandleResponse',
    'preserveHeaderKeyCase',
    'ssl',
    'auth',
    'toProxy',
    'forward',
    'localAddress',
    'buffer',
    'param',
    'zzzzzz',
  ]),
]

/** A few typos of a name: a letter dropped, two letters swapped, the case lost, a letter added. */
function typos(name: string): string[] {
  const swapped = name.length > 2 ? `${name[1]}${name[0]}${name.slice(2)}` : `${name}x`
  return [...new Set([name.slice(0, -1), swapped, name.toLowerCase(), `${name}s`])]
}

const KEY_VALUES: readonly unknown[] = [
  true,
  false,
  'x',
  'http://localhost:5173',
  'http://localhost:5173/',
  'null',
  42,
  {},
  ['GET'],
  () => '/',
]

function unknownKeys(): ConfigMistake[] {
  const mistakes: ConfigMistake[] = []
  for (const [level, contexts] of Object.entries(LEVEL_CONTEXTS)) {
    const known = KNOWN_NAMES[level] as readonly string[]
    const keys = new Set([...FOREIGN_NAMES, ...known.flatMap(typos)])
    for (const key of keys) {
      if (known.includes(key)) continue
      for (const value of KEY_VALUES) {
        contexts.forEach((context, index) => {
          mistakes.push({
            title: `${level} (context ${index}) key ${key}: ${label(value)}`,
            run: context({ [key]: value }),
            mustThrow: true,
          })
        })
      }
    }
  }
  return mistakes
}

function wrongValues(): ConfigMistake[] {
  const mistakes: ConfigMistake[] = []
  const add = (title: string, run: () => unknown): void => {
    mistakes.push({ title, run, mustThrow: false })
  }
  WRONG_VALUES.forEach((value) => {
    const shown = label(value)
    for (const name of ROUTE_OPTION_NAMES) add(`route ${name} ${shown}`, routeWith({ [name]: value }))
    add(`route target ${shown}`, route({ target: value }))
    add(`route mock ${shown}`, route({ mock: value }))
    add(`route value ${shown}`, route(value))
    add(`routes ${shown}`, routes(value))
    add(`options ${shown}`, () => resolveOptions({ '/api': TARGET }, value as never))
    for (const name of GLOBAL_OPTION_NAMES) add(`shared ${name} ${shown}`, shared({ [name]: value }))
    for (const [level, contexts] of Object.entries(LEVEL_CONTEXTS)) {
      if (level === 'route' || level === 'global') continue
      for (const name of KNOWN_NAMES[level] as readonly string[]) {
        contexts.forEach((context, at) => {
          add(`${level} (context ${at}) ${name} ${shown}`, context({ [name]: value }))
          if (level === 'cors') {
            add(
              `${level} (context ${at}) ${name} with credentials ${shown}`,
              context({ credentials: true, [name]: value }),
            )
          }
        })
      }
      contexts.forEach((context, at) => {
        add(`${level} (context ${at}) as a value ${shown}`, context(value))
      })
    }
    add(`cors.origin list entry ${shown}`, routeWith({ cors: { origin: ['http://localhost:5173', value] } }))
    add(`headers value ${shown}`, routeWith({ headers: { 'x-key': value } }))
    add(`headers value (shared) ${shown}`, shared({ headers: { 'x-key': value } }))
    add(`pathRewrite rule ${shown}`, routeWith({ pathRewrite: { '^/api': value } }))
    add(
      `cookieDomainRewrite entry ${shown}`,
      routeWith({ cookieDomainRewrite: { 'api.example.com': value } }),
    )
    add(`cookiePathRewrite entry ${shown}`, routeWith({ cookiePathRewrite: { '/api': value } }))
  })
  return mistakes
}

const PREFIXES = [
  'api',
  'api/',
  '^/api',
  '^/api/.*',
  '^/api$',
  '^api',
  '^',
  '/api?x=1',
  '/api#top',
  '?x',
  '/api/*',
  '/*',
  '*',
  '/api/**/x',
  '//api',
  '/api//v1',
  '/a/../b',
  '/a/./b',
  '/..',
  '/a/%2e%2e/b',
  '/a/%2E/b',
  '/api v1',
  '/ä',
  '/a\\b',
  '/a"b',
  'a\nb',
  '^/a\nb',
  '/a\nb',
  '/a\u2028b',
  'api\u2028',
  "/it's",
  "it's",
]

const TARGETS: readonly unknown[] = [
  42,
  '',
  '   ',
  'localhost:3000',
  'localhost',
  '127.0.0.1:3000/v1',
  '[::1]:3000',
  'http//localhost:3000',
  'https//localhost:3000',
  'http:/localhost:3000',
  'http:localhost:3000',
  'ws//localhost:3000',
  'ftp://localhost',
  'file:///etc/passwd',
  'mailto:me@example.com',
  'unix:/tmp/socket',
  'not a url',
  'http://',
  'http://[bad',
  'http://user:pass@localhost:3000/v1',
  'http://user@localhost:3000',
  'http://localhost:3000/?q=1',
  'http://localhost:3000/v1#top',
  'localhost:3000/a\nb',
  "localhost:3000/it's",
  `http://localhost:3000/${'x'.repeat(80)}?q`,
]

function targeted(): ConfigMistake[] {
  const cases: ConfigMistake[] = []
  const add = (title: string, run: () => unknown, mustThrow = true): void => {
    cases.push({ title, run, mustThrow })
  }
  for (const value of [null, 'x', [], 42, new Map(), () => ({})]) add(`routes ${label(value)}`, routes(value))
  add('routes empty', routes({}))
  // A route's `match` and `record: 'missing'` (P23).
  add('match.ignoreQuery not a list', routeWith({ match: { ignoreQuery: '_t' } }))
  add('match.matchHeaders with a space', routeWith({ match: { matchHeaders: ['x tenant'] } }))
  add('match.body unknown', routeWith({ match: { body: 'partial' } }))
  add('match unknown rule', routeWith({ match: { ignoreHeaders: ['x'] } }))
  add("record: 'missing' with replay: 'only'", routeWith({ record: 'missing', replay: 'only' }))
  // A route's `openapi` (P24).
  const openapi = (value: unknown) => routeWith({ openapi: value })
  const withDocument = (fields: Record<string, unknown>) => openapi({ document: './openapi.yaml', ...fields })
  add('openapi not a document', openapi(42))
  add('openapi without document', openapi({ enforce: 'request' }))
  add('openapi URL that does not parse', openapi('http://['))
  add('openapi ftp: URL', openapi(new URL('ftp://example.test/openapi.yaml')))
  add('openapi Swagger 2.0 object', openapi({ document: { swagger: '2.0', paths: {} } }))
  add('openapi object without version', openapi({ document: { paths: {} } }))
  add('openapi object with a function', openapi({ document: { openapi: '3.1.0', x: () => 1 } }))
  add('openapi.document a number', withDocument({ document: 42 }))
  add('openapi.enforce true', withDocument({ enforce: true }))
  add("openapi.mock 'always'", withDocument({ mock: 'always' }))
  add('openapi.maxBodyBytes -1', withDocument({ maxBodyBytes: -1 }))
  for (const name of ['errors', 'validateRequests', 'validateResponses', 'apiSpec', 'dynamic', 'enfore'])
    add(`openapi.${name}`, withDocument({ [name]: true }))
  add('openapi on a mock route', route({ mock: true, openapi: './openapi.yaml' }))
  for (const value of ['debug', [], null, 42])
    add(`options ${label(value)}`, () => resolveOptions({ '/api': TARGET }, value as never))
  for (const prefix of PREFIXES) {
    // Each key is wrong but one, which checks the quoting of the keys in the target's errors.
    const wrong = prefix !== "/it's"
    add(`prefix ${prefix}`, routes({ [prefix]: TARGET }), wrong)
    for (const target of TARGETS) {
      add(`prefix ${prefix} → ${label(target)}`, routes({ [prefix]: target }))
      add(`prefix ${prefix} → { target: ${label(target)} }`, routes({ [prefix]: { target } }))
    }
    add(`prefix ${prefix} → mock`, routes({ [prefix]: { mock: true } }), wrong)
    add(`prefix ${prefix} → 3000`, routes({ [prefix]: 3000 }))
  }
  add('same prefix twice', routes({ '/api': TARGET, '/api/': TARGET }))
  add('same root twice', routes({ '/': TARGET, '//': TARGET }))
  for (const value of [3000, -1, 0, 1.5, 70_000, Number.NaN, null, true, [], () => '/', new Date(0)]) {
    add(`route ${label(value)}`, route(value))
    add(`route ${label(value)} under /`, routes({ '/': value }))
  }
  add('target and mock', routeWith({ mock: true }))
  add('target and mock options', routeWith({ mock: { cors: 'reflect' } }))
  for (const config of [{}, { changeOrigin: true }, { mock: false }, { target: undefined }]) {
    add(`no target ${label(config)}`, route(config))
  }
  for (const target of TARGETS) add(`target ${label(target)}`, route({ target }))
  for (const name of ['bad name', 'x:y', '', 'é', 'a\nb'])
    add(`header name ${name}`, routeWith({ headers: { [name]: 'x' } }))
  for (const name of [
    'Connection',
    'keep-alive',
    'Proxy-Connection',
    'transfer-encoding',
    'upgrade',
    'TE',
    'trailer',
    'content-length',
    'expect',
  ]) {
    add(`header ${name}`, routeWith({ headers: { [name]: 'x' } }))
    add(`shared header ${name}`, shared({ headers: { [name]: 'x' } }))
  }
  for (const value of [42, true, null, {}, Object.create(null), ['a\nb'], 'a\r\nb', 'a\0b', 'é\u0001']) {
    add(`header value ${label(value)}`, routeWith({ headers: { "x-it's": value } }))
  }
  for (const value of [
    true,
    'x',
    42,
    [],
    new Map(),
    { '^/api': 42 },
    { '(': '' },
    { '[': 'x' },
    { '^/api': null },
  ]) {
    add(`pathRewrite ${label(value)}`, routeWith({ pathRewrite: value }))
  }
  for (const kind of ['cookieDomainRewrite', 'cookiePathRewrite']) {
    for (const value of [true, 42, [], { x: 42 }, 'a;b', 'a\nb', { x: 'a\nb' }, { '*': 'x;y' }]) {
      add(`${kind} ${label(value)}`, routeWith({ [kind]: value }))
    }
    // Valid domains, but not paths.
    for (const value of ['api', { '/a': 'b' }]) {
      add(`${kind} ${label(value)}`, routeWith({ [kind]: value }), kind === 'cookiePathRewrite')
    }
  }
  for (const context of LEVEL_CONTEXTS.cors as Build[]) {
    for (const cors of [
      { origin: '*', credentials: true },
      { origin: 'not-an-origin' },
      { origin: 'http://localhost:5173/' },
      { origin: 'http://localhost:5173/app' },
      { origin: ['*'] },
      { origin: ['http://a.test', '*'] },
      { origin: [42] },
      { origin: [null] },
      { origin: ['http://x/'] },
      { origin: 42 },
      { origin: {} },
      { origin: null },
      { methods: 42 },
      { methods: [42] },
      { methods: ['GE T'] },
      { methods: 'GET, P(UT' },
      { allowedHeaders: 'a b' },
      { allowedHeaders: {} },
      { exposedHeaders: ['x y'] },
      { maxAge: -1 },
      { maxAge: 1.5 },
      { maxAge: '600' },
      { optionsSuccessStatus: 301 },
      { optionsSuccessStatus: 199 },
      { optionsSuccessStatus: '204' },
      { credentials: 'yes' },
      { preflightContinue: 1 },
      { headers: ['x-token'] },
      { credential: true },
    ]) {
      add(`cors ${label(cors)}`, context(cors))
    }
    for (const value of ['yes', 42, [], null]) add(`cors ${label(value)}`, context(value))
  }
  for (const context of LEVEL_CONTEXTS.mock as Build[]) {
    for (const mock of [
      { cors: 'sometimes' },
      { cors: 42 },
      { jsonpParam: 'call back' },
      { jsonpParam: '' },
      { jsonpParam: 42 },
      { jsonpParam: 'x'.repeat(65) },
      { bodyLimit: -1 },
      { bodyLimit: 1.5 },
      { bodyLimit: '1' },
      { logLimit: -1 },
      { logLimit: Number.POSITIVE_INFINITY },
      { crs: 'reflect' },
      { zzzzzz: 1 },
    ]) {
      add(`mock ${label(mock)}`, context(mock))
    }
    for (const value of ['yes', 42, [], null]) add(`mock ${label(value)}`, context(value))
  }
  for (const context of LEVEL_CONTEXTS.jsonp as Build[]) {
    for (const jsonp of [
      { param: 'call back' },
      { param: '' },
      { param: 42 },
      { parm: 'cb' },
      { zzzzzz: 1 },
    ]) {
      add(`jsonp ${label(jsonp)}`, context(jsonp))
    }
  }
  for (const value of ['yes', 42, [], null]) {
    add(`jsonp ${label(value)}`, routeWith({ jsonp: value }))
    add(`shared jsonp ${label(value)}`, shared({ jsonp: value }))
  }
  for (const value of ['verbose', 42, true, null]) add(`log ${label(value)}`, shared({ log: value }))
  for (const value of [{}, { info() {} }, 42, null, 'console'])
    add(`logger ${label(value)}`, shared({ logger: value }))
  for (const value of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '1000']) {
    add(`timeout ${label(value)}`, routeWith({ timeout: value }))
    add(`shared timeout ${label(value)}`, shared({ timeout: value }))
  }
  for (const name of ['changeOrigin', 'xfwd', 'ws', 'secure']) {
    for (const value of ['yes', 0, 1, null]) add(`${name} ${label(value)}`, routeWith({ [name]: value }))
  }
  for (const value of [-1, 65_536, 1.5, '4000'])
    add(`startMockBackend port ${label(value)}`, started({ port: value }))
  add('startMockBackend http2 without https', started({ http2: true }))
  // The per-request options: hooks, configure, router, pathFilter, bypass, transformResponse.
  for (const on of [
    'yes',
    42,
    [],
    null,
    { proxyReq: 'x' },
    { proxyReq: 42 },
    { open: () => {} },
    { proxyreq: () => {} },
  ]) {
    add(`on ${label(on)}`, routeWith({ on }))
    add(`shared on ${label(on)}`, shared({ on }))
  }
  for (const configure of ['yes', 42, {}]) add(`configure ${label(configure)}`, routeWith({ configure }))
  add(
    'configure with an event cors-dev-proxy does not emit',
    routeWith({
      configure: (proxy: { on(event: string, fn: () => void): void }) => proxy.on('open', () => {}),
    }),
  )
  add(
    'configure with a listener that is not a function',
    routeWith({ configure: (proxy: { on(event: string, fn: unknown): void }) => proxy.on('proxyReq', 'x') }),
  )
  add(
    'configure that throws',
    routeWith({
      configure: () => {
        throw new Error('boom')
      },
    }),
  )
  for (const router of ['yes', 42, [], { '': TARGET }, { '/v2': 'localhost:3002' }, { 'a.localhost': 42 }]) {
    add(`router ${label(router)}`, routeWith({ router }))
  }
  for (const target of [
    { protocol: 'http:' },
    { host: 'localhost', cert: 'x' },
    { socketPath: 42 },
    { host: 42 },
  ]) {
    add(`target object ${label(target)}`, route({ target }))
  }
  add('router table with a Unix socket', routeWith({ router: { '/v2': { socketPath: '/tmp/x.sock' } } }))
  for (const auth of [42, 'user', '']) add(`auth ${label(auth)}`, routeWith({ auth }))
  class TunnelAgent extends HttpAgent {}
  for (const agent of [{}, true, new TunnelAgent(), new HttpAgent({ lookup: () => {} } as never)]) {
    add(`agent ${label(agent)}`, routeWith({ agent }))
  }
  for (const pathFilter of [42, {}, 'api', '/api/**', ['/api', '*.json'], [42]]) {
    add(`pathFilter ${label(pathFilter)}`, routeWith({ pathFilter }))
  }
  for (const name of ['bypass', 'transformResponse']) {
    for (const value of ['yes', 42, {}]) add(`${name} ${label(value)}`, routeWith({ [name]: value }))
  }
  for (const name of ['on', 'configure', 'router', 'transformResponse']) {
    add(`mock route with ${name}`, route({ mock: true, [name]: name === 'on' ? {} : () => undefined }))
  }
  for (const name of ['rewriteLocation', 'rewriteOrigin', 'rewriteWsOrigin']) {
    for (const value of ['yes', 0, null]) add(`${name} ${label(value)}`, routeWith({ [name]: value }))
  }
  add('startMockBackend with a wrong mock option', started({ cors: 'sometimes' }))
  // What only a Node server can honour, refused by the Fetch front end.
  const fetchHandler = (config: unknown) => () =>
    createFetchHandler(config as never, { log: 'silent' }).close()
  add('createFetchHandler with configure', fetchHandler({ '/api': { target: TARGET, configure: () => {} } }))
  add(
    'createFetchHandler with on.proxyReq',
    fetchHandler({ '/api': { target: TARGET, on: { proxyReq: () => {} } } }),
  )
  add(
    'createFetchHandler with an agent',
    fetchHandler({ '/api': { target: TARGET, agent: new HttpAgent() } }),
  )
  // Latency, faults and named targets (stand-ins/control/options/resolve-control.ts).
  add('faults entry not an object', routeWith({ faults: { 'GET /users': 3 } }))
  add('faults entry with a typo', routeWith({ faults: { 'GET /users': { failrate: 1 } } }))
  add('faults entry not a pattern', routeWith({ faults: { users: { failRate: 1 } } }))
  add('faults not an object', routeWith({ faults: 'GET /users' }))
  add('targets empty', route({ targets: {} }))
  add('targets a string', route({ targets: TARGET }))
  add('targets name with a space', route({ targets: { 'my target': TARGET } }))
  add('targets entry not a URL', route({ targets: { local: 'localhost:3000' } }))
  add('targets beside target', routeWith({ targets: { local: TARGET } }))
  add('targets beside router', route({ targets: { local: TARGET }, router: () => TARGET }))
  add('targets beside mock', route({ targets: { local: TARGET }, mock: true }))
  for (const value of [-1, 'yes', [400, 100], [1, 2, 3]])
    add(`latency ${label(value)}`, routeWith({ latency: value }))
  for (const value of [-0.1, 2, '0.5']) add(`failRate ${label(value)}`, routeWith({ failRate: value }))
  for (const value of [200, 'drop', 503.5]) add(`failWith ${label(value)}`, routeWith({ failWith: value }))
  for (const value of [0, 1.5, '16k']) add(`throttle ${label(value)}`, routeWith({ throttle: value }))
  // Mocks beside the target (stand-ins/route-mocks/options/: resolve-route-mocks.ts, route-mock-answer.ts).
  add('mocks a number', routeWith({ mocks: 3 }))
  add('mocks an empty folder', routeWith({ mocks: ' ' }))
  add('mocks key not a pattern', routeWith({ mocks: { users: { json: [] } } }))
  add('mocks answer a string', routeWith({ mocks: { 'GET /users': 'hello' } }))
  add('mocks answer with a typo', routeWith({ mocks: { 'GET /users': { jsno: [] } } }))
  add('mocks status out of range', routeWith({ mocks: { 'GET /users': { status: 99 } } }))
  add('mocks json beside body', routeWith({ mocks: { 'GET /users': { json: [], body: 'x' } } }))
  add('mocks framing header', routeWith({ mocks: { 'GET /users': { headers: { 'content-length': '1' } } } }))
  add('mocks on a mock route', route({ mock: true, mocks: true }))
  return cases
}

/** The whole corpus. */
export function configMistakes(): ConfigMistake[] {
  return [...targeted(), ...unknownKeys(), ...wrongValues()]
}
