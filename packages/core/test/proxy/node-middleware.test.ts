// createCorsDevProxy's middleware serves the endpoints under /__cors-dev-proxy/ as every front
// end does (proxy/assemble-proxy.ts), ahead of any route, and replays through its own server.
import { createServer } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { listen, sendRequest } from '../../../../test/support/servers.js'
import type { CorsDevProxyOptions, Routes } from '../../src/config/options.js'
import { createCorsDevProxy } from '../../src/proxy/node-middleware.js'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** `createCorsDevProxy`'s middleware as the whole server (no `next`). */
async function startProxy(routes: Routes, options: CorsDevProxyOptions = {}) {
  const proxy = createCorsDevProxy(routes, { log: 'silent', ...options })
  const server = await listen(createServer((req, res) => proxy.middleware(req, res)))
  cleanup.push(async () => {
    await server.close()
    await proxy.close()
  })
  return server
}

async function startBackend() {
  const backend = await listen(createServer((req, res) => res.end(`backend ${req.method} ${req.url}`)))
  cleanup.push(backend.close)
  return backend
}

describe("createCorsDevProxy's endpoints", () => {
  it('serves the inspector page and the HAR with default options, a route on / notwithstanding', async () => {
    const backend = await startBackend()
    const proxy = await startProxy({ '/': backend.url })
    expect((await sendRequest(`${proxy.url}/items`)).body.toString()).toBe('backend GET /items')
    const page = await sendRequest(`${proxy.url}/__cors-dev-proxy/`)
    expect(page.status).toBe(200)
    expect(page.body.toString()).toContain('cors-dev-proxy inspector')
    const har = await sendRequest(`${proxy.url}/__cors-dev-proxy/har`)
    expect(har.status).toBe(200)
    const entries = (JSON.parse(har.body.toString()) as { log: { entries: { request: { url: string } }[] } })
      .log.entries
    expect(entries.map((entry) => new URL(entry.request.url).pathname)).toEqual(['/items'])
  })

  it('replays an exchange through the server the inspector is reached on', async () => {
    const backend = await startBackend()
    const proxy = await startProxy({ '/api': backend.url })
    await sendRequest(`${proxy.url}/api/one`)
    const [exchange] = JSON.parse(
      (await sendRequest(`${proxy.url}/__cors-dev-proxy/exchanges`)).body.toString(),
    ) as { id: number }[]
    const replayed = await sendRequest(`${proxy.url}/__cors-dev-proxy/replay/${exchange?.id}`, {
      method: 'POST',
      headers: { origin: proxy.url },
    })
    expect(replayed.status).toBe(200)
    expect(JSON.parse(replayed.body.toString())).toEqual({ replayOf: exchange?.id, status: 200 })
  })

  it('hands the page scripts the description of what exists', async () => {
    const proxy = await startProxy({ '/api': { mock: true } })
    const client = (await sendRequest(`${proxy.url}/__cors-dev-proxy/client.js`)).body.toString()
    expect(client).toContain('({"inspector":true,"explain":true,"control":false,"mocks":false});')
    // No live switches: the badge, which asks /control on every page, is not in the client.
    expect(client).not.toContain('/__cors-dev-proxy/control')
    const page = (await sendRequest(`${proxy.url}/__cors-dev-proxy/inspector.js`)).body.toString()
    expect(page).toContain('({"inspector":true,"explain":true,"control":false,"mocks":false});')
    const switched = await startProxy({ '/api': { target: 'http://127.0.0.1:2', latency: 5, mocks: {} } })
    const withBadge = (await sendRequest(`${switched.url}/__cors-dev-proxy/client.js`)).body.toString()
    expect(withBadge).toContain('({"inspector":true,"explain":true,"control":true,"mocks":true});')
    expect(withBadge).toContain('/__cors-dev-proxy/control')
  })

  it('serves none with the inspector, the overlay and every switch off: the path is the routes’', async () => {
    const proxy = await startProxy({ '/api': { mock: true } }, { inspector: false, overlay: false })
    const answer = await sendRequest(`${proxy.url}/__cors-dev-proxy/`)
    expect(answer.status).toBe(404)
    expect(answer.body.toString()).toContain('no cors-dev-proxy route matches this path')
  })
})
