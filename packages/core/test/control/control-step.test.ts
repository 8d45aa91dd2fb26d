import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningProxy, serveProxy } from '../../../../test/support/proxy-server.js'
import {
  captureLogSink,
  listen,
  openRequest,
  type StartedServer,
  sendRequest,
} from '../../../../test/support/servers.js'
import type { Routes } from '../../src/index.js'

const PAGE = 'http://localhost:5173'
/** What a loaded 2-core machine may add to a request on top of its latency. */
const SLACK_MS = 1500
const BIG = 16 * 2 ** 20

/** A backend that names itself and the path it got; `/big` streams 32 MiB and notes when it is all written. */
async function startBackend(name: string) {
  const state = { bigFinished: false, seen: [] as string[] }
  const started = await listen(
    createServer((req: IncomingMessage, res: ServerResponse) => {
      state.seen.push(`${req.method} ${req.url}`)
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
  state: { bigFinished: boolean; seen: string[] }
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
    // Warm both paths (connections, pools), then measure one of each.
    await timed(`${proxy.url}/plain/warm`)
    // Sent together: whatever the machine's load, the plain route answers before the slow one.
    const finished: string[] = []
    const [plain, slow] = await Promise.all([
      timed(`${proxy.url}/plain/users`).finally(() => finished.push('plain')),
      timed(`${proxy.url}/slow/users`).finally(() => finished.push('slow')),
    ])
    expect(finished).toEqual(['plain', 'slow'])
    expect(plain.status).toBe(200)
    expect(slow.status).toBe(200)
    expect(JSON.parse(slow.body.toString())).toEqual({ backend: 'local', url: '/users' })
    expect(slow.ms).toBeGreaterThanOrEqual(299)
    expect(slow.ms).toBeLessThan(300 + SLACK_MS)
    // The plain route never waits the slow one's 300 ms.
    expect(plain.ms).toBeLessThan(slow.ms)
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

  it('fails with 503 by default, in plain text for a client that does not ask for JSON', async () => {
    const res = await sendRequest(`${proxy.url}/flaky/x`)
    expect(res.status).toBe(503)
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(res.body.toString()).toContain('fault injected by cors-dev-proxy')
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
