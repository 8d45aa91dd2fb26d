import { execFile } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import {
  type CorsRequestInput,
  evaluateCors,
  type MockRequestLog,
  type RunningMockBackend,
  startMockBackend,
} from '@cors-dev-proxy/core'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ConsolePage, launchChromium, openConsolePage } from '../support/browser.js'

/**
 * Headless Chromium against the mock backend on another origin (another port of 127.0.0.1):
 * what the script can read, what Chromium prints, and whether `evaluateCors`, fed with the
 * headers the backend really sent, predicts the same verdict in the same words.
 */

const root = fileURLToPath(new URL('../../', import.meta.url))
const clientSource = `${root}packages/core/src/client/jsonp.ts`
const clientBuilt = `${root}packages/core/dist/client/jsonp.js`

/** The built browser client, as shipped; built first when missing or older than its source. */
async function builtJsonpClient(): Promise<string> {
  const stale = !existsSync(clientBuilt) || statSync(clientBuilt).mtimeMs < statSync(clientSource).mtimeMs
  if (stale) {
    const tsc = `${root}node_modules/typescript/bin/tsc`
    // Type errors elsewhere in the package make tsc exit non-zero but it still emits; check the file.
    await promisify(execFile)(process.execPath, [tsc, '-b', 'packages/core'], { cwd: root }).catch(() => {})
  }
  return readFile(clientBuilt, 'utf8')
}

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>cors verdicts</title>
<script type="module">
  import { jsonp } from '/jsonp.js'
  window.jsonp = jsonp
  window.ready = true
</script>`

/** What the page's script got: the body it could read, or the error it was given. */
type Outcome = { read: true; status: number; body: string } | { read: false; error: string }

interface PageGlobals {
  jsonp(url: string, options?: { param?: string; timeout?: number }): Promise<unknown>
  ready?: boolean
}

let browser: Browser
let mock: RunningMockBackend
let pageServer: Server
let pageOrigin: string
let page: ConsolePage
let caseNumber = 0

beforeAll(async () => {
  const client = await builtJsonpClient()
  mock = await startMockBackend()
  pageServer = createServer((req, res) => {
    const isClient = req.url === '/jsonp.js'
    res.setHeader('content-type', isClient ? 'text/javascript; charset=utf-8' : 'text/html; charset=utf-8')
    res.end(isClient ? client : PAGE)
  })
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve))
  pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`
  browser = await launchChromium()
  page = await openConsolePage(browser, `${pageOrigin}/`)
  await page.page.waitForFunction(() => (window as unknown as PageGlobals).ready === true)
}, 120_000)

afterAll(async () => {
  await page?.close()
  await browser?.close()
  await mock?.close()
  pageServer?.closeAllConnections()
  await new Promise((resolve) => pageServer?.close(resolve))
}, 60_000)

/** A URL on the mock, unique per case so preflight caching and log lookups never mix cases. */
function mockUrl(path: string, switches: string): string {
  caseNumber += 1
  return `${mock.origin}${path}?${switches}${switches ? '&' : ''}case=${caseNumber}`
}

function fetchInPage(url: string, init: RequestInit = {}): Promise<Outcome> {
  return page.page.evaluate(
    async ([url, init]) => {
      try {
        const res = await fetch(url, init)
        return { read: true as const, status: res.status, body: await res.text() }
      } catch (error) {
        return { read: false as const, error: String(error) }
      }
    },
    [url, init] as const,
  )
}

function xhrInPage(url: string): Promise<Outcome> {
  return page.page.evaluate(
    (url) =>
      new Promise<Outcome>((resolve) => {
        const xhr = new XMLHttpRequest()
        xhr.open('GET', url)
        xhr.onload = () => resolve({ read: true, status: xhr.status, body: xhr.responseText })
        xhr.onerror = () => resolve({ read: false, error: 'XMLHttpRequest error' })
        xhr.send()
      }),
    url,
  )
}

/** The backend's record of one case: its preflight and its actual request, if they arrived. */
function exchangesOf(url: string): { preflight?: MockRequestLog; actual?: MockRequestLog } {
  const { pathname, search } = new URL(url)
  const entries = mock.log.filter((entry) => entry.path === `${pathname}${search}`)
  return { preflight: entries.find((e) => e.preflight), actual: entries.find((e) => !e.preflight) }
}

/** What the backend sent, in the shape `evaluateCors` takes. */
function answerOf(entry: MockRequestLog | undefined) {
  if (entry === undefined) return undefined
  expect(entry.handled).toBe(true)
  return { status: entry.status ?? 0, headers: entry.responseHeaders ?? {} }
}

