import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig, type RunningMockBackend, startMockBackend } from '@cors-dev-proxy/core'
import { resolveOptions } from '@cors-dev-proxy/core/adapter'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spkiSha256 } from '../../packages/cli/src/serve/certificate.js'
import { findProgram } from '../../packages/cli/src/serve/find-program.js'
import { type RunningServe, startServe } from '../../packages/cli/src/serve/start-serve.js'
import { launchQuicChromium } from '../support/browser.js'
import { refusedUrl } from '../support/refused-port.js'
import { programRequirement, skipUnmet } from '../support/requirement.js'

/*
 * The route suite over HTTP/3 and over HTTP/2, in Chromium: one configuration served twice by
 * `serve`, once with `--http3` (Caddy in front, QUIC forced on its origin) and once with `--https`
 * (HTTP/2), and the same calls made from a page on each (and from a page of another origin, for
 * CORS). What each call observed must be the same, ports aside; only the protocol differs.
 */

const caddy = findProgram('caddy')
const skip = skipUnmet('route parity over h3', programRequirement('caddy', caddy, 'caddy'))

type Observation = Record<string, unknown>

/** One call, run in the page: everything it returns is compared between h3 and h2. */
interface BrowserCheck {
  readonly name: string
  /** Runs in the page at `base` (the server under test); `origin` is that server's origin. */
  run(page: Page, origin: string): Promise<Observation>
  /** Fields the h2 run must show, so a mistake both share fails too. */
  readonly expected: Observation
}

/** `fetch(path, init)` in the page: status, chosen headers, JSON or text body, and the protocol. */
function fetchCheck(
  name: string,
  path: string,
  init: RequestInit,
  expected: Observation,
  pick: (body: Record<string, unknown>) => Observation = (body) => ({ echo: body }),
): BrowserCheck {
  return {
    name,
    expected,
    async run(page, origin) {
      const seen = await page.evaluate(
        async ({ url, init }) => {
          const answer = await fetch(url, init)
          const text = await answer.text()
          const entries = performance.getEntriesByName(answer.url) as PerformanceResourceTiming[]
          const headers: Record<string, string> = {}
          for (const name of ['content-type', 'access-control-allow-origin', 'x-total', 'location', 'vary'])
            if (answer.headers.has(name)) headers[name] = answer.headers.get(name) as string
          return { status: answer.status, headers, text, protocol: entries.at(-1)?.nextHopProtocol }
        },
        { url: `${origin}${path}`, init },
      )
      let body: Record<string, unknown>
      try {
        body = JSON.parse(seen.text)
      } catch {
        body = { text: seen.text.slice(0, 200) }
      }
      return { status: seen.status, headers: seen.headers, ...pick(body), protocol: seen.protocol }
    },
  }
}

/** The echo without what differs by nature between two servers (their ports in Host). */
const echoOf = (body: Record<string, unknown>) => {
  const { headers, ...rest } = body as { headers: Record<string, string> }
  const { host: _host, ...kept } = headers ?? {}
  return { echo: rest, 'echo headers': kept }
}

