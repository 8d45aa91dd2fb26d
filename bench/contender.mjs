// Starts one contender in its own process: `node contender.mjs <name> <upstream-url>`,
// prints `READY <base-url>` and serves until SIGTERM. One process each, so no contender
// shares an event loop with the load generator or the upstream.
import http from 'node:http'

const [name, upstream] = process.argv.slice(2)
const corsHeaders = {
  'access-control-allow-origin': 'http://localhost:5173',
  'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
  'access-control-allow-headers': 'content-type,x-requested-with',
  vary: 'Origin, Access-Control-Request-Headers',
  'content-length': '0',
}

/** Each contender resolves to the base URL the load generator hits. */
const contenders = {
  /** cors-dev-proxy forwarding /api to the upstream. */
  async 'cors-dev-proxy'() {
    const { createCorsDevProxy } = await import('../packages/core/dist/index.js')
    const proxy = createCorsDevProxy({ '/api': upstream }, { log: 'error' })
    return listen(http.createServer((req, res) => proxy.middleware(req, res)))
  },
  /** cors-dev-proxy answering preflights itself (`cors: true`). */
  async 'cors-dev-proxy-preflight'() {
    const { createCorsDevProxy } = await import('../packages/core/dist/index.js')
    const proxy = createCorsDevProxy({ '/api': { target: upstream, cors: true } }, { log: 'error' })
    return listen(http.createServer((req, res) => proxy.middleware(req, res)))
  },
  /** A bare Node server answering the same preflight: the ceiling for local preflights. */
  async 'node-preflight'() {
    return listen(http.createServer((_req, res) => res.writeHead(204, corsHeaders).end()))
  },
  /** Vite 8's built-in `server.proxy` (http-proxy-3), in a real Vite dev server. */
  async 'vite8-proxy'() {
    const { createServer } = await import('vite8')
    const server = await createServer({
      configFile: false,
      logLevel: 'silent',
      root: new URL('.', import.meta.url).pathname,
      optimizeDeps: { noDiscovery: true, include: [] },
      server: {
        host: '127.0.0.1',
        port: 0,
        ws: false,
        proxy: { '/api': { target: upstream, changeOrigin: true, rewrite: (p) => p.replace(/^\/api/, '') } },
      },
    })
    await server.listen()
    return `http://127.0.0.1:${server.httpServer.address().port}`
  },
  /** http-proxy-middleware 3 (what webpack-dev-server's `proxy` uses) with its defaults. */
  async 'http-proxy-middleware'() {
    const { createProxyMiddleware } = await import('http-proxy-middleware')
    const mw = createProxyMiddleware({ target: upstream, changeOrigin: true, pathRewrite: { '^/api': '' } })
    return listen(http.createServer((req, res) => mw(req, res, () => res.writeHead(404).end())))
  },
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
