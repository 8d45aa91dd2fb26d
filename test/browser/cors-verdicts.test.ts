import { execFile } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import {
  type CorsRequestInput,
  classifyRequest,
  evaluateCors,
  type MockRequestLog,
  type RunningMockBackend,
  startMockBackend,
} from '@cors-dev-proxy/core'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ConsolePage, launchChromium, openConsolePage } from '../support/browser.js'
import { BROWSER_CORS_CASES, type BrowserCorsCase } from './cors-cases.js'

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

function xhrInPage(url: string, testCase: BrowserCorsCase): Promise<Outcome> {
  const { method, headers = {}, body, credentials = false } = testCase
  return page.page.evaluate(
    ([url, method, headers, body, credentials]) =>
      new Promise<Outcome>((resolve) => {
        const xhr = new XMLHttpRequest()
        try {
          xhr.open(method, url)
        } catch (error) {
          resolve({ read: false, error: String(error) })
          return
        }
        xhr.withCredentials = credentials
        const lines = Array.isArray(headers) ? headers : Object.entries(headers)
        for (const [name, value] of lines) xhr.setRequestHeader(name, value)
        xhr.onload = () => resolve({ read: true, status: xhr.status, body: xhr.responseText })
        xhr.onerror = () => resolve({ read: false, error: 'XMLHttpRequest error' })
        xhr.send(body ?? null)
      }),
    [url, method, headers, body, credentials] as const,
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
async function expectBlockedLikeChromium(
  outcome: Outcome,
  request: CorsRequestInput,
  text: string | readonly string[],
) {
  expect(outcome.read).toBe(false)
  const initiator = request.initiator ?? 'fetch'
  const printed = await page.waitForConsole(`Access to ${initiator} at '${request.url}'`)
  const prefix = `Access to ${initiator} at '${request.url}' from origin '${pageOrigin}' has been blocked by CORS policy: `
  const verdict = verdictFor(request)
  expect(verdict.allowed).toBe(false)
  if (typeof text === 'string') {
    expect(printed).toBe(`${prefix}${text}`)
    expect(verdict.message).toBe(printed)
  } else {
    // Chromium's choice among these cannot be promised: Chromium's text and the model's are each one of them.
    const texts = text.map((item) => `${prefix}${item}`)
    expect(texts).toContain(printed)
    expect(texts).toContain(verdict.message)
  }
  return verdict
}

describe('the browser matrix (BROWSER_CORS_CASES, also sent by `cors-dev-proxy check`)', {
  timeout: 30_000,
}, () => {
  it.each(BROWSER_CORS_CASES)('$name', async (testCase) => {
    const url = mockUrl(testCase.path, testCase.switches)
    const outcome =
      testCase.initiator === 'XMLHttpRequest'
        ? await xhrInPage(url, testCase)
        : await fetchInPage(url, {
            method: testCase.method,
            headers: testCase.headers as HeadersInit | undefined,
            body: testCase.body,
            credentials: testCase.credentials ? 'include' : 'same-origin',
          })
    const request: CorsRequestInput = {
      url,
      origin: pageOrigin,
      method: testCase.method,
      headers: testCase.headers,
      credentials: testCase.credentials ? 'include' : 'same-origin',
      initiator: testCase.initiator,
    }
    const { expected } = testCase
    if ('threw' in expected) {
      // Chromium: the script got this exception, and nothing reached the backend.
      expect(outcome).toEqual({ read: false, error: expected.threw })
      expect(exchangesOf(url)).toEqual({ preflight: undefined, actual: undefined })
      // The model, separately: the same exception, no preflight, no CORS text.
      const verdict = verdictFor(request)
      expect(verdict).toMatchObject({ allowed: false, preflight: false, scriptError: expected.threw })
      expect(verdict.message).toBeUndefined()
      return
    }
    if (expected.readable) {
      expect(outcome).toMatchObject({ read: true, status: 200 })
      if (!outcome.read) return
      const echo = JSON.parse(outcome.body)
      expect(echo).toMatchObject({ method: testCase.method, path: testCase.path, origin: pageOrigin })
      if (testCase.body !== undefined) expect(echo.body).toEqual(JSON.parse(testCase.body))
      expect(verdictFor(request)).toMatchObject({ allowed: true, preflight: testCase.preflight })
    } else {
      const verdict = await expectBlockedLikeChromium(outcome, request, expected.text)
      expect(verdict.stage).toBe(expected.stage)
    }
    // What reached the backend: a preflight exactly when one is expected, with the method and the
    // header names the model lists; the request itself unless the preflight failed, and then answered.
    const { preflight, actual } = exchangesOf(url)
    expect(preflight !== undefined).toBe(testCase.preflight)
    if (preflight !== undefined) {
      const names = classifyRequest(request).unsafeHeaderNames
      expect(preflight.requestHeaders['access-control-request-method']).toBe(testCase.method)
      expect(preflight.requestHeaders['access-control-request-headers']).toBe(
        names.length > 0 ? names.join(',') : undefined,
      )
    }
    if (actual !== undefined && Array.isArray(testCase.headers)) {
      // The script's values for one name arrive as one line, joined by ", ", as the model judges them.
      const combined = new Map<string, string>()
      for (const [name, value] of testCase.headers) {
        const lower = name.toLowerCase()
        combined.set(lower, combined.has(lower) ? `${combined.get(lower)}, ${value}` : value)
      }
      for (const [name, value] of combined) expect(actual.requestHeaders[name]).toBe(value)
    }
    if (!expected.readable && expected.stage === 'preflight') expect(actual).toBeUndefined()
    else
      expect(actual).toMatchObject({
        method: testCase.method,
        origin: pageOrigin,
        handled: true,
        status: 200,
      })
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
