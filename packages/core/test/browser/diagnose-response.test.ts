import { describe, expect, it } from 'vitest'
import { diagnoseResponse } from '../../src/browser/diagnose-response.js'

const DEV = 'http://localhost:5173/api/users'
const PAGE = 'http://127.0.0.1:3000'
const PREFIX = `Access to fetch at '${DEV}' from origin '${PAGE}' has been blocked by CORS policy: `

describe('diagnoseResponse', () => {
  it('says nothing about requests that are not cross-origin', () => {
    const response = { status: 200, headers: {} }
    expect(diagnoseResponse({ url: DEV, method: 'GET', requestHeaders: {}, response })).toBeUndefined()
    expect(
      diagnoseResponse({
        url: DEV,
        method: 'POST',
        requestHeaders: { origin: 'http://localhost:5173' },
        response,
      }),
    ).toBeUndefined()
  })

  it.each(['navigate', 'no-cors', 'same-origin', 'websocket'])(
    'says nothing about a request the browser sends without a CORS check (Sec-Fetch-Mode: %s)',
    (mode) => {
      const requestHeaders = { origin: PAGE, 'sec-fetch-mode': mode }
      const response = { status: 200, headers: {} }
      expect(diagnoseResponse({ url: DEV, method: 'POST', requestHeaders, response })).toBeUndefined()
      // The same request in cors mode is checked.
      const cors = { ...requestHeaders, 'sec-fetch-mode': 'cors' }
      expect(diagnoseResponse({ url: DEV, method: 'POST', requestHeaders: cors, response })?.allowed).toBe(
        false,
      )
    },
  )

  it('reports a blocked actual response in Chromium words, with a fix and a cause key', () => {
    const diagnosis = diagnoseResponse({
      url: DEV,
      method: 'GET',
      requestHeaders: { origin: PAGE, 'user-agent': 'x', priority: 'u=1' },
      response: { status: 200, headers: { 'content-type': 'application/json' } },
    })
    expect(diagnosis).toMatchObject({
      allowed: false,
      stage: 'response',
      credentials: 'unknown',
      cause: 'response:missing-allow-origin:',
      message: `${PREFIX}No 'Access-Control-Allow-Origin' header is present on the requested resource.`,
    })
    expect(diagnosis?.fix).toMatch(/Access-Control-Allow-Origin: http:\/\/127\.0\.0\.1:3000/)
  })

  it('treats a request with cookies as credentialed, and only then', () => {
    const response = { status: 200, headers: { 'access-control-allow-origin': '*' } }
    const withCookie = diagnoseResponse({
      url: DEV,
      method: 'GET',
      requestHeaders: { origin: PAGE, cookie: 'sid=1' },
      response,
    })
    expect(withCookie).toMatchObject({
      allowed: false,
      credentials: 'include',
      cause: 'response:wildcard-origin-with-credentials:',
    })
    const without = diagnoseResponse({ url: DEV, method: 'GET', requestHeaders: { origin: PAGE }, response })
    expect(without).toMatchObject({ allowed: true, credentials: 'unknown', cause: 'allowed' })
  })

  it('checks a preflight answer against the announced method and headers', () => {
    const requestHeaders = {
      origin: PAGE,
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'accept,x-foo',
    }
    const allowsMethod = { 'access-control-allow-origin': PAGE, 'access-control-allow-methods': 'PUT' }
    const header = diagnoseResponse({
      url: DEV,
      method: 'OPTIONS',
      requestHeaders,
      response: { status: 204, headers: allowsMethod },
    })
    // `accept` is listed, so the browser found it unsafe: it must be allowed too.
    expect(header).toMatchObject({
      allowed: false,
      stage: 'preflight',
      preflight: true,
      cause: 'preflight:header-not-allowed:accept',
    })
    expect(header?.message).toBe(
      `${PREFIX}Request header field accept is not allowed by Access-Control-Allow-Headers in preflight response.`,
    )
    const ok = diagnoseResponse({
      url: DEV,
      method: 'OPTIONS',
      requestHeaders,
      response: {
        status: 204,
        headers: { ...allowsMethod, 'access-control-allow-headers': 'Accept, X-Foo' },
      },
    })
    expect(ok).toMatchObject({ allowed: true })
  })

  it('checks a preflight for a safelisted method too (a streamed body is preflighted)', () => {
    const diagnosis = diagnoseResponse({
      url: DEV,
      method: 'OPTIONS',
      requestHeaders: { origin: PAGE, 'access-control-request-method': 'POST' },
      response: { status: 404, headers: {} },
    })
    expect(diagnosis?.message).toBe(
      `${PREFIX}Response to preflight request doesn't pass access control check: No 'Access-Control-Allow-Origin' header is present on the requested resource.`,
    )
  })

  it('reports a redirected preflight', () => {
    const diagnosis = diagnoseResponse({
      url: DEV,
      method: 'OPTIONS',
      requestHeaders: { origin: PAGE, 'access-control-request-method': 'DELETE' },
      response: { status: 301, headers: { location: 'http://localhost:5173/api/users/' } },
    })
    expect(diagnosis?.cause).toBe('preflight:preflight-redirect:')
  })

  it('treats an OPTIONS without Access-Control-Request-Method as an ordinary request', () => {
    const diagnosis = diagnoseResponse({
      url: DEV,
      method: 'OPTIONS',
      requestHeaders: { origin: PAGE },
      response: { status: 200, headers: {} },
    })
    expect(diagnosis).toMatchObject({ stage: 'response', cause: 'response:missing-allow-origin:' })
  })
})
