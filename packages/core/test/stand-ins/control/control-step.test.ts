import { createHash, randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningProxy, serveProxy } from '../../../../../test/support/proxy-server.js'
import {
  captureLogSink,
  collectBody,
  listen,
  openRequest,
  type StartedServer,
  sendRequest,
} from '../../../../../test/support/servers.js'
import { createFetchHandler, type Routes } from '../../../src/index.js'

const PAGE = 'http://localhost:5173'
/** What a loaded 2-core machine may add to a request on top of its latency. */
const SLACK_MS = 1500
const BIG = 16 * 2 ** 20

interface BackendState {
  bigFinished: boolean
  seen: string[]
  /** Told the bytes of the upload in progress each time a chunk arrives. */
  onUpload: ((received: number) => void) | undefined
}

/** Reads an upload, telling `state.onUpload` as it goes; answers its size and SHA-256. */
async function receiveUpload(req: IncomingMessage, res: ServerResponse, state: BackendState) {
  const hash = createHash('sha256')
  let bytes = 0
  for await (const chunk of req) {
    bytes += (chunk as Buffer).byteLength
    hash.update(chunk as Buffer)
    state.onUpload?.(bytes)
  }
  res.setHeader('content-type', 'application/json')
  res.end(JSON.stringify({ bytes, sha256: hash.digest('hex') }))
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

/** A backend that names itself and the path it got; `/big` streams 32 MiB and notes when it is all written. */
async function startBackend(name: string) {
  const state: BackendState = { bigFinished: false, seen: [], onUpload: undefined }
  const started = await listen(
    createServer((req: IncomingMessage, res: ServerResponse) => {
      state.seen.push(`${req.method} ${req.url}`)
      if (req.method === 'POST' && req.url === '/upload') {
        void receiveUpload(req, res, state)
        return
      }
      if (req.url === '/100k') {
        res.end(Buffer.alloc(100_000, 2))
        return
      }
      if (req.url === '/big') {
        state.bigFinished = false
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': BIG })
        const chunk = Buffer.alloc(64 * 1024, 1)
        let sent = 0
        const pump = (): void => {
          while (sent < BIG) {
            sent += chunk.byteLength
            if (!res.write(chunk)) {
              res.once('drain', pump)
              return
            }
          }
          res.end(() => {
            state.bigFinished = true
          })
        }
        pump()
        return
      }
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ backend: name, url: req.url }))
    }),
  )
  return { ...started, ...state, state }
}

let backend: StartedServer<ReturnType<typeof createServer>> & {
  state: BackendState
}
let proxy: RunningProxy
const sink = captureLogSink()

beforeAll(async () => {
  backend = await startBackend('local')
  const routes: Routes = {
    '/plain': backend.url,
    '/slow': { target: backend.url, latency: 300 },
    '/failing': { target: backend.url, failRate: 1, failWith: 500, cors: true },
    '/flaky': { target: backend.url, failRate: 1 },
    '/reset': { target: backend.url, failRate: 1, failWith: 'reset' },
    '/paths': { target: backend.url, faults: { 'POST /users/:id': { failRate: 1, failWith: 418 } } },
    '/throttled': { target: backend.url, throttle: 16 * 2 ** 20 },
    '/small': { target: backend.url, throttle: 50_000 },
    '/uploads': { target: backend.url, throttle: 128 * 1024 },
    '/jsonp-slow': { target: backend.url, latency: 100, jsonp: true },
    '/jsonp-failing': { target: backend.url, failRate: 1, failWith: 500, jsonp: true },
  }
  proxy = await serveProxy(routes, { log: 'info', logger: sink })
})
afterAll(async () => {
  await proxy?.close()
  await backend?.close()
})

/** Milliseconds one GET takes, answer read whole. */
async function timed(url: string): Promise<{ ms: number; status: number; body: Buffer }> {
  const start = performance.now()
  const res = await sendRequest(url)
  return { ms: performance.now() - start, status: res.status, body: res.body }
}

