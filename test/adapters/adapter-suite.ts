import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { localhostCertificate, type TestCertificate } from '../support/tls.js'
import type { AdapterHarness, DevServerHandle } from './adapter-harness.js'
import { webSocketUrl } from './adapter-harness.js'
import {
  closeWebSocket,
  open,
  openWebSocket,
  rawExchange,
  readStream,
  roundTrip,
  send,
  sendHttp2,
} from './clients.js'
import {
  closedPort,
  type EchoBody,
  startTargetServer,
  TARGET_ALT_SVC,
  type TargetServer,
} from './target-server.js'

/** An origin outside every dev server's own default allow-list, allowed only by the `/cors-api` route. */
const APP_ORIGIN = 'https://app.example.com'
/** An origin Vite's default `server.cors` allows: a preflight from it proves Vite's answer was bypassed. */
const LOCAL_ORIGIN = 'http://localhost:5173'
/**
 * How long a log assertion waits for its line. A dev server in a child process (the config-file
 * harness) writes through a pipe, so a line may land after the response; the bound only turns a
 * missing line into a failure instead of a hang.
 */
const LOG_POLL = { timeout: 10_000 }

/** The dev server's startup lines (`[cors-dev-proxy] routes: ...`). */
function startupLines(server: DevServerHandle): string[] {
  return server.logs.filter((entry) => entry.includes('[cors-dev-proxy] routes: '))
}

/** The `prefix → target (options)` entries of a startup line, in the order printed. */
function routeEntries(line: string): string[] {
  return (line.split('[cors-dev-proxy] routes: ')[1] as string).trim().split(', ')
}

/**
 * The behaviour every adapter must have, run against real dev servers, a real target and real
 * clients. Written once; each adapter's test file calls it with its harness, and the matrix runs
 * it per dev-server version.
 */
