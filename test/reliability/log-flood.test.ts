import { createServer, Agent as HttpAgent, type IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveOptions } from '../../packages/core/src/config/resolve-options.js'
import { createLogger } from '../../packages/core/src/log/logger.js'
import { buildCorsDevProxy, type EngineProxy } from '../../packages/core/src/proxy/create-cors-dev-proxy.js'
import { captureLogSink, listen, type StartedServer, sendRequest } from '../support/servers.js'
import { type FrontEnd, startFrontEnd } from './harness/front-ends.js'
import { hostileRoutes } from './harness/hostile-routes.js'
import { rawExchange, rawRequest } from './harness/raw-http1.js'
import { type RecordingTarget, startRecordingTarget } from './harness/recording-target.js'

/**
 * Log floods: every log line a client can cause with each request (a forged `Origin`, a
 * refused WebSocket, a user function that throws on some input) is printed at most once per
 * route and cause every 10 s, with the count of what was folded on the next line of that
 * cause (`… and 299 more like it in the last 10 s`) or when the proxy closes. The core runs
 * on node:http with a logger whose clock the test moves, so the 10 s windows pass without
 * waiting. Refusals that log nothing (JSONP, refused hosts) are checked to stay silent.
 *
 * How it was checked to fail without the limiter: with `logger.limited` printing every line
 * (the window set to 0), the 300 forged origins print 300 reports (900 lines), the refused
 * upgrades 300 and the throwing pathFilter 300, and every `toHaveLength(1)` here fails.
 */

const N = 300

let time = 1_000_000
const sink = captureLogSink()
let target: RecordingTarget
let front: StartedServer<ReturnType<typeof createServer>>
let proxy: EngineProxy
const agent = new HttpAgent({ keepAlive: true, maxSockets: 10 })

beforeAll(async () => {
  target = await startRecordingTarget()
  const routes = {
    '/cors': { target: target.url, cors: true, ws: true },
    '/strict': { target: target.url, cors: { allowedHeaders: ['content-type'] } },
    '/plain': target.url,
    '/jsonp': { target: target.url, jsonp: true },
    '/gate': {
      target: target.url,
      pathFilter(path: string) {
        if (path.includes('boom')) throw new Error(`cannot filter ${path}`)
        return true
      },
    },
    '/hook': {
      target: target.url,
      // A user's hook whose error message carries the request's path: each request a new message.
      on: {
        proxyReq(_proxyReq: unknown, req: { url?: string }) {
          throw new Error(`cannot sign ${req.url}`)
        },
      },
    },
    '/fn': {
      target: target.url,
      cors: {
        // A user's origin function that trusts the header to be a URL: a forged one makes it throw.
        origin: (origin: string | undefined) => new URL(origin ?? '').hostname === 'localhost',
      },
    },
  }
  proxy = buildCorsDevProxy(resolveOptions(routes), createLogger('info', sink, { now: () => time }))
  const server = createServer((req, res) => proxy.middleware(req, res))
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!proxy.upgrade(req, socket, head)) socket.destroy()
  })
  front = await listen(server)
})

afterAll(async () => {
  agent.destroy()
  await front?.close()
  await target?.close()
})

/** Sends `count` requests, ten at a time, built by `make`; resolves with their statuses. */
async function flood(count: number, make: (index: number) => Promise<number>): Promise<number[]> {
  const statuses: number[] = []
  for (let index = 0; index < count; index += 10) {
    const batch = Array.from({ length: Math.min(10, count - index) }, (_, offset) => make(index + offset))
    statuses.push(...(await Promise.all(batch)))
  }
  return statuses
}

const get = (path: string, headers: Record<string, string> = {}) =>
  sendRequest(`${front.url}${path}`, { headers, agent }).then((answer) => answer.status)

/** The log calls (one per event, a report may span several lines) whose text contains `text`. */
const linesWith = (text: string) =>
  sink.lines.filter((line) => line.message.includes(text)).map((line) => line.message)

describe('forged origins on a route with cors', () => {
  it('print one report for 300 origins, then one with the fold count once 10 s have passed', async () => {
    const statuses = await flood(N, (index) => get('/cors/x', { origin: `http://forged-${index}.example` }))
    expect(statuses.every((status) => status === 200)).toBe(true)
    const reports = () => linesWith("route '/cors' has `cors`")
    expect(reports()).toHaveLength(1)
    expect(reports()[0]).toContain('from http://forged-0.example')
    expect(reports()[0]?.split('\n')).toHaveLength(3)
    time += 9_999
    await get('/cors/x', { origin: 'http://forged-late.example' })
    expect(reports()).toHaveLength(1)
    time += 1
    await get('/cors/x', { origin: 'http://forged-next.example' })
    expect(reports()).toHaveLength(2)
    expect(reports()[1]?.split('\n')[0]).toBe(
      "[cors-dev-proxy] GET /cors/x from http://forged-next.example: the browser will refuse this answer to the page (route '/cors' has `cors`, whose policy does not allow it) (… and 300 more like it in the last 10 s)",
    )
  })
})

