import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDevServerProxy, resolveOptions } from '@cors-dev-proxy/core/adapter'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { launchChromium } from '../support/browser.ts'
import { listen } from '../support/servers.ts'

/** A backend whose answers count, so a mocked answer (the first one, frozen in a file) tells itself apart. */
function startBackend() {
  let count = 0
  return listen(
    createServer((req, res) => {
      count += 1
      res.setHeader('content-type', 'application/json')
      res.setHeader('set-cookie', 'sid=secret-session-value; Path=/')
      res.end(JSON.stringify({ backend: 'real', url: req.url, count }))
    }),
  )
}

/** A bare dev server whose root is `root`: the route's mock files go under it. */
async function startDevServer(routes: Parameters<typeof resolveOptions>[0], root: string) {
  const server: Server = createServer()
  const proxy = createDevServerProxy(resolveOptions(routes, { log: 'silent' }), { server, root })
  server.on('request', (req, res) =>
    proxy.middleware(req, res, () => {
      res.setHeader('content-type', 'text/html')
      res.end('<!doctype html><title>app</title>')
    }),
  )
  const front = await listen(server)
  return {
    url: front.url,
    async close() {
      await front.close()
      await proxy.close()
    },
  }
}

describe('"Mock this answer" in Chromium', () => {
  let browser: Browser
  let backend: Awaited<ReturnType<typeof startBackend>>
  let root: string

  beforeAll(async () => {
    ;[browser, backend, root] = await Promise.all([
      launchChromium(),
      startBackend(),
      mkdtemp(join(tmpdir(), 'cors-dev-proxy-mock-button-')),
    ])
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await backend?.close()
    await rm(root, { recursive: true, force: true })
  })

  test("a page's real call, mocked from the inspector, is answered from the new file the next time", async () => {
    const dev = await startDevServer(
      { '/api': { target: backend.url, mocks: { 'GET /health': { json: { ok: 'mocked' } } } } },
      root,
    )
    const context = await browser.newContext()
    try {
      // The inspector first: bodies are copied only while it is open.
      const inspector = await context.newPage()
      await inspector.goto(`${dev.url}/__cors-dev-proxy/`)
      await inspector.locator('#live', { hasText: 'live' }).waitFor()
      const app = await context.newPage()
      await app.goto(`${dev.url}/`)
      const call = (path: string) =>
        app.evaluate(async (url) => {
          const answer = await fetch(url)
          return { mocked: answer.headers.get('x-cors-dev-proxy-mocked'), body: await answer.json() }
        }, path)
      expect(await call('/api/health')).toEqual({ mocked: "'GET /health'", body: { ok: 'mocked' } })
      const real = await call('/api/users/42')
      expect(real).toEqual({ mocked: null, body: { backend: 'real', url: '/users/42', count: 1 } })

      const mockedRow = inspector.locator('#rows tr', { hasText: '/api/health' })
      await expect.poll(() => mockedRow.textContent()).toContain('(mocked)')
      await inspector.locator('#rows tr', { hasText: '/api/users/42' }).click()
      await inspector.getByRole('button', { name: 'Mock this answer' }).click()
      const file = join('cors-dev-proxy', 'mocks', 'api', 'GET _users_42.json')
      await inspector.getByRole('button', { name: `Mocked: ${file}` }).waitFor()

      // The next call to that path is answered from the file: the first answer, not the backend's next.
      expect(await call('/api/users/42')).toEqual({ mocked: file, body: real.body })
      expect((await call('/api/users/43')).body).toMatchObject({ backend: 'real', count: 2 })
      expect(await readdir(join(root, 'cors-dev-proxy', 'mocks', 'api'))).toEqual(['GET _users_42.json'])
      const written = JSON.parse(await readFile(join(root, file), 'utf8')) as Record<string, unknown>
      expect(written).toMatchObject({
        status: 200,
        headers: { 'content-type': 'application/json', 'set-cookie': 'sid=[masked]; Path=/' },
        json: real.body,
      })
      expect(JSON.stringify(written)).not.toContain('secret-session-value')
    } finally {
      await context.close()
      await dev.close()
    }
  }, 60_000)
})