/** Runs the verdict on the exchanges the backend logged for `request.url`. */
function verdictFor(request: CorsRequestInput) {
  const { preflight, actual } = exchangesOf(String(request.url))
  return evaluateCors(request, answerOf(preflight), answerOf(actual))
}

/**
 * Asserts that Chromium blocked the call, printed a CORS error for it, and that
 * `evaluateCors` on the same exchanges gives exactly that text.
 */
async function expectBlockedLikeChromium(outcome: Outcome, request: CorsRequestInput, text: string) {
  expect(outcome.read).toBe(false)
  const initiator = request.initiator ?? 'fetch'
  const printed = await page.waitForConsole(`Access to ${initiator} at '${request.url}'`)
  expect(printed).toBe(
    `Access to ${initiator} at '${request.url}' from origin '${pageOrigin}' has been blocked by CORS policy: ${text}`,
  )
  const verdict = verdictFor(request)
  expect(verdict.allowed).toBe(false)
  expect(verdict.message).toBe(printed)
  return verdict
}

describe('simple requests', { timeout: 30_000 }, () => {
  it.each(['cors=reflect', 'cors=wildcard'])('GET with %s is readable', async (switches) => {
    const url = mockUrl('/users', switches)
    const outcome = await fetchInPage(url)
    expect(outcome).toMatchObject({ read: true, status: 200 })
    if (!outcome.read) return
    expect(JSON.parse(outcome.body)).toMatchObject({ method: 'GET', path: '/users', origin: pageOrigin })
    const verdict = verdictFor({ url, origin: pageOrigin, method: 'GET' })
    expect(verdict).toMatchObject({ allowed: true, preflight: false })
    expect(exchangesOf(url).preflight).toBeUndefined()
  })

  it('GET with cors=off is blocked, yet the backend received and answered it', async () => {
    const url = mockUrl('/users', 'cors=off')
    const outcome = await fetchInPage(url)
    await expectBlockedLikeChromium(
      outcome,
      { url, origin: pageOrigin, method: 'GET' },
      "No 'Access-Control-Allow-Origin' header is present on the requested resource.",
    )
    const { actual } = exchangesOf(url)
    expect(actual).toMatchObject({
      method: 'GET',
      origin: pageOrigin,
      preflight: false,
      handled: true,
      status: 200,
    })
  })

  it('XMLHttpRequest GET with cors=off is blocked in XMLHttpRequest words', async () => {
    const url = mockUrl('/users', 'cors=off')
    const outcome = await xhrInPage(url)
    await expectBlockedLikeChromium(
      outcome,
      { url, origin: pageOrigin, method: 'GET', initiator: 'XMLHttpRequest' },
      "No 'Access-Control-Allow-Origin' header is present on the requested resource.",
    )
  })
})

describe('preflighted requests', { timeout: 30_000 }, () => {
  const json = { 'Content-Type': 'application/json' }

  it('PUT with Content-Type: application/json is preflighted and allowed with cors=reflect', async () => {
    const url = mockUrl('/items/1', 'cors=reflect')
    const outcome = await fetchInPage(url, { method: 'PUT', headers: json, body: '{"name":"ada"}' })
    expect(outcome).toMatchObject({ read: true, status: 200 })
    if (!outcome.read) return
    expect(JSON.parse(outcome.body)).toMatchObject({ method: 'PUT', body: { name: 'ada' } })
    const { preflight } = exchangesOf(url)
    expect(preflight?.requestHeaders).toMatchObject({
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'content-type',
    })
    expect(verdictFor({ url, origin: pageOrigin, method: 'PUT', headers: json })).toMatchObject({
      allowed: true,
      preflight: true,
    })
  })

  it('PUT is blocked when the preflight allows only GET,POST, and is never sent', async () => {
    const url = mockUrl('/items/1', 'cors=reflect&allowMethods=GET,POST')
    const outcome = await fetchInPage(url, { method: 'PUT', headers: json, body: '{}' })
    const verdict = await expectBlockedLikeChromium(
      outcome,
      { url, origin: pageOrigin, method: 'PUT', headers: json },
      'Method PUT is not allowed by Access-Control-Allow-Methods in preflight response.',
    )
    expect(verdict.stage).toBe('preflight')
    expect(exchangesOf(url)).toMatchObject({ preflight: { status: 204 }, actual: undefined })
  })

  it('PUT with X-Foo is blocked when the preflight allows only content-type', async () => {
    const url = mockUrl('/items/1', 'cors=reflect&allowHeaders=content-type')
    const headers = { ...json, 'X-Foo': 'bar' }
    const outcome = await fetchInPage(url, { method: 'PUT', headers, body: '{}' })
    await expectBlockedLikeChromium(
      outcome,
      { url, origin: pageOrigin, method: 'PUT', headers },
      'Request header field x-foo is not allowed by Access-Control-Allow-Headers in preflight response.',
    )
    expect(exchangesOf(url).actual).toBeUndefined()
  })

  it('PUT is blocked when the preflight is answered 500', async () => {
    const url = mockUrl('/items/1', 'cors=reflect&preflight=fail')
    const outcome = await fetchInPage(url, { method: 'PUT', headers: json, body: '{}' })
    await expectBlockedLikeChromium(
      outcome,
      { url, origin: pageOrigin, method: 'PUT', headers: json },
      "Response to preflight request doesn't pass access control check: It does not have HTTP ok status.",
    )
  })

  it('PUT is blocked when the preflight answer has no CORS headers', async () => {
    const url = mockUrl('/items/1', 'cors=off')
    const outcome = await fetchInPage(url, { method: 'PUT', headers: json, body: '{}' })
    await expectBlockedLikeChromium(
      outcome,
      { url, origin: pageOrigin, method: 'PUT', headers: json },
      "Response to preflight request doesn't pass access control check: No 'Access-Control-Allow-Origin' header is present on the requested resource.",
    )
  })
})

