import { describe, expect, it } from 'vitest'
import type { BrowserAnswer, BrowserRequest } from '../../src/browser/browser-call.js'
import { createBrowserModel } from '../../src/browser/browser-model.js'
import { createPreflightCache } from '../../src/browser/preflight-cache.js'
import { ALPN_NEGOTIATION_FAILED } from '../../src/browser/streaming-upload.js'

/**
 * The stateful model against scripted servers: each test says what every URL answers, the model
 * sends, and the test checks what was sent and decided. The clock is the test's, so cache
 * expiry is exact. Real Chromium runs the same sequences in test/browser/browser-sequences.test.ts.
 */

const PAGE = 'http://localhost:5173'
const A = 'http://127.0.0.1:3000'
const B = 'http://127.0.0.1:4000'

type Script = (request: BrowserRequest) => BrowserAnswer

/** A preflight answer allowing everything the request asks for, from the given origin. */
function allowPreflight(request: BrowserRequest, extra: Record<string, string> = {}): BrowserAnswer {
  const asked = Object.fromEntries(request.headers)
  return {
    status: 204,
    headers: {
      'access-control-allow-origin': asked.origin ?? '*',
      'access-control-allow-methods': asked['access-control-request-method'] ?? '',
      'access-control-allow-headers': asked['access-control-request-headers'] ?? '',
      ...extra,
    },
  }
}

function setup(script: Script) {
  let clock = 0
  const sent: BrowserRequest[] = []
  const browser = createBrowserModel({
    origin: PAGE,
    now: () => clock,
    send: async (request) => {
      sent.push(request)
      return script(request)
    },
  })
  return {
    browser,
    sent,
    advance(ms: number) {
      clock += ms
    },
    kinds: () =>
      sent.map((request) => `${request.kind === 'preflight' ? 'OPTIONS' : request.method} ${request.url}`),
  }
}

const ok: BrowserAnswer = { status: 200, headers: { 'access-control-allow-origin': PAGE } }