describe('forged origins and headers on routes without cors, or with a strict list', () => {
  it('print one diagnosis for 300 origins the target does not allow', async () => {
    await flood(N, (index) => get('/plain/x', { origin: `http://forged-${index}.example` }))
    expect(linesWith("route '/plain' has no `cors`")).toHaveLength(1)
  })

  it('print one report for 300 preflights, each asking for another header', async () => {
    const statuses = await flood(N, (index) =>
      sendRequest(`${front.url}/strict/x`, {
        method: 'OPTIONS',
        agent,
        headers: {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'POST',
          'access-control-request-headers': `x-forged-${index}`,
        },
      }).then((answer) => answer.status),
    )
    expect(statuses.every((status) => status === 204)).toBe(true)
    expect(linesWith("route '/strict' has `cors`")).toHaveLength(1)
  })
})

describe('refused WebSocket upgrades', () => {
  it('print one line for 300 forged origins, and the fold count after the window', async () => {
    const upgrade = (origin: string) =>
      rawExchange(
        front.port,
        rawRequest('GET /cors/socket HTTP/1.1', [
          `Host: 127.0.0.1:${front.port}`,
          'Connection: Upgrade',
          'Upgrade: websocket',
          'Sec-WebSocket-Version: 13',
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
          `Origin: ${origin}`,
        ]),
      ).then((answer) => answer.status)
    const statuses = await flood(N, (index) => upgrade(`http://forged-${index}.example`))
    expect(statuses.every((status) => status === 403)).toBe(true)
    expect(target.upgrades).toEqual([])
    expect(linesWith('WebSocket /cors/socket from')).toHaveLength(1)
    time += 10_000
    expect(await upgrade('http://after.example')).toBe(403)
    const lines = linesWith('WebSocket /cors/socket from')
    expect(lines).toHaveLength(2)
    expect(lines[1]).toMatch(
      /from http:\/\/after\.example refused \(403\).*\(… and 299 more like it in the last 10 s\)$/,
    )
  })
})

describe("a user's function that throws on some requests", () => {
  it('prints one line for 300 paths that make pathFilter throw', async () => {
    const statuses = await flood(N, (index) => get(`/gate/boom-${index}`))
    expect(statuses.every((status) => status === 502)).toBe(true)
    expect(linesWith('pathFilter threw')).toHaveLength(1)
  })

  it('prints one line for 300 paths that make a proxyReq hook throw with the path in its message', async () => {
    // Before: the line was keyed by the hook's message, so every path opened a new line (300).
    const statuses = await flood(N, (index) => get(`/hook/sign-${index}`))
    expect(statuses.every((status) => status === 502)).toBe(true)
    expect(linesWith('on.proxyReq threw')).toHaveLength(1)
  })

  it('prints one line for 300 origins that make the origin function throw', async () => {
    const statuses = await flood(N, (index) => get('/fn/x', { origin: `forged ${index}` }))
    expect(statuses.every((status) => status === 500)).toBe(true)
    expect(linesWith('Invalid URL')).toHaveLength(1)
  })
})

describe('refusals that log nothing', () => {
  it('JSONP: 300 injected callbacks and 300 POSTs are answered 400 and 405 without a line', async () => {
    const before = sink.lines.length
    const injected = await flood(N, (index) => get(`/jsonp/x?callback=alert(${index})//`))
    const posts = await flood(N, () =>
      sendRequest(`${front.url}/jsonp/x?callback=cb`, { method: 'POST', agent }).then(
        (answer) => answer.status,
      ),
    )
    expect(injected.every((status) => status === 400)).toBe(true)
    expect(posts.every((status) => status === 405)).toBe(true)
    expect(sink.lines.slice(before)).toEqual([])
  })
})

describe('closing the proxy', () => {
  it('sums up what is still folded, once per cause', async () => {
    // The last report of '/cors' is 10 s old: the first of these prints, the nine others fold.
    await flood(10, (index) => get('/cors/x', { origin: `http://forged-close-${index}.example` }))
    time += 3_000
    const before = sink.lines.length
    await proxy.close()
    const summaries = sink.lines.slice(before).map((line) => line.message)
    expect(summaries).toContainEqual(
      expect.stringMatching(
        /^\[cors-dev-proxy\] GET \/cors\/x from http:\/\/forged-close-\d\.example: .*\(… and 9 more like it in the last 3 s\)$/,
      ),
    )
    // One summary per cause that folded lines since its last line, never one per origin: the
    // '/plain', '/strict', '/gate', '/hook' and '/fn' causes, and '/cors'.
    expect(summaries).toHaveLength(6)
  })
})

describe('serve: refused hosts', () => {
  let serve: FrontEnd

  beforeAll(async () => {
    serve = await startFrontEnd('serve', { routes: hostileRoutes(target) })
  }, 30_000)

  afterAll(async () => {
    await serve?.close()
  })

  it('answers 300 forged Hosts, on HTTP and on upgrades, 403 without a log line', async () => {
    const before = serve.logs().length
    const forged = (index: number, upgrade: boolean) =>
      rawExchange(
        serve.port,
        rawRequest(`GET /api/${upgrade ? 'socket' : 'x'} HTTP/1.1`, [
          `Host: rebound-${index}.example`,
          ...(upgrade
            ? [
                'Connection: Upgrade',
                'Upgrade: websocket',
                'Sec-WebSocket-Version: 13',
                'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
              ]
            : []),
        ]),
      ).then((answer) => answer.status)
    const statuses = [
      ...(await flood(N, (index) => forged(index, false))),
      ...(await flood(N, (index) => forged(index, true))),
    ]
    expect(statuses.every((status) => status === 403)).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(
      serve
        .logs()
        .slice(before)
        .filter((line) => line.trim() !== ''),
    ).toEqual([])
  })
})
