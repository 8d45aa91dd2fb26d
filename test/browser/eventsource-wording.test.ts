import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { evaluateCors } from '../../packages/core/src/browser/evaluate-cors.js'
import { type ConsolePage, launchChromium, openConsolePage } from '../support/browser.js'
import { listen, type StartedServer } from '../support/servers.js'

/**
 * An EventSource refused by CORS, in Chromium and in the model: Chromium words it
 * `Access to resource at …` (not `fetch`), with neither fetch's "valid value" hint nor
 * XMLHttpRequest's credentials hint. Each case's answer head is the same in both; the model is
 * fed what the backend sent.
 */

/** Answer heads by path: what a backend sends for an event stream. */
const ANSWERS: Record<string, Record<string, string>> = {
  '/missing': {},
  '/multiple': { 'access-control-allow-origin': 'http://a.test, http://b.test' },
  '/mismatch': { 'access-control-allow-origin': 'http://a.test' },
  '/invalid': { 'access-control-allow-origin': 'not an origin' },
  '/wildcard-credentials': { 'access-control-allow-origin': '*' },
  '/credentials-not-true': {
    'access-control-allow-origin': '{origin}',
    'access-control-allow-credentials': 'yes',
  },
}

let browser: Browser
let api: StartedServer<ReturnType<typeof createServer>>
let page: StartedServer<ReturnType<typeof createServer>>
let tab: ConsolePage
let pageOrigin: string

beforeAll(async () => {
  api = await listen(
    createServer((req: IncomingMessage, res: ServerResponse) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname
      const headers: Record<string, string> = { 'content-type': 'text/event-stream' }
      for (const [name, value] of Object.entries(ANSWERS[path] ?? {})) {
        headers[name] = value.replace('{origin}', String(req.headers.origin))
      }
      res.writeHead(200, headers)
      res.end('data: x\n\n')
    }),
  )
  page = await listen(createServer((_req, res) => res.end('<p>page</p>')))
  // A page on localhost and the backend on 127.0.0.1: two origins.
  pageOrigin = `http://localhost:${new URL(page.url).port}`
  browser = await launchChromium()
  tab = await openConsolePage(browser, `${pageOrigin}/`)
}, 30_000)

afterAll(async () => {
  await tab?.close()
  await browser?.close()
  await api?.close()
  await page?.close()
})

describe('an EventSource refused by CORS', () => {
  it.each(Object.keys(ANSWERS))('%s: Chromium and the model print the same line', async (path) => {
    const credentials = path.includes('credentials')
    const url = `${api.url}${path}`
    const closed = await tab.page.evaluate(
      ([source, withCredentials]) =>
        new Promise<boolean>((resolve) => {
          const events = new EventSource(source as string, { withCredentials: withCredentials as boolean })
          events.onmessage = () => resolve(false)
          events.onerror = () => {
            const state = events.readyState
            events.close()
            resolve(state === EventSource.CLOSED)
          }
        }),
      [url, credentials],
    )
    // Chromium: the page read nothing, the source is closed (no reconnect), and the line says why.
    expect(closed).toBe(true)
    const printed = await tab.waitForConsole(`Access to resource at '${url}'`)
    const headers = Object.entries(ANSWERS[path] ?? {}).map(
      ([name, value]) => [name, value.replace('{origin}', pageOrigin)] as [string, string],
    )
    const verdict = evaluateCors(
      {
        url,
        origin: pageOrigin,
        method: 'GET',
        credentials: credentials ? 'include' : 'same-origin',
        initiator: 'EventSource',
      },
      undefined,
      { status: 200, headers: [['content-type', 'text/event-stream'], ...headers] },
    )
    expect(verdict.allowed).toBe(false)
    expect(printed).toBeDefined()
    expect(verdict.message).toBe(printed)
  })
})
