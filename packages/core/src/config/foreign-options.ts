/**
 * Names users bring from Vite's `server.proxy` and http-proxy(-middleware) that mean something
 * else here, or nothing, and what to write instead: a table the unknown-key check reads
 * (`unknown-options.ts`), one entry per name.
 */

/** Advice for a key that exists in another tool (or elsewhere in ours), with a correct example. */
export interface Advice {
  readonly problem: string
  readonly example: string
}

/**
 * The advice for one name: the same wherever it was written, or a function of whether it was
 * written in the shared options (then the example shows it inside a route).
 */
export type ForeignAdvice = Advice | ((shared: boolean) => Advice)

/** Vite's `rewrite`, as our `pathRewrite`. */
export const REWRITE_EXAMPLE = "(path) => path.replace(/^\\/api/, '')"

/** An option that only a route takes, as an example: inside a route when written in the shared options. */
function routeFragment(shared: boolean, entry: string): string {
  // An entry that names its own target replaces the example's (a key twice would be a mistake).
  const target = entry.startsWith('target:') ? '' : "target: 'http://localhost:3000', "
  return shared ? `{ '/api': { ${target}${entry} } }` : `{ ${entry} }`
}

const PATH_FILTER: ForeignAdvice = (shared) => ({
  problem:
    'is `pathFilter` here; the route key is already the path prefix (it matches the prefix and everything below it)',
  example: routeFragment(shared, "pathFilter: (path, req) => req.method === 'GET'"),
})
const WEBSOCKET_EVENT: Advice = {
  problem:
    'is not supported: WebSocket sockets are joined end to end; use `on.proxyReqWs` to act on the handshake',
  example: "{ on: { proxyReqWs: (proxyReq) => proxyReq.setHeader('x-token', 'dev') } }",
}
const TRANSFORM: ForeignAdvice = (shared) => ({
  problem: 'is not needed: `transformResponse` gets the whole answer, decompressed, and returns the new body',
  example: routeFragment(shared, 'transformResponse: (body) => body'),
})
const TWO_ROUTES_EXAMPLE = "{ '/a': 'http://localhost:3001', '/b': 'http://localhost:3002' }"
const ONE_ROUTE_EXAMPLE = "{ '/api': 'http://localhost:3000' }"
const UNDICI_CHOOSES: Advice = {
  problem: `is not supported: requests go upstream through undici's pool, which chooses the interface and sends header names lowercased (as HTTP/2 requires); remove it`,
  example: ONE_ROUTE_EXAMPLE,
}
const LOCATION: Advice = {
  problem:
    'is not needed: `rewriteLocation` (on by default) points redirects from the target back at the dev server, with the route prefix',
  example: "{ '/api': { target: 'http://localhost:3000', rewriteLocation: true } }",
}
const WS: Advice = {
  problem: 'is called `ws` here',
  example: "{ '/socket': { target: 'http://localhost:3000', ws: true } }",
}
const JSONP_PARAM: Advice = {
  problem: 'is set with `jsonp: { param }`',
  example: "{ jsonp: { param: 'callback' } }",
}
const PATH_REWRITE: ForeignAdvice = (shared) => ({
  problem: 'is not supported: use `pathRewrite`',
  example: shared
    ? "{ '/api': { target: 'http://localhost:3000', pathRewrite: false } }"
    : '{ pathRewrite: false }',
})

/**
 * The advice per name, at the route and shared levels. `secure`, `changeOrigin`, `headers`,
 * `xfwd`, `ws`, `timeout` and the cookie rewrites have the same name and meaning here, so they
 * are not in it. Read it with {@link foreignOption}: a plain lookup would find `constructor`.
 */
export const FOREIGN_OPTIONS: Readonly<Record<string, ForeignAdvice>> = Object.freeze({
  rewrite: {
    problem:
      'is the name Vite uses: here it is `pathRewrite` (a function, or an object of RegExp → replacement)',
    example: `{ '/api': { target: 'http://localhost:3000', pathRewrite: ${REWRITE_EXAMPLE} } }`,
  },
  logLevel: { problem: 'is called `log` here', example: "{ log: 'debug' }" },
  logProvider: {
    problem: 'is called `logger` here (an object with info, warn and error)',
    example: '{ logger: console }',
  },
  context: PATH_FILTER,
  filter: PATH_FILTER,
  onOpen: WEBSOCKET_EVENT,
  onClose: WEBSOCKET_EVENT,
  selfHandleResponse: TRANSFORM,
  responseInterceptor: TRANSFORM,
  forward: {
    problem:
      'is not supported: a copy of each request to a second server is not made; give the second server a route of its own',
    example: TWO_ROUTES_EXAMPLE,
  },
  toProxy: {
    problem: 'is not supported: a route forwards to its one `target`, never through another proxy',
    example: TWO_ROUTES_EXAMPLE,
  },
  ssl: (shared) => ({
    problem:
      'is not supported: the dev server terminates TLS; for a self-signed https target, set `secure: false`',
    example: routeFragment(shared, "target: 'https://localhost:3443', secure: false"),
  }),
  localAddress: UNDICI_CHOOSES,
  preserveHeaderKeyCase: UNDICI_CHOOSES,
  buffer: {
    problem: 'is not needed: a body a parser already read is sent again from `req.body`; remove it',
    example: ONE_ROUTE_EXAMPLE,
  },
  autoRewrite: LOCATION,
  hostRewrite: LOCATION,
  protocolRewrite: LOCATION,
  proxyTimeout: { problem: 'is called `timeout` here (milliseconds)', example: '{ timeout: 30000 }' },
  websocket: WS,
  websockets: WS,
  callback: JSONP_PARAM,
  callbackName: JSONP_PARAM,
  jsonpCallback: JSONP_PARAM,
  ignorePath: PATH_REWRITE,
  prependPath: PATH_REWRITE,
} satisfies Record<string, ForeignAdvice>)

/**
 * The advice for a name from another tool, written in a route or (`shared`) in the shared options;
 * `undefined` for a name the table does not have.
 *
 * @example
 * foreignOption('proxyTimeout', false)?.problem // 'is called `timeout` here (milliseconds)'
 */
export function foreignOption(key: string, shared: boolean): Advice | undefined {
  if (!Object.hasOwn(FOREIGN_OPTIONS, key)) return undefined
  const advice = FOREIGN_OPTIONS[key]
  return typeof advice === 'function' ? advice(shared) : advice
}
