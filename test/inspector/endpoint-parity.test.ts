import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CorsDevProxyOptions, Routes } from '@cors-dev-proxy/core'
import { createCorsDevProxy } from '@cors-dev-proxy/core'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startVite } from '../adapters/vite-server.ts'
import { startWebpackDevServer } from '../adapters/webpack-server.ts'
import { listen } from '../support/servers.ts'
import { startPlainBackend } from './backend.ts'
import { useChromiumAnd } from './chromium-and-backend.ts'
import { startFetchApp } from './fetch-app.ts'

/**
 * One assembly, many front ends: the same routes (a plain one, one with `mocks`, one with
 * `replay: 'only'`, one with `latency`) through `createCorsDevProxy`'s middleware on node:http,
 * Vite, webpack-dev-server and the Fetch handler on @hono/node-server find the same endpoints
 * under `/__cors-dev-proxy/` answering with the same statuses; and in Chromium, a page with the
 * overlay and the inspector page on each make no request of ours that fails.
 */

/** A page with the overlay's client, for the front ends that inject none (node:http, webpack's static). */
const PAGE =
  '<!doctype html><title>parity</title><script type="module" src="/__cors-dev-proxy/client.js"></script><p>app</p>'

interface Front {
  readonly origin: string
  close(): Promise<void>
}

/** `createCorsDevProxy`'s middleware on a node:http server, the page for what it passes on. */
async function startNodeMiddleware(routes: Routes, options: CorsDevProxyOptions): Promise<Front> {
  const proxy = createCorsDevProxy(routes, { log: 'silent', ...options })
  const server = createServer((req, res) =>
    proxy.middleware(req, res, () => {
      res.setHeader('content-type', 'text/html; charset=utf-8')
      res.end(PAGE)
    }),
  )
  const listening = await listen(server)
  return {
    origin: listening.url,
    async close() {
      await listening.close()
      await proxy.close()
    },
  }
}

/** webpack-dev-server serving a static page that loads the bundle (which carries the overlay). */
async function startWebpack(routes: Routes, options: CorsDevProxyOptions): Promise<Front> {
  const site = await mkdtemp(join(tmpdir(), 'cdp-parity-webpack-'))
  await writeFile(
    join(site, 'index.html'),
    '<!doctype html><title>static</title><script src="/main.js"></script>',
  )
  const server = await startWebpackDevServer({
    routes,
    options: { log: 'silent', ...options },
    devServer: { static: { directory: site }, client: false, hot: false, liveReload: false },
  })
  return {
    origin: server.origin,
    async close() {
      await server.close()
      await rm(site, { recursive: true, force: true })
    },
  }
}

const FRONTS: readonly [string, (routes: Routes, options: CorsDevProxyOptions) => Promise<Front>][] = [
  ["createCorsDevProxy's middleware", startNodeMiddleware],
  ['Vite', (routes, options) => startVite({ routes, options: { log: 'silent', ...options } })],
  ['webpack-dev-server', startWebpack],
  ['the Fetch handler', (routes, options) => startFetchApp(routes, options)],
]

/** One request under `/__cors-dev-proxy/` and the status every front end answers it with. */
interface Probe {
  readonly name: string
  readonly method: string
  readonly path: string
  readonly body?: string
  readonly type?: string
}

const PROBES: readonly Probe[] = [
  { name: 'page', method: 'GET', path: '/' },
  { name: 'page without slash', method: 'GET', path: '' },
  { name: 'page script', method: 'GET', path: '/inspector.js' },
  { name: 'client.js', method: 'GET', path: '/client.js' },
  { name: 'exchanges', method: 'GET', path: '/exchanges' },
  { name: 'events', method: 'GET', path: '/events' },
  { name: 'HAR', method: 'GET', path: '/har' },
  { name: 'explanations', method: 'GET', path: '/explanations' },
  { name: 'explain, malformed', method: 'POST', path: '/explain', body: '{}', type: 'application/json' },
  { name: 'control', method: 'GET', path: '/control' },
  { name: 'control, not JSON', method: 'POST', path: '/control', body: 'x', type: 'text/plain' },
  { name: 'mock', method: 'GET', path: '/mock' },
  { name: 'mock, not JSON', method: 'POST', path: '/mock', body: 'x', type: 'text/plain' },
  { name: 'replay of nothing', method: 'POST', path: '/replay/999999' },
  { name: 'nothing there', method: 'GET', path: '/nothing' },
]

/** What every front end answers with default options. */
const DEFAULT_STATUSES: Record<string, number> = {
  page: 200,
  'page without slash': 200,
  'page script': 200,
  'client.js': 200,
  exchanges: 200,
  events: 200,
  HAR: 200,
  explanations: 200,
  'explain, malformed': 400,
  control: 200,
  'control, not JSON': 415,
  mock: 200,
  'mock, not JSON': 415,
  'replay of nothing': 404,
  'nothing there': 404,
}