describe('latency', () => {
  it('adds 300 ms to each answer of its route and nothing to the others', async () => {
    // The baseline: the same backend through a proxy with no control options at all, measured
    // the same way, in the same rounds (whatever the load, it weighs on all three alike).
    const baseline = await serveProxy({ '/plain': backend.url }, { log: 'silent' })
    try {
      await Promise.all([timed(`${baseline.url}/plain/warm`), timed(`${proxy.url}/plain/warm`)])
      const rounds: Array<{ base: number; plain: number; slow: number }> = []
      for (let round = 0; round < 5; round++) {
        const [base, plain, slow] = await Promise.all([
          timed(`${baseline.url}/plain/users`),
          timed(`${proxy.url}/plain/users`),
          timed(`${proxy.url}/slow/users`),
        ])
        expect([base.status, plain.status, slow.status]).toEqual([200, 200, 200])
        expect(JSON.parse(slow.body.toString())).toEqual({ backend: 'local', url: '/users' })
        rounds.push({ base: base.ms, plain: plain.ms, slow: slow.ms })
      }
      const median = (key: 'base' | 'plain' | 'slow') =>
        rounds.map((round) => round[key]).sort((a, b) => a - b)[2] as number
      // Each answer of the slow route waits its 300 ms...
      for (const round of rounds) expect(round.slow).toBeGreaterThanOrEqual(299)
      expect(median('slow')).toBeLessThan(median('base') + 300 + SLACK_MS)
      // ...and the plain route beside it is not slowed by anything like it.
      expect(median('plain')).toBeLessThan(median('base') + 250)
    } finally {
      await baseline.close()
    }
  })
})

