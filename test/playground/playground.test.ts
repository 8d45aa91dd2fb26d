import { mkdirSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startPlayground } from '../../playground/start.mjs'
import { launchChromium } from '../support/browser.ts'
import { expectEveryRowAsDescribed, openPlayground, runAllRows, runProtocolPanel } from './playground-page.ts'

const artifacts = new URL('../../test-results/', import.meta.url).pathname
const ports = { backend: 0, corsBackend: 0, http: 0, https: 0 }

describe.each([
  { name: 'Vite', webpack: false },
  { name: 'webpack-dev-server', webpack: true },
])('the playground on $name', ({ name, webpack }) => {
  let browser: Browser
  let playground: Awaited<ReturnType<typeof startPlayground>>

  beforeAll(async () => {
    process.env.PLAYGROUND_QUIET = '1'
    mkdirSync(artifacts, { recursive: true })
    playground = await startPlayground({ webpack, ports })
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await playground?.close()
  })

  test('every row gives the verdict it describes, blocked rows quote the console', async () => {
    const { page, consoleLines, close } = await openPlayground(browser, playground.urls.page)
    const rows = await runAllRows(page)
    expectEveryRowAsDescribed(rows, consoleLines)
    const panels = await runProtocolPanel(page)
    const h1 = panels.find((panel) => panel.id === 'proto-h1')
    const h2 = panels.find((panel) => panel.id === 'proto-h2')
    expect(h1).toMatchObject({ protocol: 'http/1.1', error: '' })
    expect(h2).toMatchObject({ protocol: 'h2', error: '' })
    // The waterfall's point: HTTP/1.1 keeps about 6 requests on the wire per host, HTTP/2 all of them.
    expect(h1?.maxInFlight).toBeLessThanOrEqual(6)
    expect(h2?.maxInFlight).toBeGreaterThan(6)
    await page.screenshot({
      path: `${artifacts}playground-${webpack ? 'webpack' : 'vite'}.png`,
      fullPage: true,
    })
    await close()
  }, 180_000)

  test('is readable at phone width', async () => {
    const { page, close } = await openPlayground(browser, playground.urls.page, { width: 390, height: 844 })
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow, `${name}: the page scrolls sideways at 390 px`).toBeLessThanOrEqual(0)
    await page.screenshot({
      path: `${artifacts}playground-${webpack ? 'webpack' : 'vite'}-phone.png`,
      fullPage: true,
    })
    await close()
  }, 60_000)

  test('says what to do when the dev server does not answer', async () => {
    const { page, close } = await openPlayground(browser, playground.urls.page)
    await page.route('**/__playground/config', (route) => route.abort())
    await page.reload()
    await page.waitForSelector('#setup-error:not([hidden])', { timeout: 20_000 })
    expect(await page.textContent('#setup-error')).toContain('pnpm playground')
    await close()
  }, 60_000)

  test('a row that fails unexpectedly (backend down) says so and what to do', async () => {
    const { page, close } = await openPlayground(browser, playground.urls.page)
    // As if the backend with CORS were not running: every connection to it fails.
    await page.route(`${playground.urls.corsBackend}/**`, (route) => route.abort('connectionrefused'))
    await page.click('#case-cors-simple button')
    await page.waitForSelector('#case-cors-simple[data-state="done"]', { timeout: 20_000 })
    expect(await page.getAttribute('#case-cors-simple', 'data-verdict')).toBe('blocked')
    expect(await page.textContent('#case-cors-simple .verdict.unexpected')).toBe('blocked')
    expect(await page.textContent('#case-cors-simple .note')).toMatch(
      /Expected allowed\. Is every backend running\?/,
    )
    await close()
  }, 60_000)

  test('every row of the choice-of-means table links to a case on the page', async () => {
    const { page, close } = await openPlayground(browser, playground.urls.page)
    const targets = await page.$$eval('#choice a', (links) => links.map((link) => link.getAttribute('href')))
    expect(targets).toHaveLength(5)
    for (const target of targets)
      expect(await page.locator(target ?? '#missing').count(), `${target}`).toBe(1)
    await close()
  }, 60_000)
})