describe("credentials: 'include'", { timeout: 30_000 }, () => {
  it('is allowed with a reflected origin, and the cookie set cross-origin travels back', async () => {
    const set = await fetchInPage(mockUrl('/cookie', 'set=session=abc123&cors=reflect'), {
      credentials: 'include',
    })
    expect(set).toMatchObject({ read: true, status: 200 })
    const url = mockUrl('/me', 'cors=reflect')
    const outcome = await fetchInPage(url, { credentials: 'include' })
    expect(outcome).toMatchObject({ read: true, status: 200 })
    if (!outcome.read) return
    expect(JSON.parse(outcome.body)).toMatchObject({ cookies: { session: 'abc123' }, origin: pageOrigin })
    expect(verdictFor({ url, origin: pageOrigin, method: 'GET', credentials: 'include' })).toMatchObject({
      allowed: true,
    })
  })

  it("is blocked with Access-Control-Allow-Origin: '*'", async () => {
    const url = mockUrl('/me', 'cors=wildcard')
    const outcome = await fetchInPage(url, { credentials: 'include' })
    await expectBlockedLikeChromium(
      outcome,
      { url, origin: pageOrigin, method: 'GET', credentials: 'include' },
      "The value of the 'Access-Control-Allow-Origin' header in the response must not be the wildcard '*' when the request's credentials mode is 'include'.",
    )
    expect(exchangesOf(url).actual).toMatchObject({ handled: true, status: 200 })
  })
})

describe('JSONP through the browser client', { timeout: 30_000 }, () => {
  function jsonpInPage(url: string): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
    return page.page.evaluate(async (url) => {
      try {
        return {
          ok: true as const,
          value: await (window as unknown as PageGlobals).jsonp(url, { timeout: 10_000 }),
        }
      } catch (error) {
        return { ok: false as const, error: (error as Error).message }
      }
    }, url)
  }

  it('loads the echo from a backend without any CORS headers', async () => {
    const url = mockUrl('/data', 'cors=off&x=1')
    const result = await jsonpInPage(url)
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.value).toMatchObject({ method: 'GET', path: '/data', query: { cors: 'off', x: '1' } })
    const callback = (result.value as { query: { callback: string } }).query.callback
    expect(callback).toMatch(/^[A-Za-z_$][\w$]*$/)
    // The client removed its global and its script element.
    const leftovers = await page.page.evaluate(
      (name) => [name in window, document.querySelectorAll('script[src*="/data?"]').length],
      callback,
    )
    expect(leftovers).toEqual([false, 0])
  })

  it('rejects with "request failed" when the backend refuses a bad callback name with 400', async () => {
    // The backend reads the first `callback`, the bad one; the client appends its own after it.
    const url = mockUrl('/data', 'callback=alert(1)//')
    const result = await jsonpInPage(url)
    expect(result).toEqual({ ok: false, error: 'request failed' })
    const entry = mock.log.find((e) => e.path.startsWith(new URL(url).pathname + new URL(url).search))
    expect(entry).toMatchObject({ status: 400, handled: true })
    expect(entry?.responseHeaders?.['content-type']).toBe('application/json; charset=utf-8')
  })
})
