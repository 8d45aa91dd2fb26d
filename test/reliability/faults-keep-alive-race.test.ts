import { request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { resolveOptions } from '../../packages/core/src/config/resolve-options.js'
import type { ResolvedForwardRoute } from '../../packages/core/src/config/resolved-route.js'
import { createUpstreamPool } from '../../packages/core/src/forward/upstream-pool.js'
import { type RunningProxy, serveProxy } from '../support/proxy-server.js'
import { collectBody, sendRequest } from '../support/servers.js'
import { idleClosingTarget } from './support/idle-closing-target.js'
import { onRequestHeads, type RawTarget, rawTarget } from './support/raw-target.js'

/**
 * The keep-alive race (RFC 9112 section 9.3.1): a target that closes idle connections without a
 * `Keep-Alive: timeout=` hint may close one at the instant the proxy writes the next request on
 * it, and the request failed with 502 "connection closed by the server".
 *
 * - A target that closes every kept-alive connection when its second request arrives makes the
 *   race happen every time: idempotent requests are sent once more on a fresh connection, POST
 *   and PATCH and streamed bodies never are (without `mayRetry` in the forwarder's `retried`, every
 *   reused connection gave a 502: checked by returning `false` from `isReplayable`).
 * - A target with a 30 ms idle timeout, asked every 25 to 35 ms: 200 requests without a 502
 *   (faults-keep-alive-idle.test.ts, an integration test: the pauses take 6 s).
 *   The pool learns the timeout from the idle closes and stops reusing connections before it,
 *   and the retry covers what the learning misses. With neither (`isReplayable` returning
 *   `false`, `onIdleClose` ignoring what it is told) 4 of the 200 were 502; either one alone
 *   passes. The learning alone is checked on the pool (ignoring `onIdleClose`, the timeout
 *   stayed 4000 ms).
 */

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

const ok = (text: string) =>
  `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${text.length}\r\n\r\n${text}`

/**
 * Answers the first request of each connection and closes the connection when a second one
 * arrives, unanswered: what a target closing an idle connection does when the request crosses
 * its close. `how` picks a clean close (FIN) or a reset (RST).
 */
async function racingTarget(how: 'end' | 'reset') {
  const seen: string[] = []
  const target = await rawTarget((socket) => {
    let requests = 0
    onRequestHeads(socket, (head) => {
      const method = head.slice(0, head.indexOf(' '))
      seen.push(method)
      requests += 1
      if (requests === 1) socket.write(ok(method))
      else if (how === 'end') socket.destroy()
      else socket.resetAndDestroy()
    })
  })
  cleanup.push(target.close)
  return { target, seen }
}

async function startProxy(target: RawTarget): Promise<RunningProxy> {
  const proxy = await serveProxy({ '/api': target.url }, { log: 'silent' })
  cleanup.push(proxy.close)
  return proxy
}

/** Sends `method` with a body streamed in two writes (never replayable), reads the answer. */
function sendStreamed(url: string, method: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: false, headers: { 'transfer-encoding': 'chunked' } })
    req.once('error', reject)
    req.once('response', (res) => {
      res.resume()
      res.once('end', () => resolve(res.statusCode ?? 0))
    })
    req.write('part one, ')
    setTimeout(() => req.end('part two'), 5)
  })
}

describe.each(['end', 'reset'] as const)('a kept-alive connection closed (%s) under the request', (how) => {
  it('sends GET, HEAD, OPTIONS, PUT, DELETE and TRACE once more, on a fresh connection', async () => {
    const { target, seen } = await racingTarget(how)
    const proxy = await startProxy(target)
    const methods = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']
    for (const method of methods) {
      // The warm-up leaves a connection that has served one request: the next one races.
      expect((await sendRequest(`${proxy.url}/api/warm`)).status).toBe(200)
      const res = await sendRequest(`${proxy.url}/api/x`, { method })
      expect(res.status, method).toBe(200)
      expect(res.body.toString()).toBe(method === 'HEAD' ? '' : method)
    }
    // Each sent twice: once on the reused connection, once on a fresh one.
    expect(seen).toEqual(methods.flatMap((method) => ['GET', method, method]))
  })

  it('never sends POST or PATCH twice, nor a streamed body: the client gets the 502', async () => {
    const { target, seen } = await racingTarget(how)
    const proxy = await startProxy(target)
    for (const method of ['POST', 'PATCH']) {
      expect((await sendRequest(`${proxy.url}/api/warm`)).status).toBe(200)
      const res = await sendRequest(`${proxy.url}/api/x`, { method, body: 'once only' })
      expect(res.status, method).toBe(502)
      expect(res.body.toString()).toContain('connection closed by the server')
    }
    expect((await sendRequest(`${proxy.url}/api/warm`)).status).toBe(200)
    expect(await sendStreamed(`${proxy.url}/api/x`, 'PUT')).toBe(502)
    // The warm-up GETs found a fresh connection each time (the race closed the last one).
    expect(seen).toEqual(['GET', 'POST', 'GET', 'PATCH', 'GET', 'PUT'])
  })
})

/** Resolves once `done()` holds, checked every 5 ms; rejects after `ms`. */
async function until(done: () => boolean, ms: number): Promise<void> {
  const deadline = performance.now() + ms
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`not done in ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe('a target that closes idle connections after 30 ms, without saying so', () => {
  it('learns the timeout from two idle closes and keeps idle connections half as long', async () => {
    const { target, raced, idleCloses } = await idleClosingTarget(30)
    cleanup.push(target.close)
    const [route] = resolveOptions({ '/api': target.url }).routes as ResolvedForwardRoute[]
    if (route === undefined) throw new Error('one route')
    const pool = createUpstreamPool()
    cleanup.push(() => pool.close())
    const get = async () => {
      const res = await pool.poolFor(route).request({ path: '/', method: 'GET' })
      await collectBody(res.body)
    }
    expect(pool.keepAliveTimeoutFor(route)).toBe(4_000)
    const first = pool.poolFor(route)
    // Each request's connection idles until the target closes it. Two closes that agree teach
    // the timeout; on a loaded machine a late timer can make two disagree, so this goes on (at
    // most 20 times) until the pool has learned, waiting for each close itself.
    for (let i = 0; i < 20 && pool.keepAliveTimeoutFor(route) === 4_000; i++) {
      const closes = idleCloses()
      await get()
      await until(() => idleCloses() > closes, 20_000)
      // The proxy's side sees the close a moment after the target made it.
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const learned = pool.keepAliveTimeoutFor(route)
    expect(learned).toBeGreaterThanOrEqual(12)
    // Below the target's 30 ms, whatever a late timer added to the idle times measured.
    expect(learned).toBeLessThan(30)
    // A new pool with the learned timeout serves the target from now on.
    expect(pool.poolFor(route)).not.toBe(first)
    // Asked just before the target's timeout: the pool has dropped the connection already.
    for (let i = 0; i < 20; i++) {
      await get()
      await new Promise((resolve) => setTimeout(resolve, 27))
    }
    expect(raced()).toBe(0)
  })
})
