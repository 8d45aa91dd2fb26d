// The backend every app proxies to: the mock backend of @cors-dev-proxy/core (echo, redirects,
// cookies, server-sent events, WebSocket echo), plus `/upload`, which reads a body of any size
// and answers its length and SHA-256, so a 20 MB upload is checked without echoing it back, and
// `/slow?ms=`, which answers after longer than the mock's `delay` allows (Next's 60 s check).
import { createHash } from 'node:crypto'
import { createServer } from 'node:http'

/**
 * Starts the backend on 127.0.0.1, port 0, and finds a port nobody listens on for `/down`.
 * @param {typeof import('@cors-dev-proxy/core')} core the built core
 * @returns {Promise<{ url: string, down: string, close(): Promise<void> }>}
 */
export async function startBackend(core) {
  const mock = core.createMockBackend()
  const slow = new Set()
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/slow?')) {
      answerSlowly(req, res, slow)
      return
    }
    if (req.url?.startsWith('/upload')) {
      const hash = createHash('sha256')
      let length = 0
      req.on('data', (chunk) => {
        length += chunk.byteLength
        hash.update(chunk)
      })
      req.on('end', () => {
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ length, sha256: hash.digest('hex') }))
      })
      return
    }
    mock(req, res)
  })
  server.on('upgrade', (req, socket, head) => mock.upgrade(req, socket, head) || socket.destroy())
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const closed = createServer()
  await new Promise((resolve) => closed.listen(0, '127.0.0.1', resolve))
  const downPort = closed.address().port
  await new Promise((resolve) => closed.close(resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    down: `http://127.0.0.1:${downPort}`,
    async close() {
      for (const timer of slow) clearTimeout(timer)
      await mock.close()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** `/slow?ms=N` (up to 120 s): `{ "waited": N }` after N ms; `timers` holds the pending ones for `close`. */
function answerSlowly(req, res, timers) {
  const ms = Number(new URL(req.url, 'http://backend').searchParams.get('ms'))
  if (!Number.isInteger(ms) || ms < 0 || ms > 120_000) {
    res.writeHead(400, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ error: 'ms must be an integer from 0 to 120000', example: '/slow?ms=60000' }))
    return
  }
  const timer = setTimeout(() => {
    timers.delete(timer)
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ waited: ms }))
  }, ms)
  timers.add(timer)
  res.on('close', () => {
    clearTimeout(timer)
    timers.delete(timer)
  })
}

/** A free port on 127.0.0.1 (listened on and released; the app takes it a moment later). */
export async function freePort() {
  const probe = createServer()
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address()
  await new Promise((resolve) => probe.close(resolve))
  return port
}