export function describeAdapter(harness: AdapterHarness): void {
  describe(`${harness.name} over HTTP/1.1`, () => {
    let target: TargetServer
    let server: DevServerHandle
    let deadTarget: string

    beforeAll(async () => {
      target = await startTargetServer()
      deadTarget = `http://127.0.0.1:${await closedPort()}`
      server = await harness.start({
        routes: {
          '/api': target.url,
          '/cors-api': { target: target.url, cors: { origin: APP_ORIGIN } },
          '/socket': { target: target.url, ws: true },
          '/dead': deadTarget,
          '/stream': target.url,
        },
        options: { log: 'debug' },
      })
    })
    afterAll(async () => {
      await server?.close()
      await target?.close()
    })

    it('removes the prefix before forwarding', async () => {
      const res = await send(`${server.origin}/api/users?x=1`)
      expect(res.status).toBe(200)
      expect((JSON.parse(res.body) as EchoBody).url).toBe('/users?x=1')
      expect(target.requests.at(-1)?.url).toBe('/users?x=1')
    })

    it('does not match /api2 for the /api route', async () => {
      const before = target.requests.length
      const res = await send(`${server.origin}/api2/users`)
      expect(res.headers['x-answered-by'], JSON.stringify(target.requests.slice(before))).toBeUndefined()
      expect(target.requests.length).toBe(before)
    })

    it('adds X-Forwarded-For (appended) and X-Real-IP', async () => {
      const plain = JSON.parse((await send(`${server.origin}/api/who`)).body) as EchoBody
      expect(plain.headers['x-forwarded-for']).toBe('127.0.0.1')
      expect(plain.headers['x-real-ip']).toBe('127.0.0.1')
      expect(plain.headers['x-forwarded-proto']).toBe('http')

      const chained = await send(`${server.origin}/api/who`, {
        headers: { 'x-forwarded-for': '203.0.113.7' },
      })
      expect((JSON.parse(chained.body) as EchoBody).headers['x-forwarded-for']).toBe('203.0.113.7, 127.0.0.1')
    })

    it('answers the preflight of a PUT on a route with cors, then forwards the PUT with CORS headers', async () => {
      const before = target.requests.length
      const preflight = await send(`${server.origin}/cors-api/items/1`, {
        method: 'OPTIONS',
        headers: {
          origin: APP_ORIGIN,
          'access-control-request-method': 'PUT',
          'access-control-request-headers': 'content-type,x-trace',
        },
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers['access-control-allow-origin']).toBe(APP_ORIGIN)
      expect(String(preflight.headers['access-control-allow-methods'])).toContain('PUT')
      expect(String(preflight.headers['access-control-allow-headers'])).toContain('x-trace')
      expect(preflight.headers['x-answered-by']).toBeUndefined()
      expect(target.requests.length).toBe(before)

      const put = await send(`${server.origin}/cors-api/items/1`, {
        method: 'PUT',
        headers: { origin: APP_ORIGIN, 'content-type': 'application/json', 'x-trace': 'a' },
        body: '{"name":"x"}',
      })
      expect(put.status).toBe(200)
      expect(put.headers['access-control-allow-origin']).toBe(APP_ORIGIN)
      const echoed = JSON.parse(put.body) as EchoBody
      expect([echoed.method, echoed.url, echoed.body]).toEqual(['PUT', '/items/1', '{"name":"x"}'])
    })

    it('forwards the preflight of a PUT on a route without cors to the backend', async () => {
      const preflight = await send(`${server.origin}/api/items/1`, {
        method: 'OPTIONS',
        headers: { origin: LOCAL_ORIGIN, 'access-control-request-method': 'PUT' },
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers['x-answered-by']).toBe('target')
      expect(target.requests.at(-1)).toMatchObject({ method: 'OPTIONS', url: '/items/1' })

      const put = await send(`${server.origin}/api/items/1`, {
        method: 'PUT',
        headers: { origin: LOCAL_ORIGIN, 'content-type': 'application/json' },
        body: '[1]',
      })
      expect(put.status).toBe(200)
      expect(JSON.parse(put.body)).toMatchObject({ method: 'PUT', url: '/items/1', body: '[1]' })
    })

    it('answers CONNECT with 400 and never opens a tunnel', async () => {
      const before = target.requests.length
      const answer = await rawExchange(
        server.origin,
        `CONNECT 127.0.0.1:${new URL(target.url).port} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
      )
      expect(answer).toMatch(/^HTTP\/1\.1 400 /)
      expect(target.requests.length).toBe(before)
    })

    it('answers 502 with a body naming the target when the target is down', async () => {
      const text = await send(`${server.origin}/dead/x`, { headers: { accept: 'text/plain' } })
      expect(text.status).toBe(502)
      expect(text.body).toContain(deadTarget)

      const json = await send(`${server.origin}/dead/x`, { headers: { accept: 'application/json' } })
      expect(json.status).toBe(502)
      expect(JSON.stringify(JSON.parse(json.body))).toContain(deadTarget)
    })

    it('forwards WebSocket upgrades on a ws route, with the prefix removed', async () => {
      const { socket, first } = await openWebSocket(webSocketUrl(server, '/socket/chat?room=1'))
      try {
        expect(JSON.parse(first)).toMatchObject({ url: '/chat?room=1' })
        expect(await roundTrip(socket, 'ping')).toBe('ping')
      } finally {
        await closeWebSocket(socket)
      }
    })

    it('delivers each server-sent event as it is written, even to a client accepting gzip', async () => {
      const res = await open(`${server.origin}/stream/events`, {
        headers: { accept: 'text/event-stream', 'accept-encoding': 'gzip, deflate, br' },
      })
      expect(res.statusCode).toBe(200)
      // The target holds event 2 back until released: event 1 can only be read here if
      // nothing between the target and the client buffers the stream.
      const reader = readStream(res)
      expect(await reader.until('data: one')).not.toContain('data: two')
      target.releaseEvents()
      expect(await reader.rest()).toContain('data: two')
    })

    it('logs one startup line listing each route, with the options that differ from the defaults', async () => {
      await expect.poll(() => startupLines(server), LOG_POLL).toHaveLength(1)
      // In the order written (they are matched longest prefix first); plain routes show no options.
      expect(routeEntries(startupLines(server)[0] as string)).toEqual([
        `/api → ${target.url}`,
        `/cors-api → ${target.url} (cors)`,
        `/socket → ${target.url} (ws)`,
        `/dead → ${deadTarget}`,
        `/stream → ${target.url}`,
      ])
    })

    it('shows both hops of each request at debug level, in one format', async () => {
      await send(`${server.origin}/api/protocol-h1`)
      await expect
        .poll(() => server.logs.find((entry) => entry.includes('/api/protocol-h1')), LOG_POLL)
        .toMatch(
          new RegExp(
            `\\[cors-dev-proxy\\] h1\\.1 GET /api/protocol-h1 → ${target.url.replaceAll('.', '\\.')}/protocol-h1 200 \\d+ ms$`,
          ),
        )
    })

    it('points a redirect from the target back at the dev server, prefix back', async () => {
      const absolute = await send(`${server.origin}/api/redirect/absolute`)
      expect(absolute.status).toBe(302)
      expect(absolute.headers.location).toBe(`${server.origin}/api/posts`)
      const relative = await send(`${server.origin}/api/redirect/relative`)
      expect(relative.headers.location).toBe('/api/posts')
    })

    it("sends a same-origin call's Origin as the target's own, and any other Origin unchanged", async () => {
      const same = await send(`${server.origin}/api/origin`, { headers: { origin: server.origin } })
      expect((JSON.parse(same.body) as EchoBody).headers.origin).toBe(target.url)
      const other = await send(`${server.origin}/api/origin`, {
        headers: { origin: 'http://localhost:4000' },
      })
      expect((JSON.parse(other.body) as EchoBody).headers.origin).toBe('http://localhost:4000')
    })

    it("refuses a WebSocket upgrade whose Host the dev server's host check refuses (DNS rebinding)", async () => {
      const before = target.upgrades.length
      const answer = await rawExchange(
        server.origin,
        'GET /socket/chat HTTP/1.1\r\nHost: attacker.example\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      )
      expect(answer).toMatch(/^HTTP\/1\.1 403 /)
      expect(target.upgrades.length).toBe(before)
    })
  })

  describe(`${harness.name} over HTTP/2 (TLS)`, () => {
    let target: TargetServer
    let server: DevServerHandle
    let tls: TestCertificate

    beforeAll(async () => {
      tls = await localhostCertificate()
      target = await startTargetServer()
      server = await harness.start({
        routes: {
          '/api': target.url,
          '/cors-api': { target: target.url, cors: { origin: APP_ORIGIN } },
          '/socket': { target: target.url, ws: true },
        },
        options: { log: 'debug' },
        tls,
      })
    })
    afterAll(async () => {
      await server?.close()
      await target?.close()
    })

    it('proxies an HTTP/2 request to a target that sends Keep-Alive, and passes Alt-Svc on', async () => {
      const res = await sendHttp2(server.origin, '/api/users?x=1', { ca: tls.cert })
      expect(res.alpnProtocol).toBe('h2')
      expect(res.status).toBe(200)
      expect((JSON.parse(res.body) as EchoBody).url).toBe('/users?x=1')
      expect(res.headers['alt-svc']).toBe(TARGET_ALT_SVC)
      expect(res.headers['keep-alive']).toBeUndefined()
      expect(target.requests.at(-1)?.headers['keep-alive']).toBeUndefined()
    })

    it('answers a preflight on a cors route and forwards one on a plain route over HTTP/2', async () => {
      const local = await sendHttp2(server.origin, '/cors-api/items', {
        ca: tls.cert,
        method: 'OPTIONS',
        headers: { origin: APP_ORIGIN, 'access-control-request-method': 'PUT' },
      })
      expect(local.status).toBe(204)
      expect(local.headers['access-control-allow-origin']).toBe(APP_ORIGIN)

      const forwarded = await sendHttp2(server.origin, '/api/items', {
        ca: tls.cert,
        method: 'OPTIONS',
        headers: { origin: LOCAL_ORIGIN, 'access-control-request-method': 'PUT' },
      })
      expect(forwarded.headers['x-answered-by']).toBe('target')
    })

    it('still serves HTTP/1.1 clients on the same TLS port, with Alt-Svc', async () => {
      const res = await send(`${server.origin}/api/h1`, { ca: tls.cert })
      expect(res.httpVersion).toBe('1.1')
      expect(res.status).toBe(200)
      expect(res.headers['alt-svc']).toBe(TARGET_ALT_SVC)
    })

    it('forwards a secure WebSocket (wss:) upgrade', async () => {
      const { socket, first } = await openWebSocket(webSocketUrl(server, '/socket/tls'), { ca: tls.cert })
      try {
        expect(JSON.parse(first)).toMatchObject({ url: '/tls' })
        expect(await roundTrip(socket, 'over tls')).toBe('over tls')
      } finally {
        await closeWebSocket(socket)
      }
    })

    it('shows h2 for HTTP/2 requests at debug level', async () => {
      await sendHttp2(server.origin, '/api/protocol-h2', { ca: tls.cert })
      await expect
        .poll(() => server.logs.find((entry) => entry.includes('/api/protocol-h2')), LOG_POLL)
        .toMatch(
          /\[cors-dev-proxy\] h2 GET \/api\/protocol-h2 → http:\/\/127\.0\.0\.1:\d+\/protocol-h2 200 \d+ ms$/,
        )
    })
  })
}
