import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningProxy, serveProxy } from '../support/proxy-server.js'
import { captureLogSink, listen, type StartedServer, sendRequest } from '../support/servers.js'

/**
 * The route's `timeout` on a timer of its own. undici's `headersTimeout` ticks every 499 ms, so a
 * 1000 ms timeout fired anywhere between 1.0 and 1.5 s (measured: 1093 to 1511 ms over six
 * requests spread across one tick). Six requests started 83 ms apart cover a whole tick, so with
 * undici's timer some of them come back after 1400 ms (checked by putting undici's
 * `headersTimeout: route.timeout` back and disabling the relay's own timer: one came at 1522 ms).
 * 950 to 1400 ms holds on a loaded 2-core machine: a native timer is late by milliseconds. Beside
 * a second CPU-bound process this process's own timers run late by hundreds of milliseconds (2085
 * and 3296 ms were measured), so the upper bound grows by how late a timer of the same length,
 * started in this process with the request, fired: the proxy's timer can be no earlier than that.
 */

type Handler = (req: IncomingMessage, res: ServerResponse) => void

/** How many milliseconds late a `ms` timer started now fires: the event loop's own delay, measured. */
function lateness(ms: number): Promise<number> {
  const start = performance.now()
  return new Promise((resolve) => setTimeout(() => resolve(performance.now() - start - ms), ms))
}

const TIMEOUT = 1_000
let target: StartedServer<ReturnType<typeof createServer>>
let proxy: RunningProxy
const sink = captureLogSink()
const handlers = new Map<string, Handler>()
const hanging: Socket[] = []

beforeAll(async () => {
  target = await listen(
    createServer((req, res) => {
      // Anything not listed hangs: never a byte of an answer.
      const handler = handlers.get(req.url ?? '')
      if (handler) handler(req, res)
      else hanging.push(req.socket)
    }),
  )
  proxy = await serveProxy({ '/api': { target: target.url, timeout: TIMEOUT } }, { logger: sink })
})

afterAll(async () => {
  await proxy?.close()
  await target?.close()
})

describe("the route's timeout", () => {
  it('answers 504 between 950 and 1400 ms for a 1000 ms timeout, whenever the request starts', async () => {
    const results = await Promise.all(
      [0, 1, 2, 3, 4, 5].map(async (i) => {
        await new Promise((resolve) => setTimeout(resolve, i * 83))
        const start = performance.now()
        const late = lateness(TIMEOUT)
        const res = await sendRequest(`${proxy.url}/api/hang-${i}`)
        return {
          status: res.status,
          body: res.body.toString(),
          ms: performance.now() - start,
          late: await late,
        }
      }),
    )
    for (const result of results) {
      expect(result.status).toBe(504)
      expect(result.body).toContain(`no response within ${TIMEOUT} ms`)
      expect(result.ms).toBeGreaterThanOrEqual(950)
      expect(result.ms).toBeLessThanOrEqual(1_400 + result.late)
    }
    // The timed-out requests' connections are dropped, not left open on the target. (undici then
    // opens one spare connection per aborted request, which its keep-alive timeout closes: its
    // issue 5845.)
    expect(hanging).toHaveLength(6)
    await expect.poll(() => hanging.filter((socket) => !socket.destroyed).length, { timeout: 20_000 }).toBe(0)
  })

  it('stops counting at the head: a body slower than the timeout arrives whole', async () => {
    handlers.set('/slow-body', (_req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).write('head in time, '), 600)
      setTimeout(() => res.end('body after the timeout'), 600 + TIMEOUT)
    })
    const res = await sendRequest(`${proxy.url}/api/slow-body`)
    expect(res.status).toBe(200)
    expect(res.body.toString()).toBe('head in time, body after the timeout')
  })

  it('holds on a route with transformResponse: 504 on time, and a slow body arrives transformed whole', async () => {
    const transformed = await serveProxy(
      {
        '/api': {
          target: target.url,
          timeout: TIMEOUT,
          transformResponse: (body) => body.toString().toUpperCase(),
        },
      },
      { logger: captureLogSink() },
    )
    try {
      const start = performance.now()
      const late = lateness(TIMEOUT)
      const hung = await sendRequest(`${transformed.url}/api/hang-transformed`)
      const ms = performance.now() - start
      expect(hung.status).toBe(504)
      expect(hung.body.toString()).toContain(`no response within ${TIMEOUT} ms`)
      expect(ms).toBeGreaterThanOrEqual(950)
      expect(ms).toBeLessThanOrEqual(1_400 + (await late))
      const slow = await sendRequest(`${transformed.url}/api/slow-body`)
      expect(slow.status).toBe(200)
      expect(slow.body.toString()).toBe('HEAD IN TIME, BODY AFTER THE TIMEOUT')
    } finally {
      await transformed.close()
    }
  })

  it('logs one line for the cause', () => {
    expect(sink.lines.filter((line) => line.message.includes('no response within'))).toHaveLength(1)
  })
})
