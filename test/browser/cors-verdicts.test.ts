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
import { BROWSER_CORS_CASES, type BrowserCorsCase, ECHO_READABLE } from './cors-cases.js'

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
type Outcome =
  | { read: true; status: number; body: string; headerNames: string[] }
  | { read: false; error: string }

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

/** What the page's script got: the body and the header names it could read, or the error it was given. */
function fetchInPage(url: string, init: RequestInit = {}): Promise<Outcome> {
  return page.page.evaluate(
    async ([url, init]) => {
      try {
        const res = await fetch(url, init)
        const headerNames = [...res.headers.keys()]
        return { read: true as const, status: res.status, body: await res.text(), headerNames }
      } catch (error) {
        return { read: false as const, error: String(error) }
      }
    },
    [url, init] as const,
  )
}

function xhrInPage(url: string, testCase: BrowserCorsCase): Promise<Outcome> {
  const { method, headers = {}, body } = testCase
  const withCredentials = testCase.credentials === 'include'
  return page.page.evaluate(
    ([url, method, headers, body, withCredentials]) =>
      new Promise<Outcome>((resolve) => {
        const xhr = new XMLHttpRequest()
        try {
          xhr.open(method, url)
        } catch (error) {
          resolve({ read: false, error: String(error) })
          return
        }
        xhr.withCredentials = withCredentials
        const lines = Array.isArray(headers) ? headers : Object.entries(headers)
        for (const [name, value] of lines) xhr.setRequestHeader(name, value)
        xhr.onload = () => {
          // "name: value" lines; the names, as the script would split them.
          const headerNames = xhr
            .getAllResponseHeaders()
            .split('\r\n')
            .filter((line) => line !== '')
            .map((line) => line.slice(0, line.indexOf(':')))
          resolve({ read: true, status: xhr.status, body: xhr.responseText, headerNames })
        }
        xhr.onerror = () => resolve({ read: false, error: 'XMLHttpRequest error' })
        xhr.send(body ?? null)
      }),
    [url, method, headers, body, withCredentials] as const,
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

/**
 * What Node's HTTP parser answers, before the mock sees the request, to a method it does not
 * know or one in lowercase (llhttp, Node's default `clientError` handler): the model is fed this.
 */
const PARSER_REFUSAL = { status: 400, headers: { connection: 'close' } }

/** Runs the verdict on the exchanges the backend logged for `request.url`. */
function verdictFor(request: CorsRequestInput, refusedByParser = false) {
  const { preflight, actual } = exchangesOf(String(request.url))
  const response = refusedByParser ? PARSER_REFUSAL : answerOf(actual)
  return evaluateCors(request, answerOf(preflight), response)
}

/** `{origin}` and `{ORIGIN}` of the table, made the page's origin. */
function withOrigin(text: string): string {
  return text.replaceAll('{origin}', pageOrigin).replaceAll('{ORIGIN}', pageOrigin.toUpperCase())
}

/** The printed lines a case accepts: one, or one of several when Chromium's choice cannot be promised. */
function acceptedLines(request: CorsRequestInput, text: string | readonly string[]): string[] {
  const prefix = `Access to ${request.initiator} at '${request.url}' from origin '${pageOrigin}' has been blocked by CORS policy: `
  return (typeof text === 'string' ? [text] : text).map((item) => `${prefix}${withOrigin(item)}`)
}

/** What the script did with a readable answer, and what Chromium printed about a blocked one. */
async function chromiumPrinted(request: CorsRequestInput): Promise<string | undefined> {
  return page.waitForConsole(`Access to ${request.initiator} at '${request.url}'`)
}

/**
 * Each case is asserted twice, separately: what Chromium did matches the table (the `Chromium`
 * expectations), and what the model predicts from the answers the backend really sent matches
 * the table (the `model` ones). A Chromium update then shows up as a Chromium change, not as a
 * model bug. Soft expectations, so one run reports both sides.
 */
describe('the browser matrix (BROWSER_CORS_CASES, also sent by `cors-dev-proxy check`)', {
  timeout: 30_000,
}, () => {
  it.each(BROWSER_CORS_CASES)('$name', async (testCase) => {
    const url = mockUrl(testCase.path, withOrigin(testCase.switches))
    const credentials = testCase.credentials ?? 'same-origin'
    const outcome =
      testCase.initiator === 'XMLHttpRequest'
        ? await xhrInPage(url, testCase)
        : await fetchInPage(url, {
            method: testCase.method,
            headers: testCase.headers as HeadersInit | undefined,
            body: testCase.body,
            credentials,
          })
    const request: CorsRequestInput = {
      url,
      origin: pageOrigin,
      method: testCase.method,
      headers: testCase.headers,
      credentials,
      initiator: testCase.initiator,
    }
    const { expected } = testCase
    if ('threw' in expected) {
      // Chromium: the script got this exception, and nothing reached the backend.
      expect.soft(outcome, 'Chromium').toEqual({ read: false, error: expected.threw })
      expect.soft(exchangesOf(url), 'Chromium').toEqual({ preflight: undefined, actual: undefined })
      // The model, separately: the same exception, no preflight, no CORS text.
      const verdict = verdictFor(request)
      expect
        .soft(verdict, 'model')
        .toMatchObject({ allowed: false, preflight: false, scriptError: expected.threw })
      expect.soft(verdict.message, 'model').toBeUndefined()
      return
    }
    const verdict = verdictFor(request, testCase.refusedByParser)
    if (expected.readable) {
      const readHeaders = expected.readHeaders ?? ECHO_READABLE
      expect.soft(outcome, 'Chromium').toMatchObject({ read: true, status: 200 })
      if (outcome.read) {
        expect
          .soft([...new Set(outcome.headerNames)].sort(), 'Chromium: readable headers')
          .toEqual(readHeaders)
        // A HEAD answer has no body to echo.
        const echo = outcome.body === '' ? {} : JSON.parse(outcome.body)
        if (outcome.body !== '') {
          expect(echo).toMatchObject({
            method: normalizedMethod(testCase.method),
            path: testCase.path,
            origin: pageOrigin,
          })
        }
        if (testCase.body !== undefined) expect(echo.body).toEqual(parseBody(testCase.body))
      }
      expect.soft(verdict, 'model').toMatchObject({ allowed: true, preflight: testCase.preflight })
      expect.soft(verdict.readableHeaders, 'model: readable headers').toEqual(readHeaders)
    } else {
      expect.soft(outcome.read, 'Chromium').toBe(false)
      const lines = acceptedLines(request, expected.text)
      const printed = await chromiumPrinted(request)
      expect.soft(lines, 'Chromium').toContain(printed)
      expect.soft(verdict.allowed, 'model').toBe(false)
      expect.soft(lines, 'model').toContain(verdict.message)
      expect.soft(verdict.stage, 'model').toBe(expected.stage)
    }
    // What reached the backend: a preflight exactly when one is expected, with the method and the
    // header names of the table's request; the request itself unless the preflight failed, and then answered.
    const { preflight, actual } = exchangesOf(url)
    expect.soft(preflight !== undefined, 'Chromium: preflight sent').toBe(testCase.preflight)
    expect.soft(verdict.preflight, 'model: preflight').toBe(testCase.preflight)
    if (preflight !== undefined) {
      const names = classifyRequest(request).unsafeHeaderNames
      expect
        .soft(preflight.requestHeaders['access-control-request-method'], 'Chromium')
        .toBe(normalizedMethod(testCase.method))
      expect
        .soft(preflight.requestHeaders['access-control-request-headers'], 'Chromium vs model')
        .toBe(names.length > 0 ? names.join(',') : undefined)
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
    if ((!expected.readable && expected.stage === 'preflight') || testCase.refusedByParser) {
      expect.soft(actual, 'Chromium: no request reached the mock').toBeUndefined()
    } else {
      expect.soft(actual, 'Chromium: the request reached the mock').toMatchObject({
        origin: pageOrigin,
        handled: true,
        status: 200,
      })
    }
  })
})

/** The method as the browser sends it: only these six are uppercased (Fetch standard "normalize a method"). */
function normalizedMethod(method: string): string {
  return /^(delete|get|head|options|post|put)$/i.test(method) ? method.toUpperCase() : method
}

/** A case's body as the echo parses it: JSON when it is JSON, else the text. */
function parseBody(body: string): unknown {
  try {
    return JSON.parse(body)
  } catch {
    return body
  }
}

describe('Authorization under Access-Control-Allow-Headers: *', { timeout: 30_000 }, () => {
  it('is readable in Chromium 156, which files a DevTools deprecation issue and prints nothing; the model says so in its fix', async () => {
    const cdp = await page.page.context().newCDPSession(page.page)
    const issues: { issue: { code: string; details: { deprecationIssueDetails?: { type: string } } } }[] = []
    cdp.on('Audits.issueAdded', (event) => issues.push(event as (typeof issues)[number]))
    await cdp.send('Audits.enable')
    const url = mockUrl('/items/1', 'cors=reflect&allowHeaders=*')
    const headers = { Authorization: 'Bearer x' }
    const outcome = await fetchInPage(url, { method: 'PUT', headers })
    expect(outcome).toMatchObject({ read: true, status: 200 })
    await expect
      .poll(() => issues.map((event) => event.issue.details.deprecationIssueDetails?.type))
      .toContain('AuthorizationCoveredByWildcard')
    expect(page.console.filter((entry) => entry.text.includes(url))).toEqual([])
    await cdp.detach()
    const verdict = verdictFor({ url, origin: pageOrigin, method: 'PUT', headers })
    expect(verdict).toMatchObject({ allowed: true, preflight: true })
    expect(verdict.fix).toContain('AuthorizationCoveredByWildcard')
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
