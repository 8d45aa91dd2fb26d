// Starts one contender in its own process: `node contender.mjs <name> <upstream-url>`, prints
// `READY <base-url>` and serves until SIGTERM. One process each, so no contender shares an event
// loop with the load generator, the upstream or another contender. Every proxy maps `/api` to the
// upstream and `/ws` to its WebSocket echo, prefix removed, with the settings a user would write.
// `cors-dev-proxy serve` and nginx are not here: they are programs of their own (contenders.mjs).
import { readFileSync, realpathSync } from 'node:fs'
import http from 'node:http'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createDispatchProxy, createRequestProxy } from './minimal-proxies.mjs'

const [name, upstream] = process.argv.slice(2)
const fixtures = fileURLToPath(new URL('fixtures/', import.meta.url))
const core = '../packages/core/dist/index.js'

/** The 204 our `cors: true` route sends for the benchmark's preflight, written by a bare server. */
const preflightHeaders = {
  'access-control-allow-origin': 'http://localhost:5173',
  'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
  'access-control-allow-headers': 'content-type,x-requested-with',
  vary: 'Origin, Access-Control-Request-Headers',
  'content-length': '0',
}

/** Vite's key and certificate for `server.https`, written by the driver (run.mjs). */
function tls() {
  const dir = process.env.BENCH_TLS_DIR
  if (!dir) throw new Error('BENCH_TLS_DIR is not set: the https contenders are started by run.mjs')
  return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }
}

/** Our routes: a plain forwarding route, and the WebSocket echo behind `ws: true`. */
const ourRoutes = (api = upstream) => ({ '/api': api, '/socket': { target: upstream, ws: true } })

/** A real Vite 8 dev server on 127.0.0.1, port 0, with HMR as users have it. */
async function viteServer({ plugins = [], proxy, https = false }) {
  const { createServer } = await import('vite8')
  const server = await createServer({
    configFile: false,
    logLevel: 'silent',
    root: fixtures,
    plugins,
    optimizeDeps: { noDiscovery: true, include: [] },
    server: { host: '127.0.0.1', port: 0, proxy, ...(https ? { https: tls() } : {}) },
  })
  await server.listen()
  return `${https ? 'https' : 'http'}://127.0.0.1:${server.httpServer.address().port}`
}

/** A real webpack-dev-server 5 building a one-module app, with its defaults (compression, HMR). */
async function webpackDevServer(devServer) {
  const { default: WebpackDevServer } = await import('wds5')
  const { default: webpack } = await import('webpack')
  const compiler = webpack({
    mode: 'development',
    context: fixtures,
    entry: './app.js',
    output: { path: join(fixtures, '.webpack') },
    devtool: false,
    stats: 'none',
    infrastructureLogging: { level: 'error' },
  })
  const server = new WebpackDevServer(
    { host: '127.0.0.1', port: 0, static: false, open: false, setupExitSignals: false, ...devServer },
    compiler,
  )
  await server.start()
  // The first build runs after start() resolves; waited for, so its CPU time (seconds on a loaded
  // machine) is not counted in the first rounds of the proxy's requests.
  await new Promise((resolve) => server.middleware.waitUntilValid(resolve))
  return `http://127.0.0.1:${server.server.address().port}`
}

/** http-proxy-middleware's options as its README writes them, for `/api` and the `/ws` echo. */
function hpmServer(createProxyMiddleware) {
  const api = createProxyMiddleware({ target: upstream, changeOrigin: true, pathRewrite: { '^/api': '' } })
  const ws = createProxyMiddleware({
    target: upstream,
    changeOrigin: true,
    ws: true,
    pathRewrite: { '^/socket': '' },
  })
  const notFound = (res) => () => res.writeHead(404).end()
  const server = http.createServer((req, res) =>
    req.url.startsWith('/socket') ? ws(req, res, notFound(res)) : api(req, res, notFound(res)),
  )
  server.on('upgrade', ws.upgrade)
  return listen(server)
}

/** webpack-dev-server 6's own http-proxy-middleware (4), the one release line that needs Node >= 22.15. */
async function importHpm4() {
  const require = createRequire(realpathSync(fileURLToPath(import.meta.resolve('wds6/package.json'))))
  // Its `exports` hide package.json; the entry is dist/index.js, one folder below it.
  const entry = require.resolve('http-proxy-middleware')
  const { version } = JSON.parse(readFileSync(join(dirname(entry), '../package.json'), 'utf8'))
  if (!version.startsWith('4.')) throw new Error(`expected http-proxy-middleware 4, found ${version}`)
  return import(pathToFileURL(entry).href)
}

