// The backend every app proxies to, with the habits of the backends users run (json-server, an
// Express API with `compression`): every answer of a compressible type over 1 kB is sent gzip or
// br by Accept-Encoding (lib/compress-answer.mjs; `?encodings=gzip` makes one answer's backend a
// gzip-only one, as compression before 1.8), `/todos` and `/todos/:id` of tens of kB and ~4 kB
// with an ETag and 304 (lib/backend-todos.mjs), a login that fails before it succeeds and
// cookies with Domain, Secure and SameSite (lib/backend-session.mjs), and a WebSocket only under
// its prefix, `/socket/` (the upgrade of any other path refused with 404). The rest is the mock
// backend of @cors-dev-proxy/core (echo, redirects, cookies, server-sent events, WebSocket echo
// on `/ws`), plus `/upload`, which reads a body of any size and answers its length and SHA-256,
// so a 20 MB upload is checked without echoing it back, and `/slow?ms=`, which answers after
// longer than the mock's `delay` allows (the 40 s answer).
import { createHash } from 'node:crypto'
import { createServer } from 'node:http'
import { answerSession } from './backend-session.mjs'
import { answerTodos } from './backend-todos.mjs'
import { CODINGS, compressingResponse } from './compress-answer.mjs'

/** The prefix the backend's own WebSocket lives under: `/socket/echo` echoes, `/echo` is refused. */
export const SOCKET_PREFIX = '/socket'

/**
 * Starts the backend on 127.0.0.1, port 0, and finds a port nobody listens on for `/down`.
 * `compressed` counts the answers it compressed, by coding.
 * @param {typeof import('@cors-dev-proxy/core')} core the built core
 * @returns {Promise<{ url: string, down: string, compressed: Record<string, number>, close(): Promise<void> }>}
 */
export async function startBackend(core) {
  const mock = core.createMockBackend()
  const slow = new Set()
  const compressed = Object.fromEntries(CODINGS.map((coding) => [coding, 0]))
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://backend')
    const only = url.searchParams.get('encodings')
    const answer = compressingResponse(req, res, {
      supported: only === null ? CODINGS : only.split(','),
      onCoding: (coding) => compressed[coding]++,
    })
    if (url.pathname === '/slow') answerSlowly(req, res, slow)
    else if (url.pathname === '/upload') answerUpload(req, res)
    else if (!answerTodos(req, answer, url) && !answerSession(req, answer, url)) mock(req, answer)
  })
  server.on('upgrade', (req, socket, head) => {
    const path = (req.url ?? '').split('?', 1)[0]
    if (path.startsWith(`${SOCKET_PREFIX}/`)) {
      if (mock.upgrade(req, socket, head, '/ws')) return
    } else if (path === '/ws' && mock.upgrade(req, socket, head)) return
    // An API whose socket lives under its prefix refuses the same path without it, as a router
    // would: a proxy that dropped the prefix fails here, visibly.
    socket.end(`HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    // A backend that is down: port 2, which the kernel never hands out and nothing listens on
    // (see test/support/refused-port.ts); a port listened on and closed could be taken again.
    down: 'http://127.0.0.1:2',
    compressed,
    async close() {
      for (const timer of slow) clearTimeout(timer)
      await mock.close()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** `/upload`: reads the body whatever its size, answers its length and SHA-256. */
function answerUpload(req, res) {
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
