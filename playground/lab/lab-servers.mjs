// The lab's servers, all in front of one small target: HTTP/1.1 over TLS (node:https, one
// protocol offered), HTTP/2 (`serve --https`) and HTTP/3 (`serve --http3`, Caddy in front), each
// running cors-dev-proxy with the same route, so the protocol between browser and dev server is
// the only difference. Each counts the TLS handshakes it accepted, to show connections per run.
import { createServer as createHttpServer } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { createDevServerProxy, resolveOptions } from '@cors-dev-proxy/core/adapter'
import { spkiSha256 } from '../../packages/cli/dist/serve/certificate.js'
import { findProgram } from '../../packages/cli/dist/serve/find-program.js'
import { startServe } from '../../packages/cli/dist/serve/start-serve.js'

/** Bytes of one asset unless a run asks for another size. */
export const DEFAULT_ASSET_BYTES = 16 * 1024

/** The target: `/asset?size=N&i=K` answers N bytes, with Timing-Allow-Origin so every page may time it. */
function startTarget() {
  const versions = []
  const server = createHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://target.invalid')
    const size = Math.min(Number(url.searchParams.get('size') ?? DEFAULT_ASSET_BYTES) || 0, 1_048_576)
    versions.push(req.httpVersion)
    if (versions.length > 1000) versions.shift()
    res.writeHead(200, {
      // Text, so that a page can be opened on it too (an octet stream would be a download).
      'content-type': url.searchParams.has('page') ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8',
      'content-length': size,
      'cache-control': 'no-store',
      'timing-allow-origin': '*',
    })
    res.end(Buffer.alloc(size, 97))
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        origin: `http://127.0.0.1:${server.address().port}`,
        /** The HTTP version of the last request the target received (what the dev server spoke to it). */
        lastVersion: () => versions.at(-1),
        close: () => new Promise((done) => server.close(done)),
      }),
    ),
  )
}

/** Counts the TLS handshakes a server completes (one per new connection). */
function countHandshakes(server) {
  let count = 0
  server.on('secureConnection', () => count++)
  return { read: () => count, reset: () => (count = 0) }
}

/** Counts the connections that carried at least one request (an HTTP/2 session is one connection). */
function countCarriers(server) {
  let carriers = new Set()
  server.on('request', (req) => carriers.add(req.stream?.session ?? req.socket))
  return { read: () => carriers.size, reset: () => (carriers = new Set()) }
}

/**
 * Starts the target and the three dev servers on `host` (the lab network's address, or
 * 127.0.0.1). The routes: `/api` → the target, with CORS for any origin (the sharding
 * experiment calls other host names). Without Caddy the h3 server is missing, with the reason.
 * @param {{ host: string, cwd: string }} options
 */
export async function startLabServers({ host, cwd }) {
  const target = await startTarget()
  const config = {
    routes: { '/api': { target: target.origin, cors: { origin: true } } },
    log: 'silent',
  }
  const resolved = resolveOptions(config)
  const h2 = await startServe({ resolved, port: 0, host, cwd, https: true })
  const cert = h2.certificate
  // HTTP/1.1 over TLS: node:https offers http/1.1 only in ALPN, so Chromium cannot pick h2.
  const proxy = createDevServerProxy(resolveOptions(config), {})
  const h1Server = createHttpsServer({ cert: cert.cert, key: cert.key }, (req, res) =>
    proxy.middleware(req, res, () => {
      res.statusCode = 404
      res.end('not found\n')
    }),
  )
  await new Promise((resolve) => h1Server.listen(0, host, resolve))
  const caddy = findProgram('caddy')
  const h3 =
    caddy === undefined ? undefined : await startServe({ resolved, port: 0, host, cwd, http3: { caddy } })
  const hostInUrl = host.includes(':') ? `[${host}]` : host
  const handshakes = { h1: countHandshakes(h1Server), h2: countHandshakes(h2.server) }
  const connections = { h1: countCarriers(h1Server), h2: countCarriers(h2.server) }
  return {
    target,
    spki: spkiSha256(cert.cert),
    /** The port of each protocol's server. */
    ports: { h1: h1Server.address().port, h2: h2.port, h3: h3?.port },
    /** Each protocol's origin on `host`. */
    origins: {
      h1: `https://${hostInUrl}:${h1Server.address().port}`,
      h2: `https://${hostInUrl}:${h2.port}`,
      h3: h3 === undefined ? undefined : `https://${hostInUrl}:${h3.port}`,
    },
    h3Missing:
      caddy === undefined ? 'Caddy is not on PATH (apt-get install caddy): no HTTP/3 server' : undefined,
    handshakes,
    connections,
    async close() {
      await h3?.close(0)
      await h2.close(0)
      await new Promise((resolve) => {
        h1Server.close(resolve)
        h1Server.closeAllConnections?.()
      })
      await proxy.close()
      await target.close()
    },
  }
}
