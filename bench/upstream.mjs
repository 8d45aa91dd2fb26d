// The backend every contender forwards to, in a process of its own: a bare keep-alive Node server.
// `node upstream.mjs` prints `READY <url>` and serves until SIGTERM. The proxies remove their
// prefix (`/api`, `/ws`), so the paths here are the backend's own:
//
//   GET  /items[?delay=MS]     a small JSON answer (the request/response benchmark), after MS ms
//   GET  /bytes?n=N            N bytes of octet-stream (1 MiB and 1 GiB downloads), with back-pressure
//   POST /sink                 reads the whole body, answers {"bytes": N} (uploads)
//   GET  /events?n=N&every=MS  a server-sent event stream: N events, the first at once, then one
//                              every MS ms; each event's data is its send time (see `wallClockMs`)
//   OPTIONS *                  a preflight answer (only reached when a proxy forwards preflights)
//   upgrade *                  a WebSocket echo
import { readFileSync } from 'node:fs'
import http from 'node:http'
import http2 from 'node:http2'
import { join } from 'node:path'
import { WebSocketServer } from 'ws'

const body = JSON.stringify({ ok: true, items: [1, 2, 3], message: 'hello from the upstream' })
const bodyLength = String(Buffer.byteLength(body))
/** 1 MiB sent over and over for /bytes: allocated once, so the backend costs no copy per chunk. */
const chunk = Buffer.alloc(1024 * 1024, 120)

/**
 * Milliseconds since the epoch with sub-millisecond resolution. Both the backend and the event
 * stream client compute it the same way; a constant offset between the two processes cancels out
 * in the benchmark, which only reports a proxy's latency next to the backend's own.
 */
const wallClockMs = () => performance.timeOrigin + performance.now()

function items(_req, res, url) {
  const delay = Number(url.searchParams.get('delay') ?? 0)
  const send = () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': bodyLength })
    res.end(body)
  }
  if (delay > 0) setTimeout(send, delay)
  else send()
}

function bytes(_req, res, url) {
  let left = Number(url.searchParams.get('n') ?? chunk.length)
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(left) })
  const pump = () => {
    while (left > 0) {
      const piece = left >= chunk.length ? chunk : chunk.subarray(0, left)
      left -= piece.length
      if (left === 0) res.end(piece)
      else if (!res.write(piece)) return res.once('drain', pump)
    }
  }
  pump()
}

function sink(req, res) {
  let received = 0
  req.on('data', (data) => {
    received += data.length
  })
  req.on('end', () => {
    const answer = JSON.stringify({ bytes: received })
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) })
    res.end(answer)
  })
}

function events(req, res, url) {
  const count = Number(url.searchParams.get('n') ?? 10)
  const every = Number(url.searchParams.get('every') ?? 10)
  // `X-Accel-Buffering: no` is what event-stream servers send so that nginx passes each event on.
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  })
  let sent = 0
  const send = () => {
    res.write(`data: ${wallClockMs()}\n\n`)
    sent += 1
    if (sent === count) res.end()
  }
  send()
  const timer = setInterval(() => (sent < count ? send() : clearInterval(timer)), every)
  req.on('close', () => clearInterval(timer))
}

function handle(req, res) {
  const url = new URL(req.url, 'http://upstream')
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { 'access-control-allow-origin': req.headers.origin ?? '*' }).end()
  } else if (url.pathname === '/bytes') bytes(req, res, url)
  else if (url.pathname === '/sink') sink(req, res)
  else if (url.pathname === '/events') events(req, res, url)
  else items(req, res, url)
}

// `--tls`: the same backend over TLS, HTTP/2 by ALPN with HTTP/1.1 as fallback, for the
// contenders that compare HTTP/1.1 and HTTP/2 to the target (`http2: true`); its certificate
// is the run's own (BENCH_TLS_DIR). No WebSocket there.
const secure = process.argv[2] === '--tls'
let server
if (secure) {
  const dir = process.env.BENCH_TLS_DIR
  if (!dir) throw new Error('BENCH_TLS_DIR is not set: the TLS upstream is started by run.mjs')
  const tls = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }
  server = http2.createSecureServer({ ...tls, allowHTTP1: true }, handle)
} else {
  server = http.createServer(handle)
  const sockets = new WebSocketServer({ server })
  sockets.on('connection', (socket) => socket.on('message', (data, binary) => socket.send(data, { binary })))
}
server.keepAliveTimeout = 60_000

server.listen(0, '127.0.0.1', () => {
  console.log(`READY ${secure ? 'https' : 'http'}://127.0.0.1:${server.address().port}`)
})
process.on('SIGTERM', () => process.exit(0))
// Started by the driver (processes.mjs), stdin is a pipe it holds: it ends when the driver
// exits, even when it was killed.
if (process.env.BENCH_EXIT_WITH_STDIN === '1') {
  process.stdin.on('end', () => process.exit(0))
  process.stdin.resume()
}
