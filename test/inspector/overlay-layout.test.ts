import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { useOverlayApp } from './overlay-app.ts'

/** Where the overlay's panel and its cards are, as the page lays them out. */
interface PanelLayout {
  innerWidth: number
  innerHeight: number
  panel: { top: number; bottom: number; height: number }
  title: string
  cards: { summary: string; open: boolean; top: number; bottom: number; hitSummary: boolean }[]
  /** Whether the open newest card's fix (the route and the call) is in sight without scrolling. */
  fixInSight: boolean
}

function panelLayout(page: Page): Promise<PanelLayout> {
  return page.evaluate(() => {
    const host = document.querySelector('cors-dev-proxy-overlay') as HTMLElement
    const root = host.shadowRoot as ShadowRoot
    const box = host.getBoundingClientRect()
    const cards = [...root.querySelectorAll<HTMLDetailsElement>('.card')].map((card) => {
      const rect = card.getBoundingClientRect()
      const summary = card.querySelector('summary') as HTMLElement
      const at = summary.getBoundingClientRect()
      // What a click at the middle of the card's summary line would reach.
      const hit = root.elementFromPoint(at.left + at.width / 2, at.top + at.height / 2)
      return {
        summary: summary.textContent ?? '',
        open: card.open,
        top: rect.top,
        bottom: rect.bottom,
        hitSummary: hit !== null && summary.contains(hit),
      }
    })
    const list = (root.querySelector('.cards') as HTMLElement).getBoundingClientRect()
    const fix = root.querySelector('.card[open] .fix')?.getBoundingClientRect()
    return {
      fixInSight: fix !== undefined && fix.top >= list.top && fix.bottom <= list.bottom,
      innerWidth,
      innerHeight,
      panel: { top: box.top, bottom: box.bottom, height: box.height },
      title: root.querySelector('.title')?.textContent ?? '',
      cards,
    }
  })
}

function cardCount(page: Page): Promise<number> {
  return page.evaluate(
    () => document.querySelector('cors-dev-proxy-overlay')?.shadowRoot?.querySelectorAll('.card').length ?? 0,
  )
}

/** Where the overlay's card list is scrolled to; with `toBottom`, scrolled to its end first. */
function cardListScroll(page: Page, toBottom = false): Promise<number> {
  return page.evaluate((bottom) => {
    const list = document
      .querySelector('cors-dev-proxy-overlay')
      ?.shadowRoot?.querySelector<HTMLElement>('.cards')
    if (list == null) return -1
    if (bottom) list.scrollTop = list.scrollHeight
    return list.scrollTop
  }, toBottom)
}

/** Fails `path` on the backend from the page (a cross-origin call it does not allow) and waits for its card. */
async function failCall(page: Page, url: string, cards: number): Promise<void> {
  const failed = await page.evaluate((target) => fetch(target).then(() => 'ok', String), url)
  expect(failed).toBe('TypeError: Failed to fetch')
  await page.waitForFunction(
    (count) =>
      (document.querySelector('cors-dev-proxy-overlay')?.shadowRoot?.querySelectorAll('.card').length ?? 0) >=
      count,
    cards,
    { timeout: 10_000, polling: 25 },
  )
}

/**
 * The overlay and the inspector laid out in Chromium at the sizes users have: with four failed
 * calls the overlay stays within a third of the viewport with the newest card first, open and
 * in sight; at 1280 px the inspector's CORS column stays visible beside the detail pane.
 */
