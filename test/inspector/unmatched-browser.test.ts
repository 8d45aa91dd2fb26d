import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resolveOptions } from '@cors-dev-proxy/core/adapter'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type BareDevServer, startBareDevServer } from '../support/bare-dev-server.ts'
import { launchChromium } from '../support/browser.ts'
import { refusedUrl } from '../support/refused-port.ts'
import { listen } from '../support/servers.ts'

/*
 * A page under `replay: 'only'` whose calls no recording matches, in headless Chromium: a session
 * recorded against a live backend (`GET /api/items`, `POST /api/items` with a JSON body), then
 * replayed with the backend stopped by calls that differ by a query key, by a body field, and by
 * a query value holding HTML. The overlay shows a card per call naming the part that differs and
 * a fix that is valid configuration; the inspector's list marks each exchange and its detail
 * shows the differences and the closest recording's file; the HTML stays text everywhere.
 */

const HOSTILE = '<img src=x onerror="window.__pwned=1">'

/** The dev server's page: the overlay client, as the adapters inject it. */
const page = (client: string | undefined) =>
  `<!doctype html><title>app</title>${client === undefined ? '' : `<script src="${client}"></script>`}`

/** One call from the page: its status. */
const call = (on: Page, method: string, url: string, body?: unknown) =>
  on.evaluate(
    async ({ method, url, body }) => {
      const res = await fetch(url, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      await res.text()
      return res.status
    },
    { method, url, body },
  )

describe("replay: 'only', a call no recording matches, in Chromium", () => {
  let browser: Browser
  let dir: string
  let dev: BareDevServer
  let target: string
  beforeAll(async () => {
    ;[browser, dir] = await Promise.all([launchChromium(), mkdtemp(join(tmpdir(), 'cdp-unmatched-browser-'))])
    const backend = await listen(
      createServer((req, res) => {
        req.resume()
        req.on('end', () => {
          res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' })
          res.end(JSON.stringify(req.method === 'POST' ? { id: 2 } : [{ id: 1 }]))
        })
      }),
    )
    const recording = await startBareDevServer(
      { '/api': { target: backend.url, record: true } },
      { recordings: { dir } },
      page,
    )
    const context = await browser.newContext()
    const app = await context.newPage()
    await app.goto(`${recording.url}/`)
    expect(await call(app, 'GET', '/api/items')).toBe(200)
    expect(await call(app, 'POST', '/api/items', { name: 'second' })).toBe(201)
    await context.close()
    await recording.close()
    await backend.close()
    target = await refusedUrl()
    dev = await startBareDevServer(
      { '/api': { target, replay: 'only' } },
      { recordings: { dir }, inspector: true },
      page,
    )
  }, 60_000)
  afterAll(async () => {
    await dev?.close()
    await browser?.close()
    await rm(dir, { recursive: true, force: true })
  })

  test('the overlay shows a card per call naming what differs, with a fix that is valid config', async () => {
    const context = await browser.newContext()
    try {
      const app = await context.newPage()
      await app.goto(`${dev.url}/`)
      expect(await call(app, 'GET', '/api/items?_t=1712')).toBe(404)
      expect(await call(app, 'POST', '/api/items', { name: 'third' })).toBe(404)
      expect(await call(app, 'GET', `/api/items?q=${encodeURIComponent(HOSTILE)}`)).toBe(404)
      // An XMLHttpRequest's 404 too.
      const xhr = await app.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const request = new XMLHttpRequest()
            request.open('GET', '/api/items?page=2')
            request.onload = () => resolve(request.status)
            request.send()
          }),
      )
      expect(xhr).toBe(404)
      const overlay = app.locator('cors-dev-proxy-overlay')
      await expect.poll(() => overlay.locator('.card').count()).toBe(4)
      expect(await overlay.locator('.title').textContent()).toBe(
        'cors-dev-proxy: no recording matched 4 calls',
      )
      expect(await overlay.locator('.card summary', { hasText: 'XMLHttpRequest GET' }).textContent()).toMatch(
        /^XMLHttpRequest GET http:\/\/127\.0\.0\.1:\d+\/api\/items\?page=2$/,
      )
      // The same call again counts on its card.
      expect(await call(app, 'GET', '/api/items?_t=1712')).toBe(404)
      await expect
        .poll(() => overlay.locator('.card', { hasText: '_t=1712' }).locator('.count').textContent())
        .toBe('×2')

      const query = overlay.locator('.card', { hasText: '_t=1712' })
      await query.locator('summary').click()
      const queryText = (await query.locator('.body').textContent()) ?? ''
      expect(queryText).toContain(
        "no recording matched under replay: 'only' (route '/api'): query key _t differs from the closest recording",
      )
      expect(queryText).toContain('query key _t: this call 1712, the recording (none)')
      expect(queryText).toMatch(/closest recording: .*GET-items\.[0-9a-f]{16}\.json/)
      const fixes = await query.locator('.fix').allTextContents()
      expect(fixes).toEqual([
        `{ '/api': { target: '${target}', record: 'missing' } }`,
        `{ '/api': { target: '${target}', replay: 'only', match: { ignoreQuery: ['_t'] } } }`,
      ])
      // Valid configuration: each one evaluates to routes the proxy accepts.
      for (const fix of fixes) {
        const routes = new Function(`return ${fix}`)() as Parameters<typeof resolveOptions>[0]
        expect(() => resolveOptions(routes, {})).not.toThrow()
      }

      const body = overlay.locator('.card', { hasText: 'POST' })
      await body.locator('summary').click()
      expect(await body.locator('.diff').allTextContents()).toEqual([
        'body field name: this call "third", the recording "second"',
      ])
      expect(await body.locator('.fix').count()).toBe(1)

      const hostile = overlay.locator('.card', { hasText: '?q=' })
      await hostile.locator('summary').click()
      expect(await hostile.locator('.diff').allTextContents()).toEqual([
        `query key q: this call ${HOSTILE}, the recording (none)`,
      ])
      expect(await overlay.locator('img').count()).toBe(0)
      expect(await app.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined()
    } finally {
      await context.close()
    }
  }, 60_000)

  test("the inspector's list marks each such exchange and its detail shows the diff", async () => {
    const context = await browser.newContext()
    try {
      const inspector = await context.newPage()
      await inspector.goto(`${dev.url}/__cors-dev-proxy/`)
      await inspector.locator('#live', { hasText: 'live' }).waitFor()
      const marked = inspector.locator('#rows tr.unmatched')
      await expect.poll(() => marked.count()).toBeGreaterThanOrEqual(4)
      const row = marked.filter({ hasText: '_t=1712' }).first()
      expect(await row.locator('td').nth(4).textContent()).toBe('404 (no recording matched)')
      // A replayed or forwarded exchange is not marked.
      expect(
        await inspector.locator('#rows tr:not(.unmatched)', { hasText: '(no recording matched)' }).count(),
      ).toBe(0)

      await row.click()
      const section = inspector.locator('#detail section.unmatched')
      expect(await section.locator('h3').textContent()).toBe('No recording matched')
      const cells = await section
        .locator('table tr')
        .evaluateAll((rows) => rows.map((tr) => [...tr.children].map((cell) => cell.textContent)))
      expect(cells).toEqual([
        ['part', 'this call', 'closest recording'],
        ['query key _t', '1712', '(none)'],
      ])
      expect(await section.locator('.closest').textContent()).toMatch(
        /^closest recording: .*GET-items\.[0-9a-f]{16}\.json$/,
      )
      expect(await section.locator('pre').allTextContents()).toContain(
        `{ '/api': { target: '${target}', replay: 'only', match: { ignoreQuery: ['_t'] } } }`,
      )

      await marked.filter({ hasText: 'POST' }).first().click()
      expect(await section.locator('table tr').nth(1).locator('th, td').allTextContents()).toEqual([
        'body field name',
        '"third"',
        '"second"',
      ])

      await marked.filter({ hasText: '?q=' }).first().click()
      expect(await section.locator('table tr').nth(1).locator('td').first().textContent()).toBe(HOSTILE)
      expect(await inspector.locator('#detail img').count()).toBe(0)
      expect(await inspector.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined()
    } finally {
      await context.close()
    }
  }, 60_000)
})
