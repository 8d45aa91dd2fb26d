// The playground's two backends: the core's mock backend on origins of their own, plus the few
// static assets the "not restricted" rows embed (image, script, stylesheet, frame), and a
// `/__log` endpoint the dev server reads to show that blocked requests still arrived.
import http from 'node:http'
import { createMockBackend } from '@cors-dev-proxy/core'

// A 1×1 transparent PNG.
const pixel = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
)
const assets = {
  '/pixel.png': ['image/png', pixel],
  '/script.js': ['text/javascript', "globalThis.__crossOriginScript = 'set by a cross-origin script'\n"],
  '/style.css': ['text/css', '.cross-origin-probe { color: rgb(9, 105, 218); }\n'],
  '/frame.html': [
    'text/html',
    '<!doctype html><title>a document of another origin</title><p>cross-origin frame</p>\n',
  ],
}

/**
 * Starts one backend on `host:port` (port 0 picks a free one).
 * @param {{ port?: number, host?: string, cors?: 'off' | 'reflect' | 'wildcard' }} options
 */
export function startBackend({ port = 0, host = '127.0.0.1', cors = 'off' } = {}) {
  const mock = createMockBackend({ cors })
  const server = http.createServer(function playgroundBackend(req, res) {
    const url = new URL(req.url ?? '/', 'http://backend.invalid')
    if (url.pathname === '/__log') {
      // The backend's own record of what arrived, filtered by the page's per-call id.
      const cid = url.searchParams.get('cid') ?? ''
      const entries = mock.log
        .filter((entry) => cid !== '' && entry.path.includes(`cid=${cid}`))
        .map(({ method, path, origin, preflight, status, handled }) => ({
          method,
          path,
          origin,
          preflight,
          status,
          handled,
        }))
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(entries))
      return
    }
    const asset = assets[url.pathname]
    if (asset && req.method === 'GET') {
      mock.log.push({
        method: 'GET',
        path: req.url,
        origin: req.headers.origin ?? null,
        preflight: false,
        status: 200,
        handled: true,
      })
      res.writeHead(200, { 'content-type': asset[0], 'cache-control': 'no-store' }).end(asset[1])
      return
    }
    mock(req, res)
  })
  server.on('upgrade', (req, socket, head) => {
    if (!mock.upgrade(req, socket, head)) socket.destroy()
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      const { port: actual } = server.address()
      resolve({
        // `localhost`, not 127.0.0.1: the same site as the page (ports differ), so SameSite=Lax
        // cookies travel on the credentialed rows while the origins still differ.
        url: `http://localhost:${actual}`,
        close: async () => {
          await mock.close()
          server.closeAllConnections()
          await new Promise((done) => server.close(done))
        },
      })
    })
  })
}
