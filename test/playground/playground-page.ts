import type { Browser, Page } from 'playwright-core'
import { expect } from 'vitest'

/** What one row of the playground showed after Run all. */
export interface PlaygroundRow {
  id: string
  expect: string
  verdict: string
  consoleText: string
  preflight: string
  read: string
  notes: string[]
}

/** Opens the playground page (HTTPS errors ignored for the self-signed HTTP/2 server) and collects console lines. */
export async function openPlayground(browser: Browser, url: string, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport })
  const page = await context.newPage()
  const consoleLines: string[] = []
  page.on('console', (message) => consoleLines.push(message.text()))
  await page.goto(url)
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 })
  return { page, consoleLines, close: () => context.close() }
}

/** Clicks Run all and reads every row back. */
export async function runAllRows(page: Page): Promise<PlaygroundRow[]> {
  await page.click('#run-all')
  await page.waitForSelector('body[data-ran-all="true"]', { timeout: 60_000 })
  return page.$$eval('#cases tbody tr', (rows) =>
    rows.map((row) => ({
      id: (row as HTMLElement).dataset.case ?? '',
      expect: (row as HTMLElement).dataset.expect ?? '',
      verdict: (row as HTMLElement).dataset.verdict ?? '',
      consoleText: row.querySelector('.console')?.textContent ?? '',
      preflight: row.querySelector('.preflight')?.textContent ?? '',
      read: row.querySelector('.read')?.textContent ?? '',
      notes: [...row.querySelectorAll('.note')].map((note) => note.textContent ?? ''),
    })),
  )
}

/** Runs the HTTP/1.1 against HTTP/2 panel and reads both panels back. */
export async function runProtocolPanel(page: Page) {
  await page.click('#run-protocols')
  await page.waitForSelector('body[data-protocols-done="true"]', { timeout: 60_000 })
  return page.$$eval('.protocol', (panels) =>
    panels.map((panel) => ({
      id: panel.id,
      protocol: (panel as HTMLElement).dataset.protocol ?? '',
      maxInFlight: Number((panel as HTMLElement).dataset.maxInFlight ?? Number.NaN),
      error: (panel as HTMLElement).dataset.error ?? '',
      summary: panel.querySelector('.summary')?.textContent ?? '',
    })),
  )
}

/** The assertions every variant of the playground must pass. */
export function expectEveryRowAsDescribed(rows: PlaygroundRow[], consoleLines: string[]) {
  expect(rows.length).toBe(16)
  for (const row of rows)
    expect({ id: row.id, verdict: row.verdict }).toEqual({ id: row.id, verdict: row.expect })
  const byId = Object.fromEntries(rows.map((row) => [row.id, row]))
  // The direct GET was blocked by the browser, yet the backend's log shows it arrived and was answered.
  expect(byId.direct?.notes.join(' ')).toMatch(/backend log: GET \/items → 200/)
  expect(byId.proxied?.read).toMatch(/^200 /)
  expect(byId['cors-preflight']?.preflight).toMatch(/^yes: OPTIONS → 204/)
  expect(byId['cors-simple']?.preflight).toBe('no')
  expect(byId['cors-header']?.preflight).toMatch(/^yes/)
  // Every blocked fetch row shows the console text Chromium really printed for that call.
  const corsRows = rows.filter((row) => row.verdict === 'blocked' && row.id !== 'iframe')
  expect(corsRows.map((row) => row.id).sort()).toEqual(['cors-header', 'credentials-wildcard', 'direct'])
  for (const row of corsRows) {
    expect(row.consoleText).toMatch(/^Access to fetch at '.+' has been blocked by CORS policy: /)
    expect(consoleLines).toContain(row.consoleText)
  }
  expect(byId.iframe?.consoleText).toMatch(
    /Blocked a frame with origin .* from accessing a cross-origin frame/,
  )
}
