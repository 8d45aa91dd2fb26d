import { createServer, type ServerResponse } from 'node:http'
import { CorsDevProxyError } from '@cors-dev-proxy/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen, type StartedServer } from '../../../test/support/servers.js'
import { createNextProxy, type NextProxyHandler } from '../src/create-next-proxy.js'

// What `proxy.ts` answers for a route, as Next hands it a Request, against a real backend: the
// cases Next's `rewrites` get wrong (measured on Next 16.4).
const PAGE = 'http://127.0.0.1:3000'
const held = new Set<ServerResponse>()
let backend: StartedServer<ReturnType<typeof createServer>>
let down: string
let proxy: NextProxyHandler

beforeAll(async () => {
  backend = await listen(
    createServer((req, res) => {
      if (req.url === '/events') {
        // The first event now; the stream stays open until the test has read it.
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
        res.write('data: first\n\n')
        held.add(res)
      } else if (req.url === '/cookie') {
        res.setHeader('set-cookie', 'session=abc; Domain=api.backend.example; Path=/; HttpOnly')
        res.end('set')
      } else if (req.url === '/moved') {
        res.writeHead(302, { location: `${backend.url}/landing` })
        res.end()
      } else if (req.url === '/moved-here') {
        res.writeHead(302, { location: '/landing' })
        res.end()
      } else if (req.url === '/slow') {
        held.add(res)
      } else res.end(`backend ${req.method} ${req.url}`)
    }),
  )
  const closed = await listen(createServer())
  down = closed.url
  await closed.close()
  proxy = createNextProxy(
    {
      '/api': backend.url,
      '/slow-api': { target: backend.url, timeout: 300 },
      '/down': down,
    },
    { log: 'silent' },
  )
})

afterAll(async () => {
  await proxy.handler.close()
  for (const res of held) res.destroy()
  await backend.close()
})

describe('createNextProxy', () => {
  it("leaves Next's own paths to Next (undefined) and answers a route's", async () => {
    expect(await proxy(new Request(`${PAGE}/about`))).toBeUndefined()
    expect(await proxy(new Request(`${PAGE}/api2/x`))).toBeUndefined()
    const res = await proxy(new Request(`${PAGE}/api/items?x=1`))
    expect(res?.status).toBe(200)
    expect(await res?.text()).toBe('backend GET /items?x=1')
  })

  it("hands the page an event stream's first event while the stream is still open", async () => {
    const res = await proxy(new Request(`${PAGE}/api/events`))
    expect(res?.headers.get('content-type')).toBe('text/event-stream')
    const reader = (res as Response).body!.getReader()
    const first = await reader.read()
    expect(new TextDecoder().decode(first.value)).toBe('data: first\n\n')
    // The backend has not ended it: the event came through on its own.
    expect([...held].some((held) => !held.writableEnded)).toBe(true)
    await reader.cancel()
  })

  it("drops the backend's Domain from Set-Cookie, so the page's origin keeps the cookie", async () => {
    const res = await proxy(new Request(`${PAGE}/api/cookie`))
    expect(res?.headers.getSetCookie()).toEqual(['session=abc; Path=/; HttpOnly'])
  })

  it("points an absolute Location at the backend back at the page's origin, under the route", async () => {
    const res = await proxy(new Request(`${PAGE}/api/moved`, { redirect: 'manual' }))
    expect(res?.status).toBe(302)
    expect(res?.headers.get('location')).toBe(`${PAGE}/api/landing`)
  })

  it("makes a relative Location absolute on the page's origin, under the route (Next's adapter parses it without a base)", async () => {
    const res = await proxy(new Request(`${PAGE}/api/moved-here`, { redirect: 'manual' }))
    expect(res?.status).toBe(302)
    expect(res?.headers.get('location')).toBe(`${PAGE}/api/landing`)
  })

  it('answers a dead backend 502 with the reason, not an empty 500', async () => {
    const res = await proxy(new Request(`${PAGE}/down/items`))
    expect(res?.status).toBe(502)
    expect(await res?.text()).toContain('connection refused')
  })

  it("applies the route's own timeout: 504 after it, whatever Next's would be", async () => {
    const res = await proxy(new Request(`${PAGE}/slow-api/slow`))
    expect(res?.status).toBe(504)
    expect(await res?.text()).toContain('300 ms')
  })

  it('stops at load on a misspelt option, naming it, and refuses a ws route (it needs the custom server)', () => {
    expect(() => createNextProxy({ '/api': { target: backend.url, changeOrgin: true } as never })).toThrow(
      /changeOrgin/,
    )
    expect(() => createNextProxy({ '/live': { target: backend.url, ws: true } })).toThrow(CorsDevProxyError)
  })
})
