import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { launchChromium } from '../support/browser.ts'
import { refusedUrl } from '../support/refused-port.ts'
import { SECRETS, startRecordBackend, startRecordDevServer } from './record-replay-app.ts'

/*
 * Replay that follows the recorded session, as a page lives it in headless Chromium: a session
 * recorded against a live backend (log in, list, create, list, delete, list, every list with a
 * `_t` timestamp the route's match ignores), then replayed with the backend stopped under
 * `replay: 'only'`, in another rhythm: lists repeated before the create stay as they were, the
 * list after it shows the item, the list after the delete no longer does.
 */

/** One call from the page: its status and its JSON body (`null` for none). */
const call = (page: Page, method: string, url: string, body?: unknown) =>
  page.evaluate(
    async ({ method, url, body, token }) => {
      const res = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await res.text()
      return { status: res.status, body: text === '' ? null : (JSON.parse(text) as unknown) }
    },
    { method, url, body, token: SECRETS.token },
  )

const list = (page: Page) => call(page, 'GET', `/api/items?_t=${Date.now()}-${Math.random()}`)
const MATCH = { ignoreQuery: ['_t'] }

describe('replay in session order, in Chromium', () => {
  let browser: Browser
  let dir: string
  beforeAll(async () => {
    browser = await launchChromium()
    dir = await mkdtemp(join(tmpdir(), 'cdp-session-browser-'))
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await rm(dir, { recursive: true, force: true })
  })

  async function onPage<T>(url: string, use: (page: Page) => Promise<T>): Promise<T> {
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      await page.goto(`${url}/`)
      return await use(page)
    } finally {
      await context.close()
    }
  }

  test('a list replays the state of the session: none before the create, the item after it, none after the delete', async () => {
    const backend = await startRecordBackend()
    const recording = await startRecordDevServer(
      { '/api': { target: backend.url, record: true, match: MATCH } },
      { recordings: { dir } },
    )
    try {
      const recorded = await onPage(recording.url, async (page) => [
        await call(page, 'POST', '/api/login', { user: 'ann', password: SECRETS.password }),
        await list(page),
        await call(page, 'POST', '/api/items', { name: 'second' }),
        await list(page),
        await call(page, 'DELETE', '/api/items/2'),
        await list(page),
      ])
      expect(recorded.map((one) => one.status)).toEqual([200, 200, 201, 200, 204, 200])
    } finally {
      await recording.close()
      await backend.close()
    }

    const replaying = await startRecordDevServer(
      { '/api': { target: await refusedUrl(), replay: 'only', match: MATCH } },
      { recordings: { dir } },
    )
    try {
      await onPage(replaying.url, async (page) => {
        const first = [{ id: 1, name: 'first' }]
        expect(
          (await call(page, 'POST', '/api/login', { user: 'ann', password: SECRETS.password })).status,
        ).toBe(200)
        // Before the create, however often, and each with another `_t`.
        for (let i = 0; i < 3; i++) expect(await list(page)).toEqual({ status: 200, body: first })
        expect(await call(page, 'POST', '/api/items', { name: 'second' })).toEqual({
          status: 201,
          body: { id: 2, name: 'second' },
        })
        for (let i = 0; i < 2; i++)
          expect(await list(page)).toEqual({ status: 200, body: [...first, { id: 2, name: 'second' }] })
        expect((await call(page, 'DELETE', '/api/items/2')).status).toBe(204)
        expect(await list(page)).toEqual({ status: 200, body: first })
        // A path never recorded: 404 naming what differs.
        const missing = await call(page, 'GET', '/api/item?_t=1')
        expect(missing.status).toBe(404)
        expect(missing.body).toMatchObject({
          differences: [{ part: 'path', recorded: '/items', request: '/item' }],
        })
      })
    } finally {
      await replaying.close()
    }
  }, 60_000)
})