describe('the overlay panel and the inspector page, laid out in Chromium', () => {
  const env = useOverlayApp()

  test.each([
    { width: 1280, height: 800 },
    { width: 1920, height: 1080 },
    { width: 800, height: 600 },
    { width: 375, height: 667 },
  ])(
    'four failed calls at $width×$height: newest first and in sight, older ones collapsed, at most a third of the viewport',
    async (viewport) => {
      const context = await env.browser.newContext({ viewport })
      try {
        const page = await context.newPage()
        // A page taller than the viewport, as real apps are.
        await page.goto(`${env.app.origin}/`)
        await page.evaluate(() => {
          document.body.style.minHeight = '3000px'
        })
        await page.waitForFunction(
          () => (window as unknown as Record<string, unknown>).__corsDevProxyClient === true,
        )
        const paths = ['/items/first', '/items/second', '/items/third', '/items/fourth']
        for (const [index, path] of paths.entries())
          await failCall(page, `${env.backend.url}${path}`, index + 1)
        const layout = await panelLayout(page)
        expect(layout.title).toBe('cors-dev-proxy: 4 calls to other origins failed')
        expect(layout.panel.height).toBeLessThanOrEqual(layout.innerHeight / 3)
        expect(layout.panel.top).toBeGreaterThanOrEqual(0)
        expect(layout.panel.bottom).toBeLessThanOrEqual(layout.innerHeight)
        // Newest first: the cards in the reverse order of the calls; only the newest open.
        expect(layout.cards.map((card) => card.summary)).toEqual(
          [...paths].reverse().map((path) => `fetch GET ${env.backend.url}${path}`),
        )
        expect(layout.cards.map((card) => card.open)).toEqual([true, false, false, false])
        // The newest card's head is in the viewport and not covered: a click there reaches it.
        // ...and so is what to change, at the window sizes of a desktop.
        if (viewport.height >= 800) expect(layout.fixInSight).toBe(true)
        const [newest] = layout.cards
        expect(newest?.top).toBeGreaterThanOrEqual(layout.panel.top)
        expect(newest?.top).toBeLessThan(layout.innerHeight)
        expect(newest?.hitSummary).toBe(true)
        const shown = await page.evaluate(
          () =>
            document.querySelector('cors-dev-proxy-overlay')?.shadowRoot?.querySelector('.card[open]')
              ?.textContent,
        )
        expect(shown).toContain("fetch('/api/items/fourth')")

        // A click opens an older card; it stays open when another failure arrives (which opens first).
        const older = page.locator('cors-dev-proxy-overlay .card summary', { hasText: '/items/second' })
        await older.click()
        await failCall(page, `${env.backend.url}/items/fifth`, 5)
        const after = await panelLayout(page)
        expect(
          after.cards.map((card) => [card.summary.replace(`fetch GET ${env.backend.url}`, ''), card.open]),
        ).toEqual([
          ['/items/fifth', true],
          ['/items/fourth', false],
          ['/items/third', false],
          ['/items/second', true],
          ['/items/first', false],
        ])
        expect(after.panel.height).toBeLessThanOrEqual(after.innerHeight / 3)
        expect(after.cards[0]?.hitSummary).toBe(true)
        // The same call failing again counts on its card instead of adding one, and leaves the
        // list where the user scrolled it (to the bottom here, where that card is).
        const scrolled = await cardListScroll(page, true)
        await page.evaluate((url) => fetch(url).catch(() => undefined), `${env.backend.url}/items/first`)
        await page.waitForFunction(
          () =>
            document
              .querySelector('cors-dev-proxy-overlay')
              ?.shadowRoot?.querySelector('.card:last-child summary')
              ?.textContent?.startsWith('×2'),
          undefined,
          { timeout: 5000, polling: 25 },
        )
        expect(await cardCount(page)).toBe(5)
        const position = await cardListScroll(page)
        expect(position).toBe(scrolled)
        expect(scrolled).toBeGreaterThan(0)
      } finally {
        await context.close()
      }
    },
    60_000,
  )

  test('at 1280×800 the inspector keeps the CORS column in sight, beside the open detail pane', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } })
    try {
      const page = await context.newPage()
      // Long paths and queries, as real APIs have: they must not push the CORS column away.
      const long = `/api/items/${'a-very-long-segment/'.repeat(6)}end?filter=${'x'.repeat(80)}&page=2`
      for (const path of [long, '/api/items?short=1']) {
        const answer = await fetch(`${env.app.origin}${path}`)
        await answer.arrayBuffer()
      }
      await page.goto(`${env.app.origin}/__cors-dev-proxy/`)
      await page.locator('#rows tr').nth(1).waitFor()
      await page.locator('#rows tr').first().click()
      await page.locator('#detail table.headers').first().waitFor()
      const cells = await page.evaluate(() => {
        const header = [...document.querySelectorAll('thead th')].at(-1) as HTMLElement
        return [
          header,
          ...[...document.querySelectorAll('#rows tr')].map((row) => row.lastElementChild as HTMLElement),
        ].map((cell) => {
          const box = cell.getBoundingClientRect()
          const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
          return {
            text: cell.textContent,
            right: box.right,
            visible: box.width > 0 && box.left >= 0 && box.right <= innerWidth,
            hitsCell: hit !== null && cell.contains(hit),
          }
        })
      })
      const detailLeft = await page.evaluate(
        () => (document.querySelector('#detail') as HTMLElement).getBoundingClientRect().left,
      )
      expect(cells.map((cell) => cell.text)).toEqual(['CORS', 'same-origin', 'same-origin'])
      for (const cell of cells) {
        expect(cell).toMatchObject({ visible: true, hitsCell: true })
        expect(cell.right).toBeLessThanOrEqual(detailLeft)
      }
    } finally {
      await context.close()
    }
  }, 60_000)
})