describe('the preflight cache', () => {
  const put = { url: `${A}/items`, method: 'PUT', headers: { 'x-foo': '1' } }

  it('skips the preflight of an identical call within the 5 s default, and sends it again at 5 s', async () => {
    const t = setup((request) => (request.kind === 'preflight' ? allowPreflight(request) : ok))
    const first = await t.browser.fetch(put)
    expect(first).toMatchObject({ allowed: true, preflight: true, cachedPreflights: [] })
    t.advance(4999)
    const second = await t.browser.fetch(put)
    expect(second).toMatchObject({ allowed: true, preflight: false, cachedPreflights: [`${A}/items`] })
    t.advance(1)
    const third = await t.browser.fetch(put)
    expect(third.preflight).toBe(true)
    expect(t.kinds()).toEqual([
      `OPTIONS ${A}/items`,
      `PUT ${A}/items`,
      `PUT ${A}/items`,
      `OPTIONS ${A}/items`,
      `PUT ${A}/items`,
    ])
  })

  it.each([
    ['600', 599_999, 600_000],
    ['86400', 7_199_999, 7_200_000],
    ['abc', 4_999, 5_000],
    ['10.5', 4_999, 5_000],
    ['+10', 9_999, 10_000],
    ['010', 9_999, 10_000],
    ['0x10', 4_999, 5_000],
    ['10, 20', 4_999, 5_000],
    ['99999999999999999999', 4_999, 5_000],
  ])('Access-Control-Max-Age %s: cached until %i ms, not at %i ms', async (maxAge, cachedAt, expiredAt) => {
    const t = setup((request) =>
      request.kind === 'preflight' ? allowPreflight(request, { 'access-control-max-age': maxAge }) : ok,
    )
    await t.browser.fetch(put)
    t.advance(cachedAt)
    expect((await t.browser.fetch(put)).preflight).toBe(false)
    t.advance(expiredAt - cachedAt)
    expect((await t.browser.fetch(put)).preflight).toBe(true)
  })

  it.each(['0', '-1'])('Access-Control-Max-Age %s caches nothing', async (maxAge) => {
    const t = setup((request) =>
      request.kind === 'preflight' ? allowPreflight(request, { 'access-control-max-age': maxAge }) : ok,
    )
    await t.browser.fetch(put)
    expect((await t.browser.fetch(put)).preflight).toBe(true)
  })

  it.each(['no-store', 'reload', 'no-cache'] as const)(
    "fetch's cache: '%s' sends the preflight anyway",
    async (cache) => {
      const t = setup((request) => (request.kind === 'preflight' ? allowPreflight(request) : ok))
      await t.browser.fetch(put)
      expect((await t.browser.fetch({ ...put, cache })).preflight).toBe(true)
      expect((await t.browser.fetch({ ...put, cache: 'force-cache' })).preflight).toBe(false)
    },
  )

  it('a failing actual response leaves the entry in place', async () => {
    let allowActual = false
    const t = setup((request) =>
      request.kind === 'preflight'
        ? allowPreflight(request)
        : allowActual
          ? ok
          : { status: 200, headers: {} },
    )
    expect(await t.browser.fetch(put)).toMatchObject({ allowed: false, stage: 'response' })
    allowActual = true
    expect(await t.browser.fetch(put)).toMatchObject({ allowed: true, preflight: false })
  })

  it('keys on the exact URL and origin: another query or port is another preflight', async () => {
    const t = setup((request) => (request.kind === 'preflight' ? allowPreflight(request) : ok))
    await t.browser.fetch(put)
    expect((await t.browser.fetch({ ...put, url: `${A}/items?x=1` })).preflight).toBe(true)
    expect((await t.browser.fetch({ ...put, url: `${B}/items` })).preflight).toBe(true)
  })

  it('sends a new preflight for a method or header the entry does not list, and drops the entry', async () => {
    const t = setup((request) => (request.kind === 'preflight' ? allowPreflight(request) : ok))
    await t.browser.fetch(put)
    expect((await t.browser.fetch({ ...put, method: 'DELETE' })).preflight).toBe(true)
    expect((await t.browser.fetch({ ...put, headers: { 'x-bar': '1' } })).preflight).toBe(true)
    // The DELETE preflight's answer replaced the PUT entry, the x-bar one replaced that: PUT + x-foo misses.
    expect((await t.browser.fetch(put)).preflight).toBe(true)
  })

  it('an entry made without credentials does not serve a call with credentials', async () => {
    const t = setup((request) =>
      request.kind === 'preflight'
        ? allowPreflight(request, { 'access-control-allow-credentials': 'true' })
        : { status: 200, headers: { ...ok.headers, 'access-control-allow-credentials': 'true' } },
    )
    await t.browser.fetch(put)
    expect((await t.browser.fetch({ ...put, credentials: 'include' })).preflight).toBe(true)
    // The credentialed entry serves both kinds of call.
    expect((await t.browser.fetch({ ...put, credentials: 'include' })).preflight).toBe(false)
    expect((await t.browser.fetch(put)).preflight).toBe(false)
  })

  it('`*` in a credentialed entry is no wildcard: a non-credentialed PUT is preflighted again', async () => {
    const t = setup((request) =>
      request.kind === 'preflight'
        ? allowPreflight(request, {
            'access-control-allow-methods': '*',
            'access-control-allow-credentials': 'true',
          })
        : { status: 200, headers: { ...ok.headers, 'access-control-allow-credentials': 'true' } },
    )
    await t.browser.fetch({ ...put, method: 'GET', credentials: 'include' })
    expect((await t.browser.fetch(put)).preflight).toBe(true)
  })

  it('a failed preflight stores nothing', async () => {
    let allow = false
    const t = setup((request) =>
      request.kind === 'preflight' ? (allow ? allowPreflight(request) : { status: 500, headers: {} }) : ok,
    )
    expect(await t.browser.fetch(put)).toMatchObject({ allowed: false, stage: 'preflight' })
    allow = true
    expect((await t.browser.fetch(put)).preflight).toBe(true)
    expect(t.browser.preflightCache.size).toBe(1)
  })
})

