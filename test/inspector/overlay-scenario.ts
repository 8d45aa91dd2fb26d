import { checkCors } from '@cors-dev-proxy/core'
import type { Browser, Page } from 'playwright-core'
import { expect } from 'vitest'
import { openConsolePage } from '../support/browser.ts'
import { harErrors } from './har-schema.ts'

/** The text of `<cors-dev-proxy-overlay>` (its shadow DOM), or `null` when there is none. */
export function overlayText(page: Page): Promise<string | null> {
  return page.evaluate(
    () => document.querySelector('cors-dev-proxy-overlay')?.shadowRoot?.textContent ?? null,
  )
}

/**
 * Opens `pageUrl`, calls the backend directly (a cross-origin fetch the backend does not allow)
 * and checks the overlay: within 5 s of the failed call settling (it comes within milliseconds;
 * 5 s holds beside a second CPU-bound process), with Chromium's console text
 * for that call (as the browser model gives it, and as the browser printed it) and the route to
 * add. Returns the overlay's text.
 */
export async function expectOverlayForDirectCall(
  browser: Browser,
  pageUrl: string,
  backend: string,
): Promise<string> {
  const opened = await openConsolePage(browser, pageUrl)
  try {
    const { page } = opened
    const pageOrigin = new URL(pageUrl).origin
    const failed = await page.evaluate(async (url) => {
      try {
        await fetch(url)
        return 'no error'
      } catch (error) {
        return String(error)
      }
    }, `${backend}/items`)
    const settled = Date.now()
    expect(failed).toBe('TypeError: Failed to fetch')
    await page.waitForFunction(() => document.querySelector('cors-dev-proxy-overlay') !== null, undefined, {
      timeout: 5000,
      polling: 25,
    })
    expect(Date.now() - settled).toBeLessThan(5000)
    const text = (await overlayText(page)) ?? ''
    const model = await checkCors({ url: `${backend}/items`, origin: pageOrigin })
    expect(model.allowed).toBe(false)
    expect(text).toContain(model.message)
    expect(await opened.waitForConsole(`Access to fetch at '${backend}/items'`)).toBe(model.message)
    expect(text).toContain(`'/api': '${backend}'`)
    expect(text).toContain("fetch('/api/items')")
    return text
  } finally {
    await opened.close()
  }
}

/**
 * With the `/api` route: the page calls `/api/items` (with a bearer token and a `?token=`),
 * the inspector lists the exchange with its upstream URL and protocols, `/__cors-dev-proxy/har`
 * is valid HAR 1.2 containing it, the secrets are masked in both, and the page asked nothing
 * of `explain` nor shows an overlay.
 */
export async function expectInspectorAndHar(
  browser: Browser,
  pageUrl: string,
  backend: string,
): Promise<void> {
  const opened = await openConsolePage(browser, pageUrl)
  const explained: string[] = []
  opened.page.on('request', (request) => {
    if (request.url().includes('/__cors-dev-proxy/explain')) explained.push(request.url())
  })
  try {
    const { page } = opened
    const origin = new URL(pageUrl).origin
    const answer = await page.evaluate(async () => {
      const response = await fetch('/api/items?token=s3cr3t-query&page=2', {
        headers: { authorization: 'Bearer s3cr3t-bearer' },
      })
      return { status: response.status, body: await response.json() }
    })
    expect(answer).toEqual({ status: 200, body: { items: ['a', 'b'], auth: 'Bearer s3cr3t-bearer' } })
    const { exchanges, har } = await page.evaluate(async () => {
      const exchanges = await (await fetch('/__cors-dev-proxy/exchanges')).text()
      const har = await (await fetch('/__cors-dev-proxy/har')).text()
      return { exchanges, har }
    })
    for (const text of [exchanges, har]) {
      expect(text).not.toContain('s3cr3t')
    }
    const listed = (JSON.parse(exchanges) as Record<string, unknown>[]).find((view) =>
      String(view.url).startsWith('/api/items'),
    )
    expect(listed).toMatchObject({
      method: 'GET',
      url: '/api/items?token=[masked]&page=2',
      route: '/api',
      upstreamUrl: `${backend}/items?token=[masked]&page=2`,
      upstreamProtocol: 'http/1.1',
      status: 200,
      cors: { outcome: 'same-origin' },
    })
    expect(['http/1.1', 'h2']).toContain(listed?.clientProtocol)
    const parsed = JSON.parse(har) as { log: { entries: Record<string, unknown>[] } }
    expect(harErrors(parsed)).toEqual([])
    const entry = parsed.log.entries.find((item) =>
      String((item.request as { url: string }).url).includes('/api/items'),
    )
    expect(entry).toMatchObject({
      request: { method: 'GET', url: `${origin}/api/items?token=%5Bmasked%5D&page=2` },
      response: { status: 200 },
      _upstreamUrl: `${backend}/items?token=%5Bmasked%5D&page=2`,
    })
    expect(
      (entry as { request: { headers: { name: string; value: string }[] } }).request.headers,
    ).toContainEqual({
      name: 'authorization',
      value: 'Bearer [masked]',
    })
    // A page whose calls all succeed: nothing asked, nothing shown.
    await page.waitForTimeout(300)
    expect(explained).toEqual([])
    expect(await overlayText(page)).toBeNull()
  } finally {
    await opened.close()
  }
}
