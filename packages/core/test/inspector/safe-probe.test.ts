import { describe, expect, it } from 'vitest'
import type { BrowserAnswer, BrowserRequest } from '../../src/browser/browser-call.js'
import { createBrowserModel } from '../../src/browser/browser-model.js'
import { createSafeProbe, probeSummary } from '../../src/inspector/safe-probe.js'

const ORIGIN = 'http://localhost:5173'
const URL_CALLED = 'http://api.test/items/1'

/** A scripted server: answers each request with `answer(request)`, and remembers what it got. */
function scriptedServer(answer: (request: BrowserRequest) => BrowserAnswer) {
  const received: BrowserRequest[] = []
  return {
    received,
    send: async (request: BrowserRequest) => {
      received.push(request)
      return answer(request)
    },
  }
}

describe('createSafeProbe', () => {
  it('sends the preflight as is and a HEAD instead of a DELETE, without the body or a method override', async () => {
    const server = scriptedServer((request) =>
      request.method === 'OPTIONS'
        ? {
            status: 204,
            headers: {
              'access-control-allow-origin': ORIGIN,
              'access-control-allow-methods': 'DELETE',
              'access-control-allow-headers': 'content-type, x-http-method-override',
            },
          }
        : { status: 200, headers: {} },
    )
    const probe = createSafeProbe('DELETE')
    const browser = createBrowserModel({ origin: ORIGIN, send: probe.intercept(server.send) })
    const result = await browser.fetch({
      url: URL_CALLED,
      method: 'DELETE',
      headers: { 'content-type': 'application/json', 'x-http-method-override': 'PURGE' },
      body: '{"id":1}',
    })
    expect(result.error?.kind).toBe('missing-allow-origin')
    expect(server.received.map((request) => request.method)).toEqual(['OPTIONS', 'HEAD'])
    expect(server.received[0]?.headers).toContainEqual([
      'access-control-request-headers',
      'content-type,x-http-method-override',
    ])
    expect(server.received[1]).toEqual({
      kind: 'request',
      url: URL_CALLED,
      method: 'HEAD',
      // Marked as ours, so a dev server it reaches lists it as the probe, not as the page's call.
      headers: [
        ['origin', ORIGIN],
        ['x-cors-dev-proxy-probe', 'explain'],
      ],
    })
    expect(server.received[0]?.headers).toContainEqual(['x-cors-dev-proxy-probe', 'explain'])
    expect(probe.record()).toEqual({
      sent: ['OPTIONS', 'HEAD'],
      notRepeated: 'DELETE',
      leftOut: ['x-http-method-override'],
      redirectNotFollowed: undefined,
    })
  })

  it('sends a GET as the page did, and stops at a redirect: at most one GET, whatever the answer', async () => {
    const server = scriptedServer(() => ({
      status: 302,
      headers: { location: 'http://elsewhere.test/items', 'access-control-allow-origin': '*' },
    }))
    const probe = createSafeProbe('GET')
    const browser = createBrowserModel({ origin: ORIGIN, send: probe.intercept(server.send) })
    const result = await browser.fetch({ url: URL_CALLED, headers: { accept: 'application/json' } })
    expect(result.networkError).toContain('the probe sends nothing after its GET')
    expect(server.received).toEqual([
      {
        kind: 'request',
        url: URL_CALLED,
        method: 'GET',
        headers: [
          ['origin', ORIGIN],
          ['accept', 'application/json'],
          ['x-cors-dev-proxy-probe', 'explain'],
        ],
      },
    ])
    const record = probe.record()
    expect(record).toEqual({
      sent: ['GET'],
      notRepeated: undefined,
      leftOut: [],
      redirectNotFollowed: 'http://elsewhere.test/items',
    })
    expect(probeSummary(record, 'unknown', 'what the redirect leads to decides').text).toBe(
      'probed with GET; the redirect to http://elsewhere.test/items was not followed; verdict unknown: what the redirect leads to decides',
    )
  })

  it('never sends the actual request of a failed preflight, and says the PATCH was not repeated', async () => {
    const server = scriptedServer(() => ({ status: 404, headers: {} }))
    const probe = createSafeProbe('patch')
    const browser = createBrowserModel({ origin: ORIGIN, send: probe.intercept(server.send) })
    const result = await browser.fetch({ url: URL_CALLED, method: 'patch' })
    expect(result.stage).toBe('preflight')
    expect(server.received.map((request) => request.method)).toEqual(['OPTIONS'])
    expect(probeSummary(probe.record(), 'exact', undefined)).toEqual({
      sent: ['OPTIONS'],
      notRepeated: 'patch',
      fromMemo: false,
      text: 'probed with OPTIONS; the patch was not repeated; verdict exact',
    })
  })

  it('sends no more than the budget granted', async () => {
    const server = scriptedServer(() => ({
      status: 204,
      headers: { 'access-control-allow-origin': ORIGIN, 'access-control-allow-methods': 'PUT' },
    }))
    const probe = createSafeProbe('PUT', 1)
    const browser = createBrowserModel({ origin: ORIGIN, send: probe.intercept(server.send) })
    await browser.fetch({ url: URL_CALLED, method: 'PUT' })
    expect(server.received.map((request) => request.method)).toEqual(['OPTIONS'])
    expect(probe.record()).toMatchObject({ sent: ['OPTIONS'], redirectNotFollowed: undefined })
  })
})
