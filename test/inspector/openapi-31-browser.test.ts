import { createServer } from 'node:http'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type BareDevServer, startBareDevServer } from '../support/bare-dev-server.ts'
import { launchChromium } from '../support/browser.ts'
import { listen, type StartedServer } from '../support/servers.ts'

/*
 * A route with an OpenAPI 3.1 document in headless Chromium (the bookshop fixture: `subtitle` is
 * `type: ['string', 'null']`, the author a `$defs` schema): a backend that breaks it three ways
 * (a required field missing, a field of the `$defs` schema of the wrong type, an undeclared
 * status) shows three cards in the overlay, and the inspector's exchanges and the HAR hold the
 * three violations; a `null` subtitle passes. The inspector's live stream sends an exchange
 * again once its check is done, with its violations. With `enforce: 'request'`, a body the document
 * refuses never reaches the (counting) backend and the page reads the 400 naming the field.
 */

const BOOKSHOP = fileURLToPath(
  new URL('../../packages/core/test/contract/fixtures/bookshop-3.1.yaml', import.meta.url),
)

/** What the backend answers per path: three ways to break the document, one `null` it allows. */
const ANSWERS: Record<string, [number, unknown]> = {
  '/books/9780000000001': [200, { title: 'Dune', author: { name: 'Frank Herbert' } }],
  '/books/9780000000002': [200, { title: 'Dune', subtitle: null, author: { name: 7 } }],
  '/books/9780000000003': [418, { title: "I'm a teapot" }],
  '/books/9780000000004': [200, { title: 'Dune', subtitle: null, author: { name: 'Frank Herbert' } }],
}

/** The operation all four calls match. */
const GET_BOOK = 'GET /books/{isbn}'

/** The dev server's page: the overlay client, as the adapters inject it. */
const page = (client: string | undefined) =>
  `<!doctype html><title>app</title>${client === undefined ? '' : `<script src="${client}"></script>`}`

/** One call from the page: its status, content type and body text. */
const call = (on: Page, url: string, init?: { method: string; body: string }) =>
  on.evaluate(
    async ([url, init]) => {
      const res = await fetch(
        url,
        init === undefined
          ? undefined
          : { method: init.method, body: init.body, headers: { 'content-type': 'application/json' } },
      )
      return { status: res.status, type: res.headers.get('content-type'), text: await res.text() }
    },
    [url, init] as const,
  )

