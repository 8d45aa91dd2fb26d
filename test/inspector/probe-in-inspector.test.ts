import { describe, expect, test } from 'vitest'
import { startVite } from '../adapters/vite-server.ts'
import { openConsolePage } from '../support/browser.ts'
import { startPlainBackend } from './backend.ts'
import { useChromiumAnd } from './chromium-and-backend.ts'

/**
 * One blocked call of a page to the dev server under another name (the page on 127.0.0.1, the
 * call to localhost): the overlay's probe of it reaches the same dev server, and the inspector
 * lists it as ours, not as a second failed call of the page.
 */
describe("the overlay's probe in the inspector", () => {
  const env = useChromiumAnd(startPlainBackend)

  test('one blocked call is one failed exchange; the probe is shown as ours', async () => {
    const server = await startVite({ routes: { '/api': env.backend.url } })
    const opened = await openConsolePage(env.browser, `${server.origin}/`)
    try {
      const { page } = opened
      await page.waitForFunction(
        () => (window as unknown as Record<string, unknown>).__corsDevProxyClient === true,
      )
      const other = server.origin.replace('127.0.0.1', 'localhost')
      expect(await page.evaluate((url) => fetch(url).then(() => 'ok', String), `${other}/api/items`)).toBe(
        'TypeError: Failed to fetch',
      )
      await page.waitForFunction(
        () =>
          (document.querySelector('cors-dev-proxy-overlay')?.shadowRoot?.querySelectorAll('.card').length ??
            0) === 1,
        undefined,
        { timeout: 10_000 },
      )
      const inspector = await opened.page.context().newPage()
      await inspector.goto(`${server.origin}/__cors-dev-proxy/`)
      const rows = inspector.locator('#rows tr', { hasText: '/api/items' })
      await expect.poll(() => rows.count()).toBe(2)
      await expect.poll(() => inspector.locator('#rows tr.ours').count()).toBe(1)
      expect(await inspector.locator('#rows tr.ours').textContent()).toContain('(our probe)')
      await inspector.selectOption('#status', 'failed')
      await expect.poll(() => inspector.locator('#rows tr').count()).toBe(1)
      expect(await inspector.locator('#rows tr').textContent()).not.toContain('(our probe)')
    } finally {
      await opened.close()
      await server.close()
    }
  }, 60_000)
})
