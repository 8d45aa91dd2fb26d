import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ConsolePage, launchChromium, openConsolePage } from '../../../../test/support/browser.js'
import { type CorsRequestInput, evaluateCors } from '../../src/browser/evaluate-cors.js'

/**
 * The real Chromium against a server that answers exactly what each case says (headers the
 * mock backend cannot produce: two allow-origin lines, unparsable lists, a redirected
 * preflight...). For each case, what the script could read and the console text must match
 * `evaluateCors` fed with the same request and answers.
 */

interface Answer {
  status?: number
  headers?: Record<string, string | string[]>
}
interface Case {
  name: string
  init?: { method?: string; headers?: Record<string, string>; credentials?: RequestCredentials }
  preflight?: Answer
  response?: Answer
}

/** Stands for the page's origin in a case's headers. */
const PAGE_ORIGIN = '{origin}'

const allowAll = { 'access-control-allow-origin': '*' }
const cases: Case[] = [
  { name: 'simple, no allow-origin' },
  { name: 'simple, allowed', response: { headers: allowAll } },
  { name: 'wrong origin', response: { headers: { 'access-control-allow-origin': 'http://a.test' } } },
  {
    name: 'two allow-origin lines',
    response: { headers: { 'access-control-allow-origin': [PAGE_ORIGIN, PAGE_ORIGIN] } },
  },
  { name: 'invalid allow-origin', response: { headers: { 'access-control-allow-origin': 'nonsense' } } },
  { name: 'wildcard with credentials', init: { credentials: 'include' }, response: { headers: allowAll } },
  {
    name: 'credentials without allow-credentials',
    init: { credentials: 'include' },
    response: { headers: { 'access-control-allow-origin': PAGE_ORIGIN } },
  },
  { name: 'preflight without allow-origin', init: { method: 'PUT' } },
  { name: 'preflight 404 without allow-origin', init: { method: 'PUT' }, preflight: { status: 404 } },
  {
    name: 'preflight 404 with allow-origin',
    init: { method: 'PUT' },
    preflight: { status: 404, headers: allowAll },
  },
  {
    name: 'preflight redirected',
    init: { method: 'PUT' },
    preflight: { status: 302, headers: { location: '/elsewhere', ...allowAll } },
  },
  { name: 'method not allowed', init: { method: 'PUT' }, preflight: { headers: allowAll } },
  {
    name: 'lowercase patch against PATCH',
    init: { method: 'patch' },
    preflight: { headers: { ...allowAll, 'access-control-allow-methods': 'PATCH' } },
  },
  {
    name: 'header not allowed',
    init: { method: 'PUT', headers: { 'X-Foo': '1' } },
    preflight: { headers: { ...allowAll, 'access-control-allow-methods': 'PUT' } },
  },
  {
    name: 'unparsable allow-methods',
    init: { method: 'PUT' },
    preflight: { headers: { ...allowAll, 'access-control-allow-methods': 'PU T' } },
  },
  {
    name: 'preflight wildcard with credentials',
    init: { method: 'PUT', credentials: 'include' },
    preflight: { headers: allowAll },
  },
  {
    name: 'Authorization covered by * (deprecated, still allowed)',
    init: { headers: { authorization: 'Bearer x' } },
    preflight: { headers: { ...allowAll, 'access-control-allow-headers': '*' } },
    response: { headers: allowAll },
  },
  {
    name: 'preflight passes, response has no allow-origin',
    init: { method: 'PUT' },
    preflight: { headers: { ...allowAll, 'access-control-allow-methods': 'PUT' } },
  },
  {
    name: 'json POST fully allowed',
    init: { method: 'POST', headers: { 'content-type': 'application/json' } },
    preflight: { headers: { ...allowAll, 'access-control-allow-headers': 'content-type' } },
    response: { headers: allowAll },
  },
]

let browser: Browser
let api: Server
let pages: Server
let apiOrigin: string
let pageOrigin: string
let page: ConsolePage

function withOrigin(headers: Record<string, string | string[]> = {}, origin: string) {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      Array.isArray(value)
        ? value.map((v) => v.replace(PAGE_ORIGIN, origin))
        : value.replace(PAGE_ORIGIN, origin),
    ]),
  )
}

beforeAll(async () => {
  api = createServer((req, res) => {
    const index = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('case'))
    const entry = cases[index]
    const answer = (req.method === 'OPTIONS' ? entry?.preflight : entry?.response) ?? {}
    res.writeHead(
      answer.status ?? (req.method === 'OPTIONS' ? 204 : 200),
      withOrigin(answer.headers, req.headers.origin ?? ''),
    )
    res.end(req.method === 'OPTIONS' ? '' : 'body')
  })
  pages = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html')
    res.end('<!doctype html><title>cors</title>')
  })
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve))
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve))
  // Another host name for the same server: a different origin from the page's.
  apiOrigin = `http://localhost:${(api.address() as AddressInfo).port}`
  pageOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`
  browser = await launchChromium()
  page = await openConsolePage(browser, `${pageOrigin}/`)
}, 120_000)

afterAll(async () => {
  await page?.close()
  await browser?.close()
  for (const server of [api, pages]) {
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve))
  }
}, 60_000)

describe('evaluateCors predicts Chromium', { timeout: 30_000 }, () => {
  it.each(cases.map((entry, index) => [entry.name, index] as const))('%s', async (_name, index) => {
    const entry = cases[index]!
    const url = `${apiOrigin}/x?case=${index}`
    const read = await page.page.evaluate(
      async ([url, init]) => {
        try {
          await fetch(url, init)
          return true
        } catch {
          return false
        }
      },
      [url, entry.init ?? {}] as const,
    )
    const answer = (a: Answer | undefined, status: number) => ({
      status: a?.status ?? status,
      headers: withOrigin(a?.headers, pageOrigin),
    })
    const request: CorsRequestInput = { url, origin: pageOrigin, method: 'GET', ...entry.init }
    const verdict = evaluateCors(request, answer(entry.preflight, 204), answer(entry.response, 200))
    expect(verdict.allowed).toBe(read)
    if (read) return
    const printed = await page.waitForConsole(`Access to fetch at '${url}'`)
    expect(verdict.message).toBe(printed)
  })
})