describe("a route's OpenAPI 3.1 document, its violations in Chromium", () => {
  let browser: Browser
  let backend: StartedServer<ReturnType<typeof createServer>>
  /** Requests the backend received, by method and path. */
  const received: string[] = []
  beforeAll(async () => {
    browser = await launchChromium()
    backend = await listen(
      createServer((req, res) => {
        received.push(`${req.method} ${req.url}`)
        req.resume()
        req.on('end', () => {
          if (req.method === 'POST') {
            res.writeHead(201).end()
            return
          }
          const [status, body] = ANSWERS[(req.url ?? '').split('?')[0] as string] ?? [
            404,
            { title: 'not found' },
          ]
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
        })
      }),
    )
  }, 60_000)
  afterAll(async () => {
    await backend?.close()
    await browser?.close()
  })

  test('three violations in the overlay, the inspector and the HAR; a null the type allows passes', async () => {
    const dev: BareDevServer = await startBareDevServer(
      { '/api': { target: backend.url, openapi: BOOKSHOP } },
      { inspector: true },
      page,
    )
    const context = await browser.newContext()
    try {
      const app = await context.newPage()
      await app.goto(`${dev.url}/`)
      for (const isbn of [1, 2, 3, 4]) {
        const answer = await call(app, `/api/books/978000000000${isbn}`)
        expect(answer.status).toBe(isbn === 3 ? 418 : 200)
      }
      const overlay = app.locator('cors-dev-proxy-overlay')
      await expect.poll(() => overlay.locator('.card').count(), { timeout: 25_000 }).toBe(3)
      expect(await overlay.locator('.title').textContent()).toBe('cors-dev-proxy: 3 OpenAPI violations')
      for (const card of await overlay.locator('.card').all()) {
        if ((await card.getAttribute('open')) === null) await card.locator('summary').click()
      }
      expect((await overlay.locator('.pointer').allTextContents()).sort()).toEqual([
        `response of ${GET_BOOK}, at (the whole body)`,
        `response of ${GET_BOOK}, at /author/name`,
        `response of ${GET_BOOK}, at status`,
      ])
      const missing = overlay.locator('.card', { hasText: "required property 'subtitle'" })
      expect(await missing.locator('.call').textContent()).toBe(
        `call: GET ${dev.url}/api/books/9780000000001`,
      )
      const wrongType = overlay.locator('.card', { hasText: '/author/name' })
      expect(await wrongType.locator('.versus').textContent()).toBe('expected string, got integer')

      // The inspector's data: the three exchanges with one violation each, the null-subtitle one with none.
      type Viewed = { url: string; violations?: { in: string; operation: string; pointer: string }[] }
      const viewed = async () =>
        ((await (await app.request.get(`${dev.url}/__cors-dev-proxy/exchanges`)).json()) as Viewed[]).filter(
          (one) => one.url.startsWith('/api/books/'),
        )
      await expect
        .poll(async () => (await viewed()).filter((one) => one.violations !== undefined).length)
        .toBe(4)
      expect(
        Object.fromEntries(
          (await viewed()).map((one) => [
            one.url,
            one.violations?.map((v) => `${v.in} ${v.operation} ${v.pointer}`),
          ]),
        ),
      ).toEqual({
        '/api/books/9780000000001': [`response ${GET_BOOK} `],
        '/api/books/9780000000002': [`response ${GET_BOOK} /author/name`],
        '/api/books/9780000000003': [`response ${GET_BOOK} status`],
        '/api/books/9780000000004': [],
      })
      const har = (await (await app.request.get(`${dev.url}/__cors-dev-proxy/har`)).json()) as {
        log: { entries: { request: { url: string }; _violations?: { pointer: string; message: string }[] }[] }
      }
      expect(
        har.log.entries
          .filter((entry) => entry.request.url.includes('/api/books/'))
          .map((entry) => entry._violations?.map((v) => v.pointer)),
      ).toEqual([[''], ['/author/name'], ['status'], []])
      const messages = har.log.entries.flatMap((entry) => entry._violations ?? []).map((v) => v.message)
      expect(messages[0]).toBe("must have required property 'subtitle'")
      expect(messages[2]).toContain('418')
    } finally {
      await context.close()
      await dev.close()
    }
  }, 60_000)

  test("the inspector's live stream sends an exchange again once its check is done", async () => {
    const dev: BareDevServer = await startBareDevServer(
      { '/api': { target: backend.url, openapi: BOOKSHOP } },
      { inspector: true },
      page,
    )
    const context = await browser.newContext()
    try {
      const app = await context.newPage()
      await app.goto(`${dev.url}/`)
      // The events the page's EventSource gets for the call: first unchecked, then with its violations.
      await app.evaluate(
        () =>
          new Promise<void>((resolve) => {
            const got: unknown[] = []
            Object.assign(window, { __events: got })
            const source = new EventSource('/__cors-dev-proxy/events')
            source.addEventListener('exchange', (event) => got.push(JSON.parse(event.data)))
            source.addEventListener('open', () => resolve())
          }),
      )
      expect((await call(app, '/api/books/9780000000002?live=1')).status).toBe(200)
      type Streamed = { id: number; url: string; violations?: { pointer: string }[]; contractPending?: true }
      const streamed = () =>
        app.evaluate(() =>
          ((window as unknown as { __events: Streamed[] }).__events ?? []).filter((one) =>
            one.url.includes('live=1'),
          ),
        )
      await expect.poll(async () => (await streamed()).length).toBe(2)
      const [first, second] = await streamed()
      expect(second?.id).toBe(first?.id)
      expect(second?.contractPending).toBeUndefined()
      expect(second?.violations?.map((v) => v.pointer)).toEqual(['/author/name'])
    } finally {
      await context.close()
      await dev.close()
    }
  }, 60_000)

  test("enforce: 'request' answers a body the document refuses with a 400 naming the field; the backend gets nothing", async () => {
    const dev: BareDevServer = await startBareDevServer(
      { '/api': { target: backend.url, openapi: { document: BOOKSHOP, enforce: 'request' } } },
      {},
      page,
    )
    const context = await browser.newContext()
    try {
      const app = await context.newPage()
      await app.goto(`${dev.url}/`)
      received.length = 0
      const refused = await call(app, '/api/books', {
        method: 'POST',
        body: JSON.stringify({ title: 5, subtitle: null, author: { name: 'Frank Herbert' } }),
      })
      expect(refused.status).toBe(400)
      expect(refused.type).toBe('application/problem+json')
      const problem = JSON.parse(refused.text) as { title: string; detail: string; violations: unknown[] }
      expect(problem.title).toBe('The request breaks the OpenAPI document')
      expect(problem.detail).toContain('POST /books')
      expect(problem.detail).toContain('/title')
      expect(problem.violations).toHaveLength(1)
      expect(received).toEqual([])
      // The same call with a body the document accepts (a null subtitle included) reaches the backend.
      const accepted = await call(app, '/api/books', {
        method: 'POST',
        body: JSON.stringify({ title: 'Dune', subtitle: null, author: { name: 'Frank Herbert' } }),
      })
      expect(accepted.status).toBe(201)
      expect(received).toEqual(['POST /books'])
    } finally {
      await context.close()
      await dev.close()
    }
  }, 60_000)
})
