import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runCliHere } from '../../packages/cli/test/support/cli-process.ts'
import { launchChromium } from '../support/browser.ts'
import { refusedUrl } from '../support/refused-port.ts'
import { recordDevToolsHar } from './cdp-har.ts'
import { SECRETS, startRecordBackend, startRecordDevServer } from './record-replay-app.ts'

/*
 * Record and replay as a page lives them, in headless Chromium (one browser for the file): the
 * backend up and `record: true`, then the backend gone and `replay: 'fallback'` (or a HAR
 * Chromium made, imported, under `replay: 'only'`), and the inspector's live record switch.
 */

/** Every file under `dir`, recursively, with its text. */
async function filesOf(dir: string): Promise<Array<{ name: string; text: string }>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  const files = entries.filter((entry) => entry.isFile())
  return Promise.all(
    files.map(async (entry) => ({
      name: join(entry.parentPath, entry.name),
      text: await readFile(join(entry.parentPath, entry.name), 'utf8'),
    })),
  )
}

/** No file holds the token, the password or the session cookie the scenario used. */
function expectNoSecret(files: ReadonlyArray<{ name: string; text: string }>): void {
  for (const file of files)
    for (const secret of Object.values(SECRETS)) expect(file.text, file.name).not.toContain(secret)
}

/** The page's scenario (see record-replay-app.ts), run once. */
const scenario = (page: Page, options: { events: boolean }) =>
  page.evaluate(
    (given) => (window as unknown as { scenario(options: object): Promise<unknown> }).scenario(given),
    options,
  )