/** A fresh recordings folder holding the small GET's recording, made through a `record: true` proxy. */
async function recordOnce() {
  const { createCorsDevProxy } = await import(core)
  const { mkdtempSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const dir = mkdtempSync(join(tmpdir(), 'cdp-bench-replay-'))
  const proxy = createCorsDevProxy(ourRoutes({ target: upstream, record: true }), {
    log: 'error',
    recordings: { dir },
  })
  const server = http.createServer((req, res) => proxy.middleware(req, res))
  const base = await listen(server)
  const answer = await fetch(`${base}/api/items`, { headers: { connection: 'close' } })
  await answer.arrayBuffer()
  await proxy.close()
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
  return dir
}

/**
 * The small GET's contract for `ours-openapi`: what the upstream's `/items` answers keeps it, so
 * every exchange is checked (status, content type, body against the schema) and nothing is found.
 */
const ITEMS_DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'bench upstream', version: '1' },
  paths: {
    '/items': {
      get: {
        parameters: [{ name: 'delay', in: 'query', schema: { type: 'integer', minimum: 0 } }],
        responses: {
          200: {
            description: 'the small JSON answer',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['ok', 'items', 'message'],
                  properties: {
                    ok: { type: 'boolean' },
                    items: { type: 'array', items: { type: 'integer' } },
                    message: { type: 'string' },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
}

/**
 * One small GET through `base`, then the exchange's check read back from the inspector: the
 * contender refuses to start unless the check ran and found nothing (a bench of a check that
 * never runs, or that flags every answer, would measure something else).
 */
async function assertContractKept(base) {
  const answer = await fetch(`${base}/api/items`, { headers: { connection: 'close' } })
  await answer.arrayBuffer()
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const [exchange] = await (await fetch(`${base}/__cors-dev-proxy/exchanges`)).json()
    if (exchange?.violations !== undefined) {
      if (exchange.violations.length === 0) return
      throw new Error(
        `ours-openapi: the small GET breaks the document: ${JSON.stringify(exchange.violations)}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error('ours-openapi: the contract check of the small GET never ended')
}

/** Each contender resolves to the base URL the load generator hits. */
const contenders = {
  /** cors-dev-proxy's engine as the bare handler of a `node:http` server. */
  async 'ours-node'() {
    const { createCorsDevProxy } = await import(core)
    const proxy = createCorsDevProxy(ourRoutes(), { log: 'error' })
    const server = http.createServer((req, res) => proxy.middleware(req, res))
    server.on('upgrade', (req, socket, head) => proxy.upgrade(req, socket, head) || socket.destroy())
    return listen(server)
  },
  /**
   * The Fetch handler (`createFetchHandler`, the Bun, Deno and Hono front end) on Node, behind
   * @hono/node-server's request listener, what Hono users on Node run: its lightweight `Request`
   * and `Response` build the real objects only when something reads what they do not carry.
   * What the Fetch front end costs against the engine on `node:http` (`ours-node`).
   */
  async 'ours-fetch'() {
    const { createFetchHandler } = await import(core)
    const { getRequestListener } = await import('@hono/node-server')
    const proxy = createFetchHandler({ '/api': upstream }, { log: 'error' })
    const notFound = () => new Response(null, { status: 404 })
    // `env` is node-server's `{ incoming, outgoing }`, which the handler takes as it is.
    const listener = getRequestListener(async (request, env) => (await proxy(request, env)) ?? notFound())
    return listen(http.createServer(listener))
  },
  /**
   * `ours-fetch` with the inspector and the overlay off: what the Fetch front end costs without
   * the recorder (`ours-fetch` and `ours-node` both record exchanges for the inspector by default,
   * being the same assembly, so `ours-fetch` against `ours-node` is the like-for-like pair).
   */
  async 'ours-fetch-bare'() {
    const { createFetchHandler } = await import(core)
    const { getRequestListener } = await import('@hono/node-server')
    const proxy = createFetchHandler({ '/api': upstream }, { log: 'error', inspector: false, overlay: false })
    const notFound = () => new Response(null, { status: 404 })
    const listener = getRequestListener(async (request, env) => (await proxy(request, env)) ?? notFound())
    return listen(http.createServer(listener))
  },
  /** A route with a `proxyRes` hook that does nothing: what observing every answer costs. */
  async 'ours-hooked'() {
    const { createCorsDevProxy } = await import(core)
    const proxy = createCorsDevProxy(ourRoutes({ target: upstream, on: { proxyRes: () => {} } }), {
      log: 'error',
    })
    return listen(http.createServer((req, res) => proxy.middleware(req, res)))
  },
  /** A route whose `transformResponse` returns the body unchanged: what buffering every answer costs. */
  async 'ours-transform'() {
    const { createCorsDevProxy } = await import(core)
    const proxy = createCorsDevProxy(ourRoutes({ target: upstream, transformResponse: (body) => body }), {
      log: 'error',
    })
    return listen(http.createServer((req, res) => proxy.middleware(req, res)))
  },
  /** A route with `record: true`: every answer copied on its way and appended to its recording file. */
  async 'ours-record'() {
    const { createCorsDevProxy } = await import(core)
    const { mkdtempSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const dir = mkdtempSync(join(tmpdir(), 'cdp-bench-record-'))
    const proxy = createCorsDevProxy(ourRoutes({ target: upstream, record: true }), {
      log: 'error',
      recordings: { dir },
    })
    return listen(http.createServer((req, res) => proxy.middleware(req, res)))
  },
  /**
   * A route with `replay: 'only'`: the small GET answered from its recording (made first, through
   * a `record: true` proxy, from the same backend), the target never contacted.
   */
  async 'ours-replay'() {
    const dir = await recordOnce()
    const { createCorsDevProxy } = await import(core)
    const proxy = createCorsDevProxy(ourRoutes({ target: upstream, replay: 'only' }), {
      log: 'error',
      recordings: { dir },
    })
    return listen(http.createServer((req, res) => proxy.middleware(req, res)))
  },
  /**
   * A route with `record: 'missing'` whose small GET has a recording: looked up, then replayed
   * (what every call but the first costs once a session is recorded).
   */
  async 'ours-record-missing'() {
    const dir = await recordOnce()
    const { createCorsDevProxy } = await import(core)
    const proxy = createCorsDevProxy(ourRoutes({ target: upstream, record: 'missing' }), {
      log: 'error',
      recordings: { dir },
    })
    return listen(http.createServer((req, res) => proxy.middleware(req, res)))
  },
  /**
   * `ours-node` with `openapi` on `/api` (the document as an object): each small GET checked
   * against it after it closed, the check finding nothing. What a route with a contract costs.
   */
  async 'ours-openapi'() {
    const { createCorsDevProxy } = await import(core)
    const proxy = createCorsDevProxy(ourRoutes({ target: upstream, openapi: { document: ITEMS_DOCUMENT } }), {
      log: 'error',
    })
    const server = http.createServer((req, res) => proxy.middleware(req, res))
    server.on('upgrade', (req, socket, head) => proxy.upgrade(req, socket, head) || socket.destroy())
    const base = await listen(server)
    await assertContractKept(base)
    return base
  },
  /** The same with `cors: true` on `/api`: the CORS step runs on every request, preflights answered here. */
  async 'ours-cors'() {
    const { createCorsDevProxy } = await import(core)
    const proxy = createCorsDevProxy(ourRoutes({ target: upstream, cors: true }), { log: 'error' })
    return listen(http.createServer((req, res) => proxy.middleware(req, res)))
  },
  /**
   * To an https target (the upstream's `--tls` twin, self-signed: `secure: false`) over
   * HTTP/1.1, undici's default: the reference for `ours-tls-h2`.
   */
  async 'ours-tls-h1'() {
    const { createCorsDevProxy } = await import(core)
    const proxy = createCorsDevProxy({ '/api': { target: upstream, secure: false } }, { log: 'error' })
    return listen(http.createServer((req, res) => proxy.middleware(req, res)))
  },
  /** The same with `http2: true`: HTTP/2 to the target, negotiated by ALPN. */
  async 'ours-tls-h2'() {
    const { createCorsDevProxy } = await import(core)
    const proxy = createCorsDevProxy(
      { '/api': { target: upstream, secure: false, http2: true } },
      { log: 'error' },
    )
    return listen(http.createServer((req, res) => proxy.middleware(req, res)))
  },
  /** Our Vite plugin in a real Vite 8 dev server. */
  async 'ours-vite'() {
    const { corsDevProxy } = await import('../packages/vite/dist/index.js')
    return viteServer({ plugins: [corsDevProxy(ourRoutes(), { log: 'error' })] })
  },
  /** The same over HTTPS, where Vite serves HTTP/2 (HTTP/1.1 as fallback). */
  async 'ours-vite-h2'() {
    const { corsDevProxy } = await import('../packages/vite/dist/index.js')
    return viteServer({ plugins: [corsDevProxy(ourRoutes(), { log: 'error' })], https: true })
  },
  /** Our webpack adapter in a real webpack-dev-server 5. */
  async 'ours-wds'() {
    const { corsDevProxy } = await import('../packages/webpack/dist/index.js')
    return webpackDevServer(corsDevProxy(ourRoutes(), { log: 'error' }))
  },
  /** A bare Node server writing the 204 our `cors` route answers the benchmark's preflight with. */
  async 'node-preflight'() {
    return listen(http.createServer((_req, res) => res.writeHead(204, preflightHeaders).end()))
  },
  /** The Node limit, undici `request()` (minimal-proxies.mjs). */
  async 'undici-request'() {
    return listen(createRequestProxy(upstream, '/api'))
  },
  /** The Node limit, undici `dispatch()` (minimal-proxies.mjs). */
  async 'undici-dispatch'() {
    return listen(createDispatchProxy(upstream, '/api'))
  },
  /** The same, writing the five forwarding headers ours writes by default (`xfwd`). */
  async 'undici-dispatch-xfwd'() {
    return listen(createDispatchProxy(upstream, '/api', { forwarded: true }))
  },
  /** The same with HTTP/2 to the https target: the floor of `ours-tls-h2`. */
  async 'undici-dispatch-h2'() {
    return listen(createDispatchProxy(upstream, '/api', { forwarded: true, http2: true }))
  },
  /** Vite 8's built-in `server.proxy` (http-proxy-3) in a real Vite dev server. */
  async 'vite-proxy'() {
    return viteServer({ proxy: viteProxy() })
  },
  /** The same over HTTPS (HTTP/2). */
  async 'vite-proxy-h2'() {
    return viteServer({ proxy: viteProxy(), https: true })
  },
  /** webpack-dev-server 5's `proxy` (its http-proxy-middleware 2), with its defaults. */
  async 'wds-proxy'() {
    return webpackDevServer({
      proxy: [
        { context: ['/api'], target: upstream, changeOrigin: true, pathRewrite: { '^/api': '' } },
        {
          context: ['/socket'],
          target: upstream,
          changeOrigin: true,
          ws: true,
          pathRewrite: { '^/socket': '' },
        },
      ],
    })
  },
  /** http-proxy-middleware 3 on `node:http`. */
  async hpm3() {
    const { createProxyMiddleware } = await import('http-proxy-middleware')
    return hpmServer(createProxyMiddleware)
  },
  /** http-proxy-middleware 4 (httpxy) on `node:http`; run.mjs starts it on Node 24. */
  async hpm4() {
    const { createProxyMiddleware } = await importHpm4()
    return hpmServer(createProxyMiddleware)
  },
}

/** Vite's `server.proxy` for the same two routes, as its documentation writes them. */
function viteProxy() {
  return {
    '/api': { target: upstream, changeOrigin: true, rewrite: (path) => path.replace(/^\/api/, '') },
    '/socket': {
      target: upstream,
      changeOrigin: true,
      ws: true,
      rewrite: (path) => path.replace(/^\/socket/, ''),
    },
  }
}

function listen(server) {
  server.keepAliveTimeout = 60_000
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)),
  )
}

const start = contenders[name]
if (!start) {
  console.error(`unknown contender ${name}; one of ${Object.keys(contenders).join(', ')}`)
  process.exit(2)
}
console.log(`READY ${await start()}`)
process.on('SIGTERM', () => process.exit(0))
// Started by the driver (processes.mjs), stdin is a pipe it holds: it ends when the driver
// exits, even when it was killed.
if (process.env.BENCH_EXIT_WITH_STDIN === '1') {
  process.stdin.on('end', () => process.exit(0))
  process.stdin.resume()
}