describe('with jsonp on the route', () => {
  it('delays the answer, then wraps it for the callback like any other', async () => {
    const { ms, body } = await timed(`${proxy.url}/jsonp-slow/users?callback=cb`)
    expect(ms).toBeGreaterThanOrEqual(99)
    expect(body.toString()).toBe(
      `/**/ typeof cb === 'function' && cb(${JSON.stringify({ backend: 'local', url: '/users?callback=cb' })});`,
    )
  })

  it('wraps an injected JSON failure for the callback, with its status', async () => {
    const res = await sendRequest(`${proxy.url}/jsonp-failing/users?callback=cb`, {
      headers: { accept: 'application/json' },
    })
    expect(res.status).toBe(500)
    expect(res.headers['x-cors-dev-proxy-fault']).toBe('failRate; 500')
    expect(res.body.toString()).toMatch(/^\/\*\*\/ typeof cb === 'function' && cb\(\{"error":"fault injected/)
  })
})

describe('failRate', () => {
  it('answers failWith through the route’s CORS policy, marked as injected, without reaching the target', async () => {
    const before = backend.state.seen.length
    const res = await sendRequest(`${proxy.url}/failing/users`, {
      headers: { origin: PAGE, accept: 'application/json' },
    })
    expect(res.status).toBe(500)
    expect(res.headers['access-control-allow-origin']).toBe(PAGE)
    expect(res.headers['x-cors-dev-proxy-fault']).toBe('failRate; 500')
    expect(JSON.parse(res.body.toString()).error).toContain("route '/failing'")
    expect(backend.state.seen.length).toBe(before)
  })

  it('fails every request with 503 by default, in plain text for a client that does not ask for JSON', async () => {
    const before = backend.state.seen.length
    for (let request = 0; request < 5; request++) {
      const res = await sendRequest(`${proxy.url}/flaky/x`)
      expect(res.status).toBe(503)
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
      expect(res.body.toString()).toContain('fault injected by cors-dev-proxy')
    }
    expect(backend.state.seen.length).toBe(before)
  })

  it("drops the client's connection with failWith: 'reset'", async () => {
    await expect(openRequest(`${proxy.url}/reset/x`)).rejects.toMatchObject({ code: 'ECONNRESET' })
  })

  it('applies a path pattern to its method and paths only', async () => {
    expect((await sendRequest(`${proxy.url}/paths/users/7`, { method: 'POST' })).status).toBe(418)
    expect((await sendRequest(`${proxy.url}/paths/users/7?x=1`, { method: 'POST' })).status).toBe(418)
    expect((await sendRequest(`${proxy.url}/paths/users/7`)).status).toBe(200)
    expect((await sendRequest(`${proxy.url}/paths/users/7/posts`, { method: 'POST' })).status).toBe(200)
  })

  it('says once at start-up which faults are on', () => {
    const lines = sink.lines.filter((line) => line.message.includes("faults on for route '/slow'"))
    expect(lines).toEqual([
      {
        level: 'warn',
        message: expect.stringContaining(
          "faults on for route '/slow': latency 300 ms (the overlay shows a badge while any is on; switch them off in the inspector)",
        ),
      },
    ])
    expect(sink.text()).toContain("faults on for route '/paths': paths POST /users/:id")
  })
})

describe('throttle', () => {
  it('paces a small answer to its rate', async () => {
    // 100 000 bytes at 50 000 B/s: the first tenth of a second goes at once, the rest takes 1.9 s.
    const start = performance.now()
    const res = await sendRequest(`${proxy.url}/small/100k`)
    expect(res.body.byteLength).toBe(100_000)
    const seconds = (performance.now() - start) / 1000
    expect(seconds).toBeGreaterThanOrEqual(1.8)
    expect(seconds).toBeLessThan(8)
  })

  it('keeps back-pressure: the target is held back while the client reads slowly', async () => {
    const res = await openRequest(`${proxy.url}/throttled/big`)
    let received = 0
    let finishedEarly = false
    for await (const chunk of res) {
      received += (chunk as Buffer).byteLength
      // At 16 MiB/s, a quarter in, the target must still be writing: the proxy holds at most a
      // chunk, and the sockets' buffers are far smaller than the 12 MiB left.
      if (received >= 4 * 2 ** 20 && received < 5 * 2 ** 20 && backend.state.bigFinished) finishedEarly = true
    }
    expect(received).toBe(BIG)
    expect(finishedEarly).toBe(false)
  })
})

describe('throttle, uploads', () => {
  const UPLOAD = randomBytes(256 * 1024)

  it('paces the request body to its rate, bytes intact', async () => {
    // 256 KiB at 128 KiB/s: the first tenth of a second goes at once, the rest takes 1.9 s.
    const start = performance.now()
    const res = await sendRequest(`${proxy.url}/uploads/upload`, { method: 'POST', body: UPLOAD })
    const seconds = (performance.now() - start) / 1000
    expect(JSON.parse(res.body.toString())).toEqual({ bytes: UPLOAD.byteLength, sha256: sha256(UPLOAD) })
    expect(seconds).toBeGreaterThanOrEqual(1.5)
  })

  it('keeps back-pressure: the client is held back, nothing is buffered whole', async () => {
    // 32 MiB at 16 MiB/s. When the target has 4 MiB, the client cannot have handed all of it
    // to its socket: the sockets' buffers hold far less than the 28 MiB left.
    const size = 32 * 2 ** 20
    const chunk = randomBytes(2 ** 20)
    let clientDone = false
    let doneEarly: boolean | undefined
    backend.state.onUpload = (received) => {
      if (received >= 4 * 2 ** 20 && doneEarly === undefined) doneEarly = clientDone
    }
    try {
      const req = httpRequest(`${proxy.url}/throttled/upload`, { method: 'POST', agent: false })
      const answered = new Promise<IncomingMessage>((resolve, reject) => {
        req.once('response', resolve)
        req.once('error', reject)
      })
      for (let sent = 0; sent < size; sent += chunk.byteLength) {
        if (!req.write(chunk)) await once(req, 'drain')
      }
      req.end(() => {
        clientDone = true
      })
      const res = await answered
      const body = JSON.parse((await collectBody(res)).toString()) as { bytes: number }
      expect(body.bytes).toBe(size)
      expect(doneEarly).toBe(false)
    } finally {
      backend.state.onUpload = undefined
    }
  })

  it('paces uploads behind the Fetch handler too', async () => {
    const handler = createFetchHandler(
      { '/uploads': { target: backend.url, throttle: 128 * 1024 } },
      { log: 'silent' },
    )
    try {
      const start = performance.now()
      const answer = await handler(
        new Request('http://dev.test/uploads/upload', { method: 'POST', body: UPLOAD }),
      )
      const seconds = (performance.now() - start) / 1000
      expect(await answer?.json()).toEqual({ bytes: UPLOAD.byteLength, sha256: sha256(UPLOAD) })
      expect(seconds).toBeGreaterThanOrEqual(1.5)
    } finally {
      await handler.close()
    }
  })
})