describe('record and replay in Chromium', () => {
  let browser: Browser
  const folders: string[] = []

  beforeAll(async () => {
    browser = await launchChromium()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    for (const folder of folders) await rm(folder, { recursive: true, force: true })
  })

  /** Runs `use` on a page of a fresh context, closed afterwards. */
  async function withPage<T>(use: (page: Page) => Promise<T>): Promise<T> {
    const context = await browser.newContext()
    try {
      return await use(await context.newPage())
    } finally {
      await context.close()
    }
  }

  async function folder(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'cdp-record-browser-'))
    folders.push(dir)
    return dir
  }

  test('a page recorded with the backend up gets the same answers from the recordings once it is down, marked replayed; no secret is written', async () => {
    const dir = await folder()
    const backend = await startRecordBackend()
    let backendUp = true
    const runScenario = (url: string) =>
      withPage(async (page) => {
        await page.goto(`${url}/`)
        return scenario(page, { events: true })
      })
    try {
      // Phase 1: the backend up, every exchange recorded.
      const recording = await startRecordDevServer(
        { '/api': { target: backend.url, record: true } },
        { recordings: { dir } },
      )
      let recorded: unknown
      try {
        recorded = await runScenario(recording.url)
      } finally {
        await recording.close()
      }
      // The backend really answered: the login worked and the CRUD calls were authorized.
      expect(recorded).toMatchObject({
        calls: [
          { url: '/api/login', status: 200 },
          { method: 'GET', status: 200, body: [{ id: 1, name: 'first' }] },
          { method: 'POST', status: 201, body: { id: 2, name: 'second' } },
          { method: 'PUT', status: 200, body: { id: 1, name: 'renamed' } },
          { method: 'DELETE', status: 204, body: null },
          { method: 'GET', status: 200, body: [{ id: 1, name: 'renamed' }] },
          { url: '/api/graphql', status: 200, body: { data: { items: [{ name: 'renamed' }] } } },
        ],
        events: [
          { id: '1', data: { tick: 1 } },
          { id: '2', data: { tick: 2 } },
          { id: '3', data: { tick: 3 } },
        ],
      })

      // Phase 2: the backend stopped; a new dev server replays from the same folder. Its target is
      // port 2, which refuses: the stopped backend's port could be taken again by another server.
      await backend.close()
      backendUp = false
      const replaying = await startRecordDevServer(
        { '/api': { target: await refusedUrl(), record: false, replay: 'fallback' } },
        { recordings: { dir } },
      )
      try {
        expect(await runScenario(replaying.url)).toEqual(recorded)

        // The inspector lists each of those exchanges as replayed.
        const texts = await withPage(async (inspector) => {
          await inspector.goto(`${replaying.url}/__cors-dev-proxy/`)
          const rows = inspector.locator('tbody tr', { hasText: '/api/' })
          await expect.poll(() => rows.count()).toBe(8)
          return rows.allInnerTexts()
        })
        for (const text of texts) expect(text).toContain('(replayed)')
        for (const path of ['/api/login', '/api/items/1', '/api/items/2', '/api/events', '/api/graphql'])
          expect(texts.some((text) => text.includes(path))).toBe(true)
      } finally {
        await replaying.close()
      }

      // Nothing secret in the recordings: the token, the password, the session cookie.
      const files = await filesOf(dir)
      expect(files.length).toBeGreaterThanOrEqual(7)
      // The login's answer is there, its cookie masked.
      expect(files.some((file) => file.text.includes('sid=[masked]'))).toBe(true)
      expectNoSecret(files)
    } finally {
      if (backendUp) await backend.close()
    }
  }, 60_000)

  test('a HAR Chromium made through the DevTools protocol imports with import-har and replays under replay: only', async () => {
    const cwd = await folder()
    const backend = await startRecordBackend()
    let backendUp = true
    try {
      const live = await startRecordDevServer({ '/api': backend.url }, {})
      let seen: unknown
      let har: unknown
      try {
        await withPage(async (page) => {
          const recorder = await recordDevToolsHar(page)
          await page.goto(`${live.url}/`)
          seen = await scenario(page, { events: false })
          har = await recorder.har()
        })
      } finally {
        await live.close()
      }
      await backend.close()
      backendUp = false
      // The backend answered: the login worked and the CRUD calls were authorized.
      const calls = (seen as { calls: Array<{ status: number }> }).calls
      expect(calls.map((call) => call.status)).toEqual([200, 200, 201, 200, 204, 200, 200])

      await writeFile(join(cwd, 'devtools.har'), JSON.stringify(har))
      const imported = await runCliHere(['import-har', 'devtools.har', '--route', '/api'], { cwd })
      expect(imported.code, imported.stderr).toBe(0)
      // 7 calls under /api; the page and the overlay's script are outside it.
      expect(imported.stdout).toContain('imported 7 entries of devtools.har into 6 recording files')
      const dir = join(cwd, 'cors-dev-proxy', 'recordings')
      expectNoSecret(await filesOf(dir))

      const replaying = await startRecordDevServer(
        { '/api': { target: backend.url, replay: 'only' } },
        { recordings: { dir } },
      )
      try {
        const replayed = await withPage(async (page) => {
          await page.goto(`${replaying.url}/`)
          return scenario(page, { events: false })
        })
        expect(replayed).toEqual(seen)
      } finally {
        await replaying.close()
      }
    } finally {
      if (backendUp) await backend.close()
    }
  }, 60_000)

  test('a login recorded with a wrong and the right password replays each its own answer, and Chromium keeps the replayed session', async () => {
    const dir = await folder()
    const backend = await startRecordBackend()
    let backendUp = true
    /** In the page: a login with `password`, or the items with the token (the session cookie goes along). */
    const login = (page: Page, password: string) =>
      page.evaluate(
        async ({ password, user }) =>
          (
            await fetch('/api/login', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ user, password }),
            })
          ).status,
        { password, user: 'ann' },
      )
    const items = (page: Page) =>
      page.evaluate(
        async (token) =>
          (await fetch('/api/items', { headers: { authorization: `Bearer ${token}` } })).status,
        SECRETS.token,
      )
    try {
      const recording = await startRecordDevServer(
        { '/api': { target: backend.url, record: true } },
        { recordings: { dir } },
      )
      try {
        await withPage(async (page) => {
          await page.goto(`${recording.url}/`)
          expect(await login(page, 'pw-wrong-0001')).toBe(401)
          expect(await login(page, SECRETS.password)).toBe(200)
          expect(await items(page)).toBe(200)
        })
      } finally {
        await recording.close()
      }
      await backend.close()
      backendUp = false

      const replaying = await startRecordDevServer(
        { '/api': { target: backend.url, replay: 'fallback' } },
        { recordings: { dir } },
      )
      try {
        const context = await browser.newContext()
        try {
          const page = await context.newPage()
          await page.goto(`${replaying.url}/`)
          const statuses = [
            await login(page, SECRETS.password),
            await login(page, SECRETS.password),
            await login(page, SECRETS.password),
            await login(page, 'pw-wrong-0001'),
          ]
          expect(statuses).toEqual([200, 200, 200, 401])
          // Chromium took the replayed session's cookie (a stand-in, not the mask) and sends it on.
          const cookie = (await context.cookies()).find((one) => one.name === 'sid')
          expect(cookie?.value).toMatch(/^replayed-[0-9a-f]{32}$/)
          expect(cookie?.httpOnly).toBe(true)
          expect(await items(page)).toBe(200)
        } finally {
          await context.close()
        }
      } finally {
        await replaying.close()
      }

      const files = await filesOf(dir)
      expectNoSecret(files)
      const password = SECRETS.password
      for (const file of files) {
        for (const form of [
          Buffer.from(password).toString('base64'),
          createHash('sha256').update(password).digest('hex'),
          createHash('sha256').update(password).digest('base64'),
        ])
          expect(file.text, file.name).not.toContain(form)
      }
    } finally {
      if (backendUp) await backend.close()
    }
  }, 90_000)

  test("the inspector's record switch turns recording on and off for the page's next calls", async () => {
    const dir = await folder()
    const backend = await startRecordBackend()
    const dev = await startRecordDevServer(
      { '/api': { target: backend.url, replay: 'fallback' } },
      { recordings: { dir } },
    )
    const context = await browser.newContext()
    const routeDir = join(dir, 'api')
    try {
      const app = await context.newPage()
      await app.goto(`${dev.url}/`)
      const call = (path: string) => app.evaluate(async (url) => (await fetch(url)).status, path)
      const inspector = await context.newPage()
      await inspector.goto(`${dev.url}/__cors-dev-proxy/`)
      const record = inspector.getByLabel('Record /api')
      await record.waitFor()
      expect(await record.isChecked()).toBe(false)
      expect(await call('/api/items?before')).toBe(401)

      await record.check()
      const state = () =>
        inspector.evaluate(async () => {
          const view = (await (await fetch('/__cors-dev-proxy/control')).json()) as {
            routes: Array<{ record: boolean | null }>
          }
          return view.routes[0]?.record
        })
      await expect.poll(state).toBe(true)
      expect(await call('/api/items?during')).toBe(401)
      // Recorded once the answer is out: the file appears without a restart (the .json, not the
      // lock or temp file that come before it).
      await expect
        .poll(async () => (await readdir(routeDir).catch(() => [])).filter((name) => name.endsWith('.json')))
        .toHaveLength(1)

      await record.uncheck()
      await expect.poll(state).toBe(false)
      expect(await call('/api/items?after')).toBe(401)
    } finally {
      await context.close()
      await dev.close()
      await backend.close()
    }
    const files = await filesOf(dir)
    expect(files).toHaveLength(1)
    expect(files[0]?.text).toContain('"path": "/items?during"')
  }, 60_000)
})
