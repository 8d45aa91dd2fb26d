// The benchmark's one-connection clients, in a process of their own (not the driver's, not a
// contender's): `node clients.mjs '<jobs as JSON>'` runs the jobs one after the other and prints
// `BENCH-RESULT <results as JSON>`, one result per job, `{ error }` for a job that failed.
//
//   { kind: 'sse', url, events, everyMs }   an event stream: time to the first event, and each
//                                           event's latency from the backend's send time
//   { kind: 'ws', url, origin, messages }   WebSocket echo round trips, one message at a time
//   { kind: 'download' | 'upload', url, bytes }   one large body through the proxy, MB/s
import http from 'node:http'
import zlib from 'node:zlib'
import WebSocket from 'ws'
import { quantile } from './stats.mjs'

/** The backend's clock (upstream.mjs): the same expression in both processes. */
const wallClockMs = () => performance.timeOrigin + performance.now()

/** Fails a job that takes longer, e.g. an event stream a dev server holds back until it ends. */
const JOB_TIMEOUT_MS = 30_000

function sse({ url, events }) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    let firstEventMs
    let buffer = ''
    const latenciesUs = []
    // The headers Chromium's EventSource sends: with `Accept-Encoding`, a dev server that
    // compresses (webpack-dev-server) may hold the events back, as it would in the browser.
    const headers = { accept: 'text/event-stream', 'accept-encoding': 'gzip, deflate, br, zstd' }
    const req = http.get(url, { agent: false, headers }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`))
      const encoding = res.headers['content-encoding']
      const decode = { gzip: zlib.createGunzip, deflate: zlib.createInflate, br: zlib.createBrotliDecompress }
      if (encoding !== undefined && !decode[encoding])
        return reject(new Error(`content-encoding ${encoding}`))
      const body = encoding ? res.pipe(decode[encoding]()) : res
      body.setEncoding('utf8')
      body.on('data', (text) => {
        const now = wallClockMs()
        firstEventMs ??= performance.now() - started
        buffer += text
        let end = buffer.indexOf('\n\n')
        while (end !== -1) {
          const sentAt = Number(/^data: (.*)$/m.exec(buffer.slice(0, end))?.[1])
          latenciesUs.push((now - sentAt) * 1000)
          buffer = buffer.slice(end + 2)
          end = buffer.indexOf('\n\n')
        }
      })
      body.on('end', () => {
        if (latenciesUs.length !== events) reject(new Error(`${latenciesUs.length} of ${events} events`))
        else
          resolve({
            firstEventMs,
            eventP50Us: quantile(latenciesUs, 0.5),
            eventP99Us: quantile(latenciesUs, 0.99),
            events: latenciesUs.length,
            totalMs: performance.now() - started,
            encoding: encoding ?? 'identity',
          })
      })
      body.on('error', reject)
    })
    req.on('error', reject)
  })
}

async function ws({ url, origin, messages }) {
  const started = performance.now()
  // A page's socket carries its Origin; webpack-dev-server refuses upgrades without one.
  const socket = new WebSocket(url, { perMessageDeflate: false, origin, handshakeTimeout: 5000 })
  await new Promise((resolve, reject) => {
    socket.once('open', resolve)
    socket.once('error', reject)
    socket.once('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode}`)))
  })
  const connectMs = performance.now() - started
  const payload = Buffer.from('{"type":"ping","n":0000000000000}')
  /** @type {{ resolve: (us: number) => void, reject: (error: Error) => void, sent: number } | undefined} */
  let pending
  socket.on('message', () => pending?.resolve((performance.now() - pending.sent) * 1000))
  socket.on('close', () => pending?.reject(new Error('closed before the echo')))
  const echo = () =>
    new Promise((resolve, reject) => {
      pending = { resolve, reject, sent: performance.now() }
      socket.send(payload)
    })
  const warmup = Math.min(50, messages)
  for (let i = 0; i < warmup; i++) await echo()
  const rttUs = []
  for (let i = 0; i < messages; i++) rttUs.push(await echo())
  pending = undefined
  socket.close()
  return { connectMs, rttP50Us: quantile(rttUs, 0.5), rttP99Us: quantile(rttUs, 0.99), messages }
}

function download({ url, bytes }) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    http
      .get(url, { agent: false }, (res) => {
        let received = 0
        res.on('data', (chunk) => {
          received += chunk.length
        })
        res.on('end', () => {
          const seconds = (performance.now() - started) / 1000
          if (received !== bytes) reject(new Error(`received ${received} of ${bytes} bytes`))
          else resolve({ bytes, seconds, mbps: bytes / 2 ** 20 / seconds })
        })
        res.on('error', reject)
      })
      .on('error', reject)
  })
}

function upload({ url, bytes }) {
  const chunk = Buffer.alloc(Math.min(bytes, 1024 * 1024), 121)
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const req = http.request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes) },
      },
      (res) => {
        let answer = ''
        res.setEncoding('utf8')
        res.on('data', (text) => {
          answer += text
        })
        res.on('end', () => {
          const seconds = (performance.now() - started) / 1000
          const received = res.statusCode === 200 ? JSON.parse(answer).bytes : undefined
          if (received !== bytes)
            reject(new Error(`status ${res.statusCode}, upstream got ${received} of ${bytes}`))
          else resolve({ bytes, seconds, mbps: bytes / 2 ** 20 / seconds })
        })
      },
    )
    req.on('error', reject)
    let left = bytes
    const pump = () => {
      while (left > 0) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left)
        left -= piece.length
        if (left === 0) req.end(piece)
        else if (!req.write(piece)) return req.once('drain', pump)
      }
    }
    pump()
  })
}

const kinds = { sse, ws, download, upload }

const jobs = JSON.parse(process.argv[2] ?? '[]')
// The first job once more before the others, its result dropped: otherwise the first contender
// alone would pay for this process's cold start (module loading, JIT) in its first-event time.
if (jobs.length > 1) await kinds[jobs[0].kind](jobs[0]).catch(() => {})
const results = []
for (const job of jobs) {
  let timer
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no result in ${JOB_TIMEOUT_MS} ms`)), JOB_TIMEOUT_MS)
  })
  try {
    results.push(await Promise.race([kinds[job.kind](job), timeout]))
  } catch (error) {
    results.push({ error: error.message })
  } finally {
    clearTimeout(timer)
  }
}
console.log(`BENCH-RESULT ${JSON.stringify(results)}`)
// An event stream or a socket a failed job left open must not keep this process alive.
process.exit(0)
