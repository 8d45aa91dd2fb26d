import { createServer } from 'node:http'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startBareDevServer } from '../support/bare-dev-server.ts'
import { launchChromium } from '../support/browser.ts'
import { listen } from '../support/servers.ts'

/** A backend that names itself. */
function startBackend(name: string) {
  return listen(
    createServer((req, res) => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ backend: name, url: req.url }))
    }),
  )
}

/**
 * A bare dev server: its page loads the overlay client the adapters inject; everything else goes
 * through the set-up the adapters share.
 */
function startDevServer(routes: Parameters<typeof startBareDevServer>[0]) {
  return startBareDevServer(
    routes,
    {},
    (client) => `<!doctype html><title>app</title><script src="${client}"></script>`,
  )
}

describe('backend control in Chromium', () => {
  let browser: Browser
  let local: Awaited<ReturnType<typeof startBackend>>
  let staging: Awaited<ReturnType<typeof startBackend>>

  beforeAll(async () => {
    ;[browser, local, staging] = await Promise.all([
      launchChromium(),
      startBackend('local'),
      startBackend('staging'),
    ])
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await local?.close()
    await staging?.close()
  })

  test("the inspector's target select switches the next request, local to staging and back; the overlay's badge shows while faults are on", async () => {
    const dev = await startDevServer({
      '/api': { targets: { local: local.url, staging: staging.url } },
      '/slow': { target: local.url, latency: 0 },
    })
    const context = await browser.newContext()
    try {
      const app = await context.newPage()
      await app.goto(`${dev.url}/`)
      const call = () =>
        app.evaluate(async () => (await (await fetch('/api/users')).json()) as { backend: string })
      expect(await call()).toMatchObject({ backend: 'local' })
      // No fault is on yet (latency 0): no badge.
      await app.waitForFunction(() => document.readyState === 'complete')
      expect(await app.locator('#cors-dev-proxy-fault-badge').count()).toBe(0)

      const inspector = await context.newPage()
      await inspector.goto(`${dev.url}/__cors-dev-proxy/`)
      const select = inspector.getByLabel('Target of /api')
      await expect.poll(() => select.inputValue()).toBe('local')
      // The select's change is answered, then the very next request goes to the other target,
      // and back again.
      const switchTo = async (name: string) => {
        const answered = inspector.waitForResponse(
          (res) => res.url().endsWith('/__cors-dev-proxy/control') && res.request().method() === 'POST',
        )
        await select.selectOption(name)
        expect((await answered).status()).toBe(200)
      }
      await switchTo('staging')
      expect(await call()).toMatchObject({ backend: 'staging' })
      await switchTo('local')
      expect(await call()).toMatchObject({ backend: 'local' })

      // Faults switched on over the same API the inspector uses: the page's badge appears.
      await inspector.evaluate(() =>
        fetch('/__cors-dev-proxy/control', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ route: '/slow', latency: 200 }),
        }),
      )
      await app.locator('#cors-dev-proxy-fault-badge').waitFor({ state: 'visible', timeout: 10_000 })
      expect(await app.locator('#cors-dev-proxy-fault-badge').textContent()).toBe('faults on')
      // The inspector's switch turns it off again.
      await inspector.reload()
      const faults = inspector.getByLabel('Faults of /slow')
      await faults.waitFor()
      expect(await faults.isChecked()).toBe(true)
      await faults.uncheck()
      await app.locator('#cors-dev-proxy-fault-badge').waitFor({ state: 'detached', timeout: 10_000 })
    } finally {
      await context.close()
      await dev.close()
    }
  }, 60_000)
})
