import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningProxy, serveProxy } from '../../../../../test/support/proxy-server.js'
import { captureLogSink, openRequest, sendRequest } from '../../../../../test/support/servers.js'
import type { Routes } from '../../../src/index.js'
import { type ControlBackend, startControlBackend } from '../../support/control-backend.js'

// throttle paces in real time, so its tests are in control-throttle.test.ts (an integration test).

const PAGE = 'http://localhost:5173'
/** What a loaded 2-core machine may add to a request on top of its latency. */
const SLACK_MS = 1500

let backend: ControlBackend
let proxy: RunningProxy
const sink = captureLogSink()

beforeAll(async () => {
  backend = await startControlBackend('local')
  const routes: Routes = {
    '/plain': backend.url,
    '/slow': { target: backend.url, latency: 300 },
    '/failing': { target: backend.url, failRate: 1, failWith: 500, cors: true },
    '/flaky': { target: backend.url, failRate: 1 },
    '/reset': { target: backend.url, failRate: 1, failWith: 'reset' },
    '/paths': { target: backend.url, faults: { 'POST /users/:id': { failRate: 1, failWith: 418 } } },
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
