// The overlay's script and the inspector under /__cors-dev-proxy/ through the Fetch handler (what
// Next's proxy.ts, Bun, Deno and Hono serve): the endpoints and the recorder createDevServerProxy
// serves on Node, called with Web `Request`s, on a mock route (no socket at all).
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { listen } from '../../../../test/support/servers.js'
import type { CorsDevProxyOptions } from '../../src/config/options.js'
import { createFetchHandler, type FetchHandler } from '../../src/proxy/create-fetch-handler.js'

const ORIGIN = 'http://127.0.0.1:3000'
const cleanup: FetchHandler[] = []
afterEach(async () => {
  for (const handler of cleanup.splice(0)) await handler.close()
})

function handler(options?: CorsDevProxyOptions): FetchHandler {
  const proxy = createFetchHandler({ '/api': { mock: true } }, { log: 'silent', ...options })
  cleanup.push(proxy)
  return proxy
}

/** A request from the dev server's own page (same origin), as a browser sends it. */
function ownPage(path: string, init: RequestInit = {}): Request {
  return new Request(`${ORIGIN}${path}`, {
    ...init,
    headers: { 'sec-fetch-site': 'same-origin', ...(init.headers as Record<string, string>) },
  })
}

describe('the Fetch handler under /__cors-dev-proxy/', () => {
  it("serves the overlay's client script", async () => {
    const res = await handler()(ownPage('/__cors-dev-proxy/client.js'))
    expect(res?.status).toBe(200)
    expect(res?.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await res?.text()).toContain('cors-dev-proxy overlay client')
  })

  it('lists a proxied exchange in the inspector and the HAR', async () => {
    const proxy = handler()
    const call = await proxy(ownPage('/api/items?from=inspector'))
    expect(call?.status).toBe(200)
    await call?.text()
    const exchanges = (await (await proxy(ownPage('/__cors-dev-proxy/exchanges')))?.json()) as {
      url: string
      status: number
      route: string
    }[]
    expect(exchanges.map(({ url, status, route }) => ({ url, status, route }))).toEqual([
      { url: '/api/items?from=inspector', status: 200, route: '/api' },
    ])
    const har = (await (await proxy(ownPage('/__cors-dev-proxy/har')))?.json()) as {
      log: { version: string; entries: { request: { url: string } }[] }
    }
    expect(har.log.version).toBe('1.2')
    expect(har.log.entries.map((entry) => entry.request.url)).toEqual([`${ORIGIN}/api/items?from=inspector`])
  })

  it("serves the live switches of a route with faults, which the overlay's badge reads", async () => {
    const proxy = createFetchHandler(
      { '/api': { mock: true }, '/flaky': { target: 'http://127.0.0.1:9', failRate: 1, failWith: 429 } },
      { log: 'silent' },
    )
    cleanup.push(proxy)
    const res = await proxy(ownPage('/__cors-dev-proxy/control'))
    expect(res?.status).toBe(200)
    const board = (await res?.json()) as { faultsOn: boolean; routes: { route: string; faultsOn: boolean }[] }
    expect(board.faultsOn).toBe(true)
    expect(board.routes.map(({ route, faultsOn }) => ({ route, faultsOn }))).toEqual([
      { route: '/flaky', faultsOn: true },
    ])
  })

  it('answers the badge and the inspector page an empty list where no route has switches or mocks (never a 404 in the page)', async () => {
    const proxy = handler()
    const controls = await proxy(ownPage('/__cors-dev-proxy/control'))
    expect(controls?.status).toBe(200)
    expect(await controls?.json()).toEqual({ faultsOn: false, routes: [] })
    const mocks = await proxy(ownPage('/__cors-dev-proxy/mock'))
    expect(mocks?.status).toBe(200)
    expect(await mocks?.json()).toEqual({ routes: [] })
    // With the inspector off, the overlay's badge still asks.
    const alone = await handler({ inspector: false })(ownPage('/__cors-dev-proxy/control'))
    expect(alone?.status).toBe(200)
  })

  it('puts the faults badge in the client only where a route has live switches (a page asks nothing otherwise)', async () => {
    const plain = await (await handler()(ownPage('/__cors-dev-proxy/client.js')))?.text()
    expect(plain).toContain('cors-dev-proxy overlay client')
    expect(plain).not.toContain('/__cors-dev-proxy/control')
    const switched = createFetchHandler(
      { '/api': { target: 'http://127.0.0.1:9', latency: 5 } },
      { log: 'silent' },
    )
    cleanup.push(switched)
    expect(await (await switched(ownPage('/__cors-dev-proxy/client.js')))?.text()).toContain(
      '/__cors-dev-proxy/control',
    )
  })

  it('lists the routes with mocks for "Mock this answer", as on Node', async () => {
    const proxy = createFetchHandler(
      { '/api': { target: 'http://127.0.0.1:9', mocks: { 'GET /hello': { json: 1 } } } },
      { log: 'silent' },
    )
    cleanup.push(proxy)
    const res = await proxy(ownPage('/__cors-dev-proxy/mock'))
    expect(res?.status).toBe(200)
    const listed = (await res?.json()) as { routes: { route: string }[] }
    expect(listed.routes.map(({ route }) => route)).toEqual(['/api'])
  })

  it('writes "Mock this answer" behind the Fetch handler too', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'cdp-fetch-mock-'))
    const backend = await listen(
      createServer((_req, res) => {
        res.setHeader('content-type', 'application/json')
        res.end('{"id":42}')
      }),
    )
    const proxy = createFetchHandler({ '/api': { target: backend.url, mocks: folder } }, { log: 'silent' })
    cleanup.push(proxy)
    try {
      // An open inspector (its event stream), so bodies are kept.
      const events = await proxy(ownPage('/__cors-dev-proxy/events'))
      await (await proxy(ownPage('/api/users/42')))?.text()
      const list = (await (await proxy(ownPage('/__cors-dev-proxy/exchanges')))?.json()) as { id: number }[]
      const written = await proxy(
        ownPage('/__cors-dev-proxy/mock', {
          method: 'POST',
          headers: { origin: ORIGIN, 'content-type': 'application/json' },
          body: JSON.stringify({ id: list[0]?.id }),
        }),
      )
      expect(written?.status).toBe(201)
      expect(JSON.parse(await readFile(join(folder, 'GET _users_42.json'), 'utf8'))).toMatchObject({
        status: 200,
        json: { id: 42 },
      })
      await events?.body?.cancel()
    } finally {
      await backend.close()
      await rm(folder, { recursive: true, force: true })
    }
  })

  it('serves the inspector page', async () => {
    const res = await handler()(ownPage('/__cors-dev-proxy/'))
    expect(res?.status).toBe(200)
    expect(res?.headers.get('content-type')).toBe('text/html; charset=utf-8')
  })

  it("opens the inspector's page from another site's link (it holds no data), never in its frame nor its data", async () => {
    const proxy = handler()
    const navigate = (dest: string, path = '/__cors-dev-proxy/') =>
      proxy(
        new Request(`${ORIGIN}${path}`, {
          headers: { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': dest },
        }),
      )
    expect((await navigate('document'))?.status).toBe(200)
    expect((await navigate('document', '/__cors-dev-proxy'))?.status).toBe(200)
    expect((await navigate('iframe'))?.status).toBe(403)
    expect((await navigate('document', '/__cors-dev-proxy/exchanges'))?.status).toBe(403)
  })

  it("refuses another site's page, as on Node", async () => {
    const res = await handler()(
      ownPage('/__cors-dev-proxy/exchanges', { headers: { origin: 'http://evil.example' } }),
    )
    expect(res?.status).toBe(403)
    expect(await res?.text()).toContain('cross-origin request (Origin http://evil.example)')
  })

  it('leaves /__cors-dev-proxy/ to the next handler with the inspector and the overlay off', async () => {
    const res = await handler({ inspector: false, overlay: false })(ownPage('/__cors-dev-proxy/client.js'))
    expect(res).toBeUndefined()
  })

  it('serves the overlay without recording with the inspector off', async () => {
    const proxy = handler({ inspector: false })
    expect((await proxy(ownPage('/__cors-dev-proxy/client.js')))?.status).toBe(200)
    const res = await proxy(ownPage('/__cors-dev-proxy/exchanges'))
    expect(res?.status).toBe(404)
    expect(await res?.text()).toContain('the inspector is off (inspector: false)')
  })
})
