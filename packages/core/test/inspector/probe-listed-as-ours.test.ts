// The overlay's explanation probe, when it reaches a dev server with cors-dev-proxy (this one
// under another name, as here, or another app's), is listed as ours, not as a second call of
// the page: in `/exchanges`, the live stream's views and the HAR, and its mark is not forwarded.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen, type StartedServer, sendRequest } from '../../../../test/support/servers.js'
import { createDevServerProxy, type DevServerProxy, resolveOptions } from '../../src/adapter.js'

let backend: StartedServer<Server>
let dev: StartedServer<Server>
let proxy: DevServerProxy
const received: IncomingHttpHeaders[] = []

beforeAll(async () => {
  // No CORS headers: a call from another origin is blocked.
  backend = await listen(
    createServer((req, res) => {
      received.push(req.headers)
      res.setHeader('content-type', 'application/json')
      res.end('{"items":[]}')
    }),
  )
  const server = createServer()
  proxy = createDevServerProxy(resolveOptions({ '/api': backend.url }, { log: 'silent' }), { server })
  server.on('request', (req, res) => proxy.middleware(req, res, () => res.writeHead(404).end()))
  dev = await listen(server)
})
afterAll(async () => {
  await proxy?.close()
  await dev?.close()
  await backend?.close()
})

interface Listed {
  readonly url: string
  readonly method: string
  readonly ours?: string
  readonly cors: { readonly outcome: string }
}

describe('the explanation probe in the exchange list', () => {
  it('is marked ours: one blocked call of the page is one page exchange, and the probe beside it', async () => {
    // The page is served as localhost and calls the same dev server as 127.0.0.1: another origin.
    const port = new URL(dev.url).port
    const pageOrigin = `http://localhost:${port}`
    const called = `http://127.0.0.1:${port}/api/items`
    const call = await sendRequest(called, { headers: { origin: pageOrigin } })
    expect(call.headers['access-control-allow-origin']).toBeUndefined()
    const explained = await sendRequest(`${pageOrigin}/__cors-dev-proxy/explain`, {
      method: 'POST',
      headers: { origin: pageOrigin, 'content-type': 'application/json' },
      body: JSON.stringify({
        url: called,
        method: 'GET',
        headers: [],
        credentials: 'same-origin',
        initiator: 'fetch',
      }),
    })
    expect(explained.status).toBe(200)
    expect(JSON.parse(explained.body.toString())).toMatchObject({ kind: 'cors', probed: true })

    const list = async () =>
      JSON.parse((await sendRequest(`${dev.url}/__cors-dev-proxy/exchanges`)).body.toString()) as Listed[]
    await expect.poll(async () => (await list()).length).toBe(2)
    const [page, probe] = await list()
    expect(page).toMatchObject({ method: 'GET', url: '/api/items', cors: { outcome: 'blocked' } })
    expect(page?.ours).toBeUndefined()
    expect(probe).toMatchObject({ method: 'GET', url: '/api/items', ours: 'probe' })
    // The mark is ours: the backend never sees it.
    expect(received).toHaveLength(2)
    for (const headers of received) expect(headers['x-cors-dev-proxy-probe']).toBeUndefined()
    const har = JSON.parse((await sendRequest(`${dev.url}/__cors-dev-proxy/har`)).body.toString()) as {
      log: { entries: { _ours?: string }[] }
    }
    expect(har.log.entries.map((entry) => entry._ours)).toEqual([undefined, 'probe'])
  })
})