describe('redirects of the actual request', () => {
  it('follows a same-origin redirect at the target, each hop checked, and reports the URL list', async () => {
    const t = setup((request) =>
      request.url.endsWith('/old')
        ? { status: 301, headers: { location: '/new', 'access-control-allow-origin': '*' } }
        : { status: 200, headers: { 'access-control-allow-origin': '*' } },
    )
    const result = await t.browser.fetch({ url: `${A}/old` })
    expect(result).toMatchObject({ allowed: true, responseType: 'cors', urlList: [`${A}/old`, `${A}/new`] })
  })

  it('checks the redirect itself: without Allow-Origin on the 302 the call is blocked at that URL', async () => {
    const t = setup((request) =>
      request.url.endsWith('/old')
        ? { status: 302, headers: { location: '/new' } }
        : { status: 200, headers: { 'access-control-allow-origin': '*' } },
    )
    const result = await t.browser.fetch({ url: `${A}/old` })
    expect(result).toMatchObject({
      allowed: false,
      stage: 'response',
      error: { kind: 'missing-allow-origin' },
    })
    expect(result.message).toBe(
      `Access to fetch at '${A}/old' from origin '${PAGE}' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.`,
    )
    expect(t.kinds()).toEqual([`GET ${A}/old`])
  })

  it('names the first URL in "(redirected from …)" when a later hop fails', async () => {
    const t = setup((request) =>
      request.url.endsWith('/old')
        ? { status: 302, headers: { location: '/new', 'access-control-allow-origin': '*' } }
        : { status: 200, headers: {} },
    )
    const result = await t.browser.fetch({ url: `${A}/old` })
    expect(result.message).toBe(
      `Access to fetch at '${A}/new' (redirected from '${A}/old') from origin '${PAGE}' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.`,
    )
  })

  it('taints the origin from a cross-origin URL to another origin: B gets Origin: null', async () => {
    const t = setup((request) =>
      request.url.startsWith(A)
        ? { status: 307, headers: { location: `${B}/x`, 'access-control-allow-origin': PAGE } }
        : { status: 200, headers: { 'access-control-allow-origin': PAGE } },
    )
    const result = await t.browser.fetch({ url: `${A}/x` })
    expect(Object.fromEntries(t.sent[1]!.headers).origin).toBe('null')
    expect(result).toMatchObject({ allowed: false, error: { kind: 'allow-origin-mismatch', hint: PAGE } })
  })

  it('a tainted request passes with Allow-Origin null or *', async () => {
    for (const allowOrigin of ['null', '*']) {
      const t = setup((request) =>
        request.url.startsWith(A)
          ? { status: 302, headers: { location: `${B}/x`, 'access-control-allow-origin': '*' } }
          : { status: 200, headers: { 'access-control-allow-origin': allowOrigin } },
      )
      expect((await t.browser.fetch({ url: `${A}/x` })).allowed).toBe(true)
    }
  })

  it('a same-origin call redirected to another origin keeps the page origin and becomes CORS', async () => {
    const t = setup((request) =>
      request.url.startsWith(PAGE)
        ? { status: 302, headers: { location: `${A}/x` } }
        : { status: 200, headers: {} },
    )
    const result = await t.browser.fetch({ url: `${PAGE}/api/x` })
    expect(Object.fromEntries(t.sent[1]!.headers).origin).toBe(PAGE)
    expect(result).toMatchObject({ allowed: false, error: { kind: 'missing-allow-origin' } })
    expect(result.message).toContain(`at '${A}/x' (redirected from '${PAGE}/api/x')`)
  })

  it('preflights again after a cross-origin 307, with Origin: null', async () => {
    const t = setup((request) => {
      if (request.kind === 'preflight') return allowPreflight(request)
      return request.url.startsWith(A)
        ? { status: 307, headers: { location: `${B}/x`, 'access-control-allow-origin': PAGE } }
        : { status: 200, headers: { 'access-control-allow-origin': 'null' } }
    })
    const result = await t.browser.fetch({ url: `${A}/x`, method: 'PUT' })
    expect(result.allowed).toBe(true)
    expect(t.kinds()).toEqual([`OPTIONS ${A}/x`, `PUT ${A}/x`, `OPTIONS ${B}/x`, `PUT ${B}/x`])
    expect(Object.fromEntries(t.sent[2]!.headers).origin).toBe('null')
  })

  it('303 turns a JSON POST into a GET without Content-Type, so the next hop needs no preflight', async () => {
    const t = setup((request) => {
      if (request.kind === 'preflight') return allowPreflight(request)
      return request.url.endsWith('/form')
        ? { status: 303, headers: { location: '/done', 'access-control-allow-origin': PAGE } }
        : ok
    })
    const result = await t.browser.fetch({
      url: `${A}/form`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(result.allowed).toBe(true)
    expect(t.kinds()).toEqual([`OPTIONS ${A}/form`, `POST ${A}/form`, `GET ${A}/done`])
    expect(Object.fromEntries(t.sent[2]!.headers)['content-type']).toBeUndefined()
  })

  it('drops Authorization when a redirect leaves the origin', async () => {
    const t = setup((request) => {
      if (request.kind === 'preflight') return allowPreflight(request)
      return request.url.startsWith(A)
        ? { status: 302, headers: { location: `${B}/x`, 'access-control-allow-origin': PAGE } }
        : { status: 200, headers: { 'access-control-allow-origin': '*' } }
    })
    await t.browser.fetch({ url: `${A}/x`, headers: { authorization: 'Bearer t' } })
    expect(t.sent.at(-1)!.headers.map(([name]) => name)).not.toContain('authorization')
  })

  it('refuses a Location with user:password', async () => {
    const t = setup(() => ({
      status: 302,
      headers: { location: 'http://u:p@127.0.0.1:4000/x', 'access-control-allow-origin': '*' },
    }))
    const result = await t.browser.fetch({ url: `${A}/x` })
    expect(result).toMatchObject({ allowed: false, error: { kind: 'redirect-contains-credentials' } })
    expect(result.message).toContain(
      "Redirect location '' contains a username and password, which is disallowed for cross-origin requests.",
    )
  })

  it('gives up after 20 redirects', async () => {
    let n = 0
    const t = setup(() => ({
      status: 302,
      headers: { location: `/r${++n}`, 'access-control-allow-origin': '*' },
    }))
    const result = await t.browser.fetch({ url: `${A}/r0` })
    expect(result).toMatchObject({ allowed: false, networkError: 'more than 20 redirects' })
    expect(t.sent).toHaveLength(21)
  })

  it("redirect: 'manual' returns the redirect as an opaque redirect; 'error' fails", async () => {
    const script: Script = () => ({
      status: 302,
      headers: { location: '/y', 'access-control-allow-origin': '*' },
    })
    const manual = await setup(script).browser.fetch({ url: `${A}/x`, redirect: 'manual' })
    expect(manual).toMatchObject({ allowed: true, responseType: 'opaqueredirect', urlList: [`${A}/x`] })
    const error = await setup(script).browser.fetch({ url: `${A}/x`, redirect: 'error' })
    expect(error).toMatchObject({ allowed: false })
    expect(error.networkError).toContain("redirect: 'error'")
  })
})

describe('request bodies', () => {
  it("a Blob's type becomes the Content-Type and is preflighted when not safelisted", async () => {
    const t = setup((request) => (request.kind === 'preflight' ? allowPreflight(request) : ok))
    const result = await t.browser.fetch({
      url: `${A}/x`,
      method: 'POST',
      body: new Blob(['{}'], { type: 'application/json' }),
    })
    expect(result.reasons.map((reason) => reason.code)).toEqual(['content-type'])
    expect(Object.fromEntries(t.sent[0]!.headers)['access-control-request-headers']).toBe('content-type')
    expect(Object.fromEntries(t.sent[1]!.headers)['content-type']).toBe('application/json')
  })

  it('a string, URLSearchParams or FormData body keeps the call simple', async () => {
    for (const body of ['x', new URLSearchParams('a=1'), new FormData()]) {
      const t = setup(() => ok)
      const result = await t.browser.fetch({ url: `${A}/x`, method: 'POST', body })
      expect(result).toMatchObject({ allowed: true, preflight: false })
    }
  })

  it("the script's Content-Type wins over the body's", async () => {
    const t = setup(() => ok)
    const result = await t.browser.fetch({
      url: `${A}/x`,
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: new Blob(['{}'], { type: 'application/json' }),
    })
    expect(result.preflight).toBe(false)
  })

  it('a ReadableStream body is always preflighted', async () => {
    const t = setup((request) => (request.kind === 'preflight' ? allowPreflight(request) : ok))
    const result = await t.browser.fetch({
      url: `${A}/x`,
      method: 'POST',
      body: new ReadableStream(),
      duplex: 'half',
    })
    expect(result.reasons.map((reason) => reason.code)).toContain('readable-stream-body')
    expect(t.sent[0]!.kind).toBe('preflight')
  })

  it("a ReadableStream body without duplex: 'half' throws before anything is sent", async () => {
    const t = setup(() => ok)
    const result = await t.browser.fetch({ url: `${A}/x`, method: 'POST', body: new ReadableStream() })
    expect(result.scriptError).toBe(
      "TypeError: Failed to execute 'fetch' on 'Window': The `duplex` member must be specified for a request with a streaming body",
    )
    expect(t.sent).toEqual([])
  })
})

describe('failures outside CORS', () => {
  it('a send that throws is a network error with the fix', async () => {
    const browser = createBrowserModel({
      origin: PAGE,
      send: async () => {
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
      },
    })
    const result = await browser.fetch({ url: `${A}/x` })
    expect(result).toMatchObject({ allowed: false, networkError: 'ECONNREFUSED: connect ECONNREFUSED' })
    expect(result.fix).toBe(`start the server at ${A}, or check the URL.`)
  })

  it('a forbidden method sends nothing and gives the script error', async () => {
    const t = setup(() => ok)
    const result = await t.browser.fetch({ url: `${A}/x`, method: 'TRACE' })
    expect(result).toMatchObject({ allowed: false, preflight: false })
    expect(result.scriptError).toContain("'TRACE' HTTP method is unsupported.")
    expect(t.sent).toEqual([])
  })
})

describe("XMLHttpRequest's charset rewrite", () => {
  it.each([
    ['text/plain;charset=latin1', 'text/plain;charset=UTF-8'],
    ['text/plain; charset=ISO-8859-1', 'text/plain; charset=UTF-8'],
    ['text/plain;charset=utf-8', 'text/plain;charset=UTF-8'],
    ['text/plain', 'text/plain'],
  ])('%s is sent as %s with a string body', async (set, sent) => {
    const t = setup(() => ok)
    await t.browser.fetch({
      url: `${A}/x`,
      method: 'POST',
      headers: { 'content-type': set },
      body: 'x',
      initiator: 'XMLHttpRequest',
    })
    expect(Object.fromEntries(t.sent[0]!.headers)['content-type']).toBe(sent)
    // fetch never rewrites it.
    const f = setup(() => ok)
    await f.browser.fetch({ url: `${A}/x`, method: 'POST', headers: { 'content-type': set }, body: 'x' })
    expect(Object.fromEntries(f.sent[0]!.headers)['content-type']).toBe(set)
  })

  it('the rewrite can push a value over the 128-byte limit, and so cause a preflight', async () => {
    const type = `text/plain;a=${'x'.repeat(104)};charset=l1`
    expect(type.length).toBeLessThanOrEqual(128)
    const t = setup((request) => (request.kind === 'preflight' ? allowPreflight(request) : ok))
    const xhr = await t.browser.fetch({
      url: `${A}/x`,
      method: 'POST',
      headers: { 'content-type': type },
      body: 'x',
      initiator: 'XMLHttpRequest',
    })
    expect(xhr.reasons.map((reason) => reason.code)).toEqual(['header-too-long'])
    const f = setup(() => ok)
    const fetched = await f.browser.fetch({
      url: `${A}/x`,
      method: 'POST',
      headers: { 'content-type': type },
      body: 'x',
    })
    expect(fetched).toMatchObject({ allowed: true, preflight: false })
  })
})

describe('a preflight cache shared by several pages (one browser profile)', () => {
  const send = async (request: BrowserRequest): Promise<BrowserAnswer> =>
    request.kind === 'preflight'
      ? allowPreflight(request, { 'access-control-max-age': '60' })
      : { status: 200, headers: { 'access-control-allow-origin': PAGE } }
  const call = { url: `${A}/x`, method: 'PUT', headers: { 'x-foo': '1' } }

  it('partitions by the top-level site, ports left out, as Chromium 156 does', async () => {
    const cache = createPreflightCache(() => 0)
    const page = (topLevelOrigin?: string) =>
      createBrowserModel({ origin: PAGE, now: () => 0, send, preflightCache: cache, topLevelOrigin })
    expect((await page().fetch(call)).cachedPreflights).toEqual([])
    // Framed by another port of the same host: the same site, the same entry.
    expect((await page('http://localhost:8080').fetch(call)).cachedPreflights).toEqual([`${A}/x`])
    // Framed by another site: an entry of its own.
    expect((await page('http://127.0.0.1:8080').fetch(call)).cachedPreflights).toEqual([])
    expect((await page('http://127.0.0.1:9090').fetch(call)).cachedPreflights).toEqual([`${A}/x`])
    expect(cache.size).toBe(2)
  })

  it("an opaque page origin ('null') never stores or finds an entry", async () => {
    const cache = createPreflightCache(() => 0)
    const sandboxed = createBrowserModel({ origin: 'null', now: () => 0, send, preflightCache: cache })
    await sandboxed.fetch(call)
    expect((await sandboxed.fetch(call)).cachedPreflights).toEqual([])
    expect(cache.size).toBe(0)
  })
})

describe('a streaming upload needs HTTP/2', () => {
  const HTTPS = 'https://127.0.0.1:8443'
  /** A server that speaks only HTTP/1.1: the send refuses the stream, as createNetworkSend does. */
  const http1Only: Script = (request) => {
    if (request.kind === 'preflight') return allowPreflight(request)
    throw Object.assign(new Error('no h2'), { code: ALPN_NEGOTIATION_FAILED })
  }
  const streamCall = (url: string) =>
    ({ url, method: 'POST', body: new ReadableStream(), duplex: 'half' }) as const

  it('to an https server that speaks only HTTP/1.1: the preflight, then ERR_ALPN_NEGOTIATION_FAILED, cached or not', async () => {
    const t = setup(http1Only)
    for (const sent of [[`OPTIONS ${HTTPS}/up`, `POST ${HTTPS}/up`], [`POST ${HTTPS}/up`]]) {
      const before = t.sent.length
      const result = await t.browser.fetch(streamCall(`${HTTPS}/up`))
      expect(result).toMatchObject({
        allowed: false,
        networkError: 'a streaming upload needs HTTP/2, and the server offers only HTTP/1.1',
        message: 'Failed to load resource: net::ERR_ALPN_NEGOTIATION_FAILED',
      })
      expect(t.kinds().slice(before)).toEqual(sent)
      // The refused request is never answered: only the preflight is an exchange.
      expect(result.exchanges.map((exchange) => exchange.kind)).toEqual(
        sent.length === 2 ? ['preflight'] : [],
      )
    }
  })

  it('to an https server with HTTP/2: sent and read', async () => {
    const t = setup((request) =>
      request.kind === 'preflight' ? allowPreflight(request) : { ...ok, protocol: 'h2' },
    )
    expect(await t.browser.fetch(streamCall(`${HTTPS}/up`))).toMatchObject({ allowed: true })
    expect(t.kinds()).toEqual([`OPTIONS ${HTTPS}/up`, `POST ${HTTPS}/up`])
  })

  it('over http: never handed to the send, same-origin too; a refused preflight stays the CORS error', async () => {
    const same = createBrowserModel({ origin: A, send: async () => ok })
    expect(await same.fetch(streamCall(`${A}/up`))).toMatchObject({
      exchanges: [],
      message: 'Failed to load resource: net::ERR_ALPN_NEGOTIATION_FAILED',
    })
    const refused = setup(() => ({ status: 204, headers: {} }))
    const result = await refused.browser.fetch(streamCall(`${A}/up`))
    expect(result).toMatchObject({
      allowed: false,
      stage: 'preflight',
      error: { kind: 'missing-allow-origin' },
    })
  })
})

describe('a redirect to a URL with user:password', () => {
  const redirectTo = (location: string): BrowserAnswer => ({
    status: 302,
    headers: { location, 'access-control-allow-origin': '*' },
  })
  const page = (script: Script) => {
    const sent: BrowserRequest[] = []
    const browser = createBrowserModel({
      origin: A,
      send: async (request) => {
        sent.push(request)
        return script(request)
      },
    })
    return { browser, sent }
  }

  it('same origin: fetch fails without a console line, in every mode and credentials mode', async () => {
    for (const extra of [
      {},
      { credentials: 'omit' },
      { credentials: 'include' },
      { mode: 'no-cors' },
    ] as const) {
      const t = page(() => redirectTo(`http://user:pass@127.0.0.1:3000/t`))
      const result = await t.browser.fetch({ url: `${A}/r`, ...extra })
      expect(result).toMatchObject({ allowed: false, networkError: expect.stringContaining('user:password') })
      expect(result.message).toBeUndefined()
      expect(t.sent.map((request) => request.url)).toEqual([`${A}/r`])
    }
  })

  it('same origin: XMLHttpRequest follows, sending no Authorization until a 401 Basic challenge', async () => {
    const t = page((request) => {
      if (request.url.endsWith('/r')) return redirectTo('http://user:pass@127.0.0.1:3000/t')
      const authorization = Object.fromEntries(request.headers).authorization
      return authorization === 'Basic dXNlcjpwYXNz'
        ? ok
        : { status: 401, headers: { 'www-authenticate': 'Digest realm="x", Basic realm="r"' } }
    })
    const result = await t.browser.fetch({ url: `${A}/r`, initiator: 'XMLHttpRequest' })
    expect(result).toMatchObject({ allowed: true, response: { status: 200 } })
    expect(result.urlList).toEqual([`${A}/r`, 'http://user:pass@127.0.0.1:3000/t'])
    expect(t.sent.map((request) => Object.fromEntries(request.headers).authorization)).toEqual([
      undefined,
      undefined,
      'Basic dXNlcjpwYXNz',
    ])
  })

  it('no challenge, or one that is not Basic: the answer as it is, nothing sent again', async () => {
    for (const challenge of [undefined, 'Bearer realm="r"']) {
      const t = page((request) =>
        request.url.endsWith('/r')
          ? redirectTo('http://u@127.0.0.1:3000/t')
          : { status: 401, headers: challenge === undefined ? {} : { 'www-authenticate': challenge } },
      )
      const result = await t.browser.fetch({ url: `${A}/r`, initiator: 'XMLHttpRequest' })
      expect(result).toMatchObject({ allowed: true, response: { status: 401 } })
      expect(t.sent).toHaveLength(2)
    }
  })

  it('across origins in CORS mode, fetch and XMLHttpRequest alike: the CORS error quoting an empty location', async () => {
    const cases = [
      [`${B}/r`, 'http://user:pass@127.0.0.1:3000/t'],
      [`${A}/r`, 'http://user:pass@127.0.0.1:4000/t'],
      [`${B}/r`, 'http://u@127.0.0.1:4000/t'],
    ] as const
    for (const [url, location] of cases) {
      for (const initiator of ['fetch', 'XMLHttpRequest'] as const) {
        const result = await page(() => redirectTo(location)).browser.fetch({ url, initiator })
        expect(result).toMatchObject({ allowed: false, error: { kind: 'redirect-contains-credentials' } })
        expect(result.message).toContain(`at '${url}' from origin '${A}'`)
      }
    }
  })

  it("mode 'same-origin' to another origin: the same-origin refusal comes first", async () => {
    const t = page(() => redirectTo('http://user:pass@127.0.0.1:4000/t'))
    const result = await t.browser.fetch({ url: `${A}/r`, mode: 'same-origin' })
    expect(result.message).toBe(
      `Unsafe attempt to load URL http://user:pass@127.0.0.1:4000/t from frame with URL ${A}/. Domains, protocols and ports must match.\n`,
    )
  })
})
