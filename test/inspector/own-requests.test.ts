import { createServer } from 'node:http'
import type { CorsDevProxyOptions, Routes } from '@cors-dev-proxy/core'
import type { Browser, Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { startVite } from '../adapters/vite-server.ts'
import { listen } from '../support/servers.ts'
import { startPlainBackend } from './backend.ts'
import { useChromiumAnd } from './chromium-and-backend.ts'
import { startFetchApp } from './fetch-app.ts'

/**
 * "Our scripts never fail in the page": the overlay's client, its badge and the inspector page
 * ask only for what the dev server answers, on every front end and with any mix of routes. One
 * Chromium loads a page with the overlay, then the inspector page, and every request under
 * `/__cors-dev-proxy/` that failed, answered 400 or more, or printed a console error, is collected
 * for the whole run (the page closed at the end, its event stream with it).
 */

/** What went wrong with our own requests in one page's life. */
interface OwnFailures {
  readonly failed: string[]
  readonly errors: string[]
  readonly console: string[]
}

/** Watches a page's requests to `/__cors-dev-proxy/` and its console errors. */
function watchOwnRequests(page: Page, leaving: () => boolean = () => false): OwnFailures {
  const seen: OwnFailures = { failed: [], errors: [], console: [] }
  const ours = (url: string) => new URL(url).pathname.startsWith('/__cors-dev-proxy')
  page.on('requestfailed', (request) => {
    if (!ours(request.url())) return
    const line = `${request.method()} ${request.url()}: ${request.failure()?.errorText}`
    // A poll in flight when the test itself navigates away is cut by the browser (DevTools shows
    // it "(canceled)", the console nothing): on a loaded machine the badge's /control poll can
    // still be waiting then. A 4xx or 5xx of ours, or a cut at any other time, still counts.
    if (leaving() && request.failure()?.errorText === 'net::ERR_ABORTED') return
    // The inspector's live stream, answered 200 and open until the page goes: leaving cuts it
    // (CDP's loadingFailed with `canceled`), which DevTools shows as "(canceled)" after its 200,
    // neither failed nor in the console. Anything else cut, or a stream that never got its 200, is.
    void request.response().then((response) => {
      const streamCut =
        request.resourceType() === 'eventsource' &&
        new URL(request.url()).pathname === '/__cors-dev-proxy/events' &&
        response?.status() === 200
      if (!streamCut) seen.failed.push(line)
    })
  })
  page.on('response', (response) => {
    if (ours(response.url()) && response.status() >= 400)
      seen.errors.push(`${response.request().method()} ${response.url()}: ${response.status()}`)
  })
  // Errors about our URLs, and any error in our own page (the inspector); the fixture app's own
  // (Vite's 404 for its missing /favicon.ico) are the app's.
  page.on('console', (message) => {
    const where = message.location().url
    if (message.type() === 'error' && (ours(page.url()) || (where !== '' && ours(where))))
      seen.console.push(`${message.text()} (${where})`)
  })
  return seen
}

/**
 * Loads `origin/` (a page with the overlay) and the inspector, each long enough for every
 * request their scripts make at start (the badge's first poll, the inspector's lists and its
 * event stream), then navigates both away and closes them. Returns what failed.
 */
async function visit(browser: Browser, origin: string): Promise<OwnFailures> {
  const context = await browser.newContext()
  const page = await context.newPage()
  let leaving = false
  const seen = watchOwnRequests(page, () => leaving)
  try {
    await page.goto(`${origin}/`)
    await page.waitForFunction(
      () => (window as unknown as Record<string, unknown>).__corsDevProxyClient === true,
    )
    // The badge asks at load and then every 2 s while the dev server has switches.
    await page.waitForTimeout(2500)
    leaving = true
    await page.goto(`${origin}/__cors-dev-proxy/`)
    await page.waitForFunction(() => document.querySelector('#live')?.textContent === '● live')
    leaving = false
    await page.waitForTimeout(500)
    // Leaving the inspector ends its event stream: not a failure of ours either.
    leaving = true
    await page.goto(`${origin}/`)
    await page.waitForTimeout(500)
  } finally {
    await context.close()
  }
  return seen
}

const NONE: OwnFailures = { failed: [], errors: [], console: [] }

describe('no failed request of ours in the page', () => {
  const env = useChromiumAnd(startPlainBackend)

  const mixes: [string, () => Routes, CorsDevProxyOptions?][] = [
    ["a replay: 'only' route", () => ({ '/api': { target: env.backend.url, replay: 'only' } })],
    [
      'a route with mocks only',
      () => ({ '/api': { target: env.backend.url, mocks: { 'GET /hello': { json: 1 } } } }),
    ],
    ['a plain route', () => ({ '/api': env.backend.url })],
    ['a route with live switches', () => ({ '/api': { target: env.backend.url, latency: 10 } })],
    ['a plain route, inspector: false', () => ({ '/api': env.backend.url }), { inspector: false }],
  ]

  test.each(mixes)(
    'Vite with %s',
    async (_name, routes, options) => {
      const server = await startVite({ routes: routes(), ...(options === undefined ? {} : { options }) })
      try {
        if (options?.inspector === false) {
          // The page with the overlay, then the inspector's address, which the overlay links: a
          // page that says the inspector is off.
          const context = await env.browser.newContext()
          const page = await context.newPage()
          const seen = watchOwnRequests(page)
          await page.goto(`${server.origin}/`)
          await page.waitForTimeout(2500)
          await page.goto(`${server.origin}/__cors-dev-proxy/`)
          expect(await page.textContent('body')).toContain('inspector: false')
          await context.close()
          expect(seen).toEqual(NONE)
          return
        }
        expect(await visit(env.browser, server.origin)).toEqual(NONE)
      } finally {
        await server.close()
      }
    },
    60_000,
  )

  test('a POST whose body was not kept: Replay is not offered, rather than refused', async () => {
    const server = await startVite({ routes: { '/api': env.backend.url } })
    const context = await env.browser.newContext()
    try {
      const page = await context.newPage()
      const seen = watchOwnRequests(page)
      await page.goto(`${server.origin}/`)
      // No inspector open: the body is not copied.
      await page.evaluate(() => fetch('/api/items', { method: 'POST', body: 'hello' }).then((r) => r.text()))
      await page.goto(`${server.origin}/__cors-dev-proxy/`)
      await page.locator('#rows tr', { hasText: '/api/items' }).click()
      const replay = page.locator('#detail button', { hasText: 'Replay' })
      expect(await replay.isDisabled()).toBe(true)
      expect(await replay.getAttribute('title')).toContain('request body was not kept')
      await replay.click({ force: true })
      await page.waitForTimeout(500)
      expect(seen).toEqual(NONE)
    } finally {
      await context.close()
      await server.close()
    }
  }, 60_000)

  test('eight calls to another origin failing at once: each explained, none refused (no 429 of ours)', async () => {
    // A backend without CORS that answers after 1 s, so the probes overlap.
    const slow = await listen(
      createServer((_req, res) => {
        setTimeout(() => res.end('{}'), 1000)
      }),
    )
    const server = await startVite({ routes: { '/api': env.backend.url } })
    const context = await env.browser.newContext()
    try {
      const page = await context.newPage()
      const seen = watchOwnRequests(page)
      await page.goto(`${server.origin}/`)
      await page.waitForFunction(
        () => (window as unknown as Record<string, unknown>).__corsDevProxyClient === true,
      )
      await page.evaluate(
        (url) =>
          Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((n) => fetch(`${url}/items/${n}`).catch(() => undefined))),
        slow.url,
      )
      await page.waitForFunction(
        () =>
          (document.querySelector('cors-dev-proxy-overlay')?.shadowRoot?.querySelectorAll('.card').length ??
            0) === 8,
        undefined,
        { timeout: 20_000 },
      )
      expect(seen).toEqual(NONE)
    } finally {
      await context.close()
      await server.close()
      await slow.close()
    }
  }, 60_000)

  test.each(mixes.slice(0, 4))(
    'the Fetch handler on @hono/node-server with %s',
    async (_name, routes) => {
      const app = await startFetchApp(routes())
      try {
        expect(await visit(env.browser, app.origin)).toEqual(NONE)
      } finally {
        await app.close()
      }
    },
    60_000,
  )
})