const CHECKS: readonly BrowserCheck[] = [
  fetchCheck('prefix removed, query kept', '/api/users/7?x=1&y=a%20b', {}, { status: 200 }, echoOf),
  fetchCheck(
    'a JSON POST, body and content-type forwarded',
    '/api/items',
    { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } },
    { status: 200 },
    echoOf,
  ),
  fetchCheck('longest prefix wins, base path and fixed header', '/api/v2/items', {}, { status: 200 }, echoOf),
  fetchCheck('pathRewrite: false keeps the prefix', '/keep/a?b=1', {}, { status: 200 }, echoOf),
  fetchCheck('a proxyReq hook adds a header', '/hooked/x', {}, { status: 200 }, echoOf),
  fetchCheck(
    'an in-process mock route',
    '/mock/anything?q=1',
    { method: 'PUT', body: 'x' },
    { status: 200 },
    echoOf,
  ),
  fetchCheck('a dead target is a 502 naming it', '/dead/x', {}, { status: 502 }, (body) => ({
    text: String(body.text ?? body.error ?? JSON.stringify(body)).replace(/:\d+/g, ':<port>'),
  })),
  fetchCheck('a slow target is a 504', '/slow/x?delay=1500', {}, { status: 504 }, () => ({})),
  fetchCheck(
    'a redirect to the target comes back through the proxy',
    '/api/r?redirect=/next',
    { redirect: 'follow' },
    { status: 200 },
    echoOf,
  ),
  fetchCheck(
    'cookies set and read through the proxy',
    '/api/cookie?set=session=abc',
    {},
    { status: 200 },
    (body) => ({
      cookie: body,
    }),
  ),
  {
    name: 'server-sent events arrive, one by one, and the stream ends',
    expected: { ids: ['1', '2', '3'] },
    async run(page, origin) {
      return page.evaluate(
        (url) =>
          new Promise<Observation>((resolve) => {
            const ids: string[] = []
            const source = new EventSource(url)
            source.onmessage = (event) => {
              ids.push(event.lastEventId)
              if (ids.length === 3) {
                source.close()
                resolve({ ids })
              }
            }
            source.onerror = () => {
              source.close()
              resolve({ ids, error: true })
            }
          }),
        `${origin}/api/events?count=3&interval=20`,
      )
    },
  },
  {
    name: 'a WebSocket echo on a ws route',
    expected: { echoed: 'hello' },
    async run(page, origin) {
      return page.evaluate(
        (url) =>
          new Promise<Observation>((resolve) => {
            const socket = new WebSocket(url)
            socket.onopen = () => socket.send('hello')
            socket.onmessage = (event) => {
              socket.close()
              resolve({ echoed: String(event.data) })
            }
            socket.onerror = () => resolve({ error: true })
          }),
        `${origin.replace('https:', 'wss:')}/live/ws`,
      )
    },
  },
]

/** The same calls from a page of another origin: CORS answered by the route's policy. */
const CROSS_ORIGIN: readonly BrowserCheck[] = [
  fetchCheck(
    'a credentialed cross-origin GET, readable by the page',
    '/api/users?x=1',
    { credentials: 'include' },
    // The browser let the script read it: the route's CORS answer admitted the page.
    { status: 200, echo: { origin: '<page>', method: 'GET' } },
    echoOf,
  ),
  fetchCheck(
    'a preflighted cross-origin PUT with a custom header',
    '/api/items/1',
    { method: 'PUT', body: 'x', headers: { 'x-custom': 'yes' } },
    { status: 200 },
    echoOf,
  ),
]