/** With `inspector: false`: the page says it is off, the overlay and the switches stay, the inspector's own are gone. */
const INSPECTOR_OFF_STATUSES: Record<string, number> = {
  ...DEFAULT_STATUSES,
  'page script': 404,
  exchanges: 404,
  events: 404,
  HAR: 404,
  explanations: 404,
  mock: 404,
  'mock, not JSON': 404,
}

/** The status of one probe, as a same-origin page would send it; the event stream is left at its head. */
function statusOf(origin: string, probe: Probe): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'sec-fetch-site': 'same-origin' }
    if (probe.method === 'POST') headers.origin = origin
    if (probe.type !== undefined) headers['content-type'] = probe.type
    const req = request(
      `${origin}/__cors-dev-proxy${probe.path}`,
      { method: probe.method, headers },
      (res) => {
        resolve(res.statusCode ?? 0)
        res.destroy()
      },
    )
    req.on('error', reject)
    req.end(probe.body)
  })
}

async function statusesOf(origin: string): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {}
  for (const probe of PROBES) statuses[probe.name] = await statusOf(origin, probe)
  return statuses
}

/** Our requests in one page's life that failed or were answered 400 or more. */
function watchOwnRequests(page: Page, leaving: () => boolean = () => false): string[] {
  const failed: string[] = []
  const ours = (url: string) => new URL(url).pathname.startsWith('/__cors-dev-proxy')
  page.on('requestfailed', (req) => {
    if (!ours(req.url())) return
    const line = `${req.method()} ${req.url()}: ${req.failure()?.errorText}`
    // A poll in flight when the test itself navigates away is cut by the browser, not failed by
    // us (on a loaded machine the control panel's poll can still be waiting then).
    if (leaving() && req.failure()?.errorText === 'net::ERR_ABORTED') return
    // The inspector's event stream, answered 200 and cut when the page goes: known, not a failure.
    void req.response().then((response) => {
      const cut = new URL(req.url()).pathname === '/__cors-dev-proxy/events' && response?.status() === 200
      if (!cut) failed.push(line)
    })
  })
  page.on('response', (response) => {
    if (ours(response.url()) && response.status() >= 400)
      failed.push(`${response.request().method()} ${response.url()}: ${response.status()}`)
  })
  return failed
}

describe('the same endpoints under /__cors-dev-proxy/ on every front end', () => {
  const env = useChromiumAnd(startPlainBackend)
  let recordings: string
  beforeAll(async () => {
    recordings = await mkdtemp(join(tmpdir(), 'cdp-parity-recordings-'))
  })
  afterAll(async () => {
    await rm(recordings, { recursive: true, force: true })
  })

  const routes = (): Routes => ({
    '/plain': env.backend.url,
    '/mocked': { target: env.backend.url, mocks: { 'GET /hello': { json: { hello: 1 } } } },
    '/replayed': { target: env.backend.url, replay: 'only' },
    '/slow': { target: env.backend.url, latency: 5 },
  })
  const options = (): CorsDevProxyOptions => ({ recordings: { dir: recordings } })

  test.each(FRONTS)(
    '%s: the listed statuses, with default options and with inspector: false',
    async (_name, start) => {
      const front = await start(routes(), options())
      try {
        expect(await statusesOf(front.origin)).toEqual(DEFAULT_STATUSES)
      } finally {
        await front.close()
      }
      const off = await start(routes(), { ...options(), inspector: false })
      try {
        expect(await statusesOf(off.origin)).toEqual(INSPECTOR_OFF_STATUSES)
      } finally {
        await off.close()
      }
    },
    90_000,
  )

  test.each(FRONTS)(
    '%s: a page with the overlay, then the inspector, make no failed request of ours',
    async (_name, start) => {
      const front = await start(routes(), options())
      const context = await env.browser.newContext()
      try {
        const page = await context.newPage()
        let leaving = false
        const failed = watchOwnRequests(page, () => leaving)
        await page.goto(`${front.origin}/`)
        await page.waitForFunction(
          () => (window as unknown as Record<string, unknown>).__corsDevProxyClient === true,
        )
        // A call through each route, then long enough for the badge's first poll (latency is on).
        await page.evaluate(() =>
          Promise.all(
            ['/plain/x', '/mocked/hello', '/replayed/x', '/slow/x'].map((path) =>
              fetch(path).then((r) => r.text()),
            ),
          ),
        )
        await page.waitForTimeout(2500)
        leaving = true
        await page.goto(`${front.origin}/__cors-dev-proxy/`)
        await page.waitForFunction(() => document.querySelector('#live')?.textContent === '● live')
        leaving = false
        await page.waitForFunction(() => document.querySelectorAll('#rows tr').length >= 4)
        await page.waitForTimeout(500)
        // Leaving the inspector ends its event stream (not a failure); the page is closed last.
        leaving = true
        await page.goto(`${front.origin}/`)
        await page.waitForTimeout(500)
        expect(failed).toEqual([])
      } finally {
        await context.close()
        await front.close()
      }
    },
    90_000,
  )
})
