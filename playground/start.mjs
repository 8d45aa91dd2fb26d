// `pnpm playground`: starts a backend without CORS and one with CORS (two more origins), then the
// dev server twice, over http (HTTP/1.1) and https (HTTP/2, self-signed certificate made now),
// with corsDevProxy in front of the first backend, and prints where to look.
// `pnpm playground:webpack` does the same with webpack-dev-server and the webpack adapter.
// `pnpm playground --http3` also puts Caddy in front of the HTTPS one (HTTP/3, as `serve --http3`).
import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { selfSignedLocalhost } from '../test/support/self-signed.mjs'
import { startBackend } from './server/backends.mjs'
import { FRONT_TOKEN_ENV, startHttp3Front } from './server/http3-front.mjs'

const root = fileURLToPath(new URL('.', import.meta.url))

async function startVite({ port, https }) {
  const { createServer } = await import('vite')
  const server = await createServer({
    configFile: `${root}vite.config.ts`,
    root,
    // The HTTP/2 twin serves the same routes: only the first server prints its info lines (the routes line once).
    logLevel: process.env.PLAYGROUND_QUIET ? 'silent' : https ? 'warn' : 'info',
    server: { host: '127.0.0.1', port, strictPort: false, https },
  })
  await server.listen()
  return { port: server.httpServer.address().port, close: () => server.close() }
}

async function startWebpack({ port, https }) {
  const { startWebpackPlayground } = await import('./server/webpack-playground.mjs')
  return startWebpackPlayground({ root, port, https })
}

/**
 * Starts the whole playground. Ports default to the documented ones; tests pass 0 for each.
 * @param {{ webpack?: boolean, ports?: { backend: number, corsBackend: number, http: number, https: number } }} options
 */
export async function startPlayground({
  webpack = false,
  http3 = false,
  ports = { backend: 3001, corsBackend: 3002, http: 5173, https: 5174 },
} = {}) {
  // Read by the dev server's restore step (vite.config.ts) on each request, so it is set first.
  if (http3) process.env[FRONT_TOKEN_ENV] = randomBytes(24).toString('hex')
  const backend = await startBackend({ port: ports.backend, cors: 'off' })
  const corsBackend = await startBackend({ port: ports.corsBackend, cors: 'reflect' })
  process.env.PLAYGROUND_BACKEND = backend.url
  process.env.PLAYGROUND_CORS_BACKEND = corsBackend.url
  const start = webpack ? startWebpack : startVite
  const http = await start({ port: ports.http })
  process.env.PLAYGROUND_HTTP = `http://localhost:${http.port}`
  const certificate = await selfSignedLocalhost(7)
  const https = await start({ port: ports.https, https: certificate })
  process.env.PLAYGROUND_HTTPS = `https://localhost:${https.port}`
  const front = http3 ? await startHttp3Front({ innerPort: https.port, https: certificate }) : undefined
  const urls = {
    page: `${process.env.PLAYGROUND_HTTP}/`,
    https: `${process.env.PLAYGROUND_HTTPS}/`,
    backend: backend.url,
    corsBackend: corsBackend.url,
    http3: front?.url,
  }
  return {
    urls,
    chromium: front?.chromium,
    async close() {
      await front?.close()
      await Promise.allSettled([http.close(), https.close()])
      await Promise.allSettled([backend.close(), corsBackend.close()])
    },
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const webpack = process.argv.includes('--webpack')
  const http3 = process.argv.includes('--http3')
  const playground = await startPlayground({ webpack, http3 }).catch((error) => {
    if (error?.code !== 'EADDRINUSE') throw error
    console.error(
      `\n  Port ${error.port} is already in use: is another playground (or a server on ${error.port}) running?\n` +
        '  Stop it (Ctrl+C in its terminal) and run the command again.\n',
    )
    process.exit(1)
  })
  const { urls } = playground
  console.log(`
  cors-dev-proxy playground (${webpack ? 'webpack-dev-server' : 'Vite'})

  Open the page:           ${urls.page}
  Same page over HTTP/2:   ${urls.https}  (self-signed: accept the certificate once)
  Backend without CORS:    ${urls.backend}
  Backend with CORS:       ${urls.corsBackend}
${
  urls.http3
    ? `  Same page over HTTP/3:   ${urls.http3}  (Caddy in front; QUIC needs this Chromium:\n                           ${playground.chromium})\n`
    : ''
}  Protocol lab:            ${urls.page}lab.html  (runs its experiments in a headless Chromium it starts,
                           with HTTP/3 flags; the command line is printed when it runs, and on the page)

  Press Run all. Ctrl+C stops everything.
`)
  const stop = () => playground.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