describe.skipIf(skip)('routes behave alike over HTTP/3 and HTTP/2, in Chromium', () => {
  let backend: RunningMockBackend
  let project: string
  let h3: RunningServe
  let h2: RunningServe
  let pageServer: Server
  let pageOrigin: string
  let browser: Browser
  const seen = new Map<string, { h3: Observation; h2: Observation }>()

  beforeAll(async () => {
    backend = await startMockBackend()
    project = mkdtempSync(join(tmpdir(), 'cdp-parity-h3-'))
    mkdirSync(join(project, 'node_modules'))
    const target = backend.origin
    const config = defineConfig({
      routes: {
        '/api': { target, ws: true, cors: { credentials: true, exposedHeaders: ['x-total'] } },
        '/api/v2': { target: `${target}/v2`, headers: { 'x-token': 'fixed' } },
        '/keep': { target, pathRewrite: false },
        '/hooked': { target, on: { proxyReq: (proxyReq) => proxyReq.setHeader('x-hooked', 'yes') } },
        '/mock': { mock: true },
        '/live': { target, ws: true },
        '/slow': { target, timeout: 300 },
        '/dead': await refusedUrl(),
      },
      log: 'silent',
    })
    const resolved = resolveOptions(config)
    const common = { resolved, port: 0, host: '127.0.0.1', cwd: project }
    h3 = await startServe({ ...common, http3: { caddy: caddy as string } })
    h2 = await startServe({ ...common, https: true })
    pageServer = createServer((_req, res) => res.end('<!doctype html><title>page</title>'))
    await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve))
    pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`
    const spki = spkiSha256(h3.certificate?.cert ?? '')
    browser = await launchQuicChromium({ forceQuicOn: [`localhost:${h3.port}`], spki })

    const origins = { h3: `https://localhost:${h3.port}`, h2: `https://localhost:${h2.port}` }
    for (const protocol of ['h3', 'h2'] as const) {
      // A context per protocol: cookies are per host, not per port, and would leak across runs.
      const context = await browser.newContext()
      try {
        const page = await context.newPage()
        await page.goto(`${origins[protocol]}/mock/page`)
        const cross = await context.newPage()
        await cross.goto(`${pageOrigin}/`)
        // A cross-origin entry's nextHopProtocol is empty (no Timing-Allow-Origin): the
        // protocol of each answer is read from the DevTools protocol instead.
        const devtools = await context.newCDPSession(cross)
        const crossProtocols = new Map<string, string>()
        devtools.on('Network.responseReceived', (event) => {
          crossProtocols.set(new URL(event.response.url).pathname, event.response.protocol ?? '')
        })
        await devtools.send('Network.enable')
        for (const check of CHECKS) {
          const observation = await check.run(page, origins[protocol])
          seen.set(check.name, { ...seen.get(check.name), [protocol]: observation } as never)
        }
        for (const check of CROSS_ORIGIN) {
          const seenHere = await check.run(cross, origins[protocol])
          const path = String((seenHere.echo as { path?: string } | undefined)?.path ?? '')
          const observation = { ...seenHere, protocol: crossProtocols.get(`/api${path}`) }
          seen.set(check.name, { ...seen.get(check.name), [protocol]: observation } as never)
        }
      } finally {
        await context.close()
      }
    }
  }, 90_000)

  afterAll(async () => {
    await browser?.close()
    await h3?.close(0)
    await h2?.close(0)
    await new Promise((resolve) => pageServer?.close(resolve))
    await backend?.close()
    if (project) rmSync(project, { recursive: true, force: true })
  })

  /** The observation with its server's port and the page's origin written as placeholders. */
  function normalize(observation: Observation, port: number): Observation {
    const text = JSON.stringify(observation)
      .replaceAll(`localhost:${port}`, '<server>')
      .replaceAll(`"${port}"`, '"<server port>"')
      .replaceAll(pageOrigin, '<page>')
      .replaceAll(new URL(backend.origin).host, '<backend>')
      // Chromium reaches `localhost` over ::1 where the server listens there (the h3 front does,
      // for QUIC) and over 127.0.0.1 otherwise: both are this machine, and the address is the true one.
      .replaceAll('"::1"', '"<loopback>"')
      .replaceAll('"127.0.0.1"', '"<loopback>"')
    return JSON.parse(text)
  }

  it.each([...CHECKS, ...CROSS_ORIGIN].map((check) => [check.name, check] as const))('%s', (name, check) => {
    const both = seen.get(name)
    const over3 = normalize(both?.h3 ?? {}, h3.port)
    const over2 = normalize(both?.h2 ?? {}, h2.port)
    expect(over2).toMatchObject(check.expected)
    if ('protocol' in over3) {
      expect(over3.protocol, 'the h3 run').toBe('h3')
      expect(over2.protocol, 'the h2 run').toBe('h2')
    }
    const { protocol: _a, ...rest3 } = over3
    const { protocol: _b, ...rest2 } = over2
    expect(rest3).toEqual(rest2)
  })
})
