import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { CorsDevProxyError } from '../../../src/config/errors.js'
import type { CorsDevProxyOptions, Routes } from '../../../src/config/options.js'
import type { CorsDevProxy } from '../../../src/proxy/create-cors-dev-proxy.js'
import { createCorsDevProxy } from '../../../src/proxy/node-middleware.js'

let server: Server | undefined
let proxy: CorsDevProxy | undefined
afterEach(async () => {
  await proxy?.close()
  proxy = undefined
  server?.closeAllConnections()
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
  server = undefined
})

/** A dev-server stand-in: the proxy's middleware, then a 404 from "the dev server". */
async function serve(routes: Routes, options?: CorsDevProxyOptions): Promise<string> {
  const created = createCorsDevProxy(routes, { log: 'silent', ...options })
  proxy = created
  server = createServer((req, res) =>
    created.middleware(req, res, () => {
      res.statusCode = 404
      res.end('dev server')
    }),
  )
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('a route with mock', () => {
  it('answers from the mock backend at the rewritten path (prefix removed by default)', async () => {
    const base = await serve({ '/api': { mock: true } })
    const res = await fetch(`${base}/api/users/7?x=1`, {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      method: 'POST',
      path: '/users/7',
      query: { x: '1' },
      body: { a: 1 },
    })
    const root = await fetch(`${base}/api`)
    expect(await root.json()).toMatchObject({ path: '/' })
    const other = await fetch(`${base}/elsewhere`)
    expect(await other.text()).toBe('dev server')
  })

  it('keeps the prefix with pathRewrite: false, and serves /cookie and /events under the prefix', async () => {
    const base = await serve({ '/m': { mock: true, pathRewrite: false }, '/n': { mock: {} } })
    expect(await (await fetch(`${base}/m/x`)).json()).toMatchObject({ path: '/m/x' })
    const cookie = await fetch(`${base}/n/cookie?set=a=1`)
    expect(cookie.headers.get('set-cookie')).toBe('a=1; Path=/; HttpOnly; SameSite=Lax')
    expect(await cookie.json()).toEqual({ cookies: { a: '1' } })
    const events = await fetch(`${base}/n/events?count=2&interval=0`)
    expect(events.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    expect((await events.text()).match(/^id: \d$/gm)).toEqual(['id: 1', 'id: 2'])
  })

  it("uses the route's mock options and the per-request switches", async () => {
    const base = await serve({ '/api': { mock: { cors: 'reflect' } } })
    const origin = 'http://localhost:5173'
    const res = await fetch(`${base}/api/x?status=418`, { headers: { origin } })
    expect(res.status).toBe(418)
    expect(res.headers.get('access-control-allow-origin')).toBe(origin)
    await res.text()
    const preflight = await fetch(`${base}/api/x?allowMethods=GET`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'PUT' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET')
  })

  it('refuses a bad mock option at creation, naming the route', () => {
    let error: unknown
    try {
      createCorsDevProxy({ '/api': { mock: { cors: 'sometimes' as 'off' } } }, { log: 'silent' })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(CorsDevProxyError)
    expect(error).toMatchObject({ code: 'INVALID_OPTION', option: "routes['/api'].mock.cors" })
  })
})
