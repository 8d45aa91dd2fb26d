import { once } from 'node:events'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { PassThrough } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { createExchangeRecorder } from '../../src/inspector/record-exchange.js'

/**
 * What @polka/compression (Storybook's dev server) does to every response it compresses: `res.on`
 * replaced, so listeners added before the first write go to its gzip stream instead.
 */
function patchOnLikeCompression(res: ServerResponse): void {
  const gzip = new PassThrough()
  res.on = ((type: string, listener: (...args: unknown[]) => void) => {
    gzip.on(type, listener)
    return res
  }) as ServerResponse['on']
}

const servers: Array<ReturnType<typeof createServer>> = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

describe('createExchangeRecorder', () => {
  it.each([
    ['as Node made it', false],
    ["whose res.on a dev server's compression replaced", true],
  ])('records a response %s', async (_, patched) => {
    const resolved = resolveOptions({ '/api': 'http://127.0.0.1:9' })
    const route = resolved.routes[0]
    if (route === undefined || resolved.inspector === undefined) throw new Error('no route or inspector')
    const recorder = createExchangeRecorder(resolved.inspector)
    const server = createServer((req, res) => {
      if (patched) patchOnLikeCompression(res)
      recorder.begin(req, res, route)
      res.writeHead(201, { 'content-type': 'text/plain' }).end('made')
    })
    servers.push(server)
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as AddressInfo
    const pushed = new Promise((resolve) => recorder.ring.subscribe(resolve))
    const res = await fetch(`http://127.0.0.1:${port}/api/items?n=1`)
    expect(await res.text()).toBe('made')
    await pushed
    const [record] = recorder.ring.list()
    expect(record?.url).toBe('/api/items?n=1')
    expect(record?.status).toBe(201)
  })

  it.each([
    ['http://127.0.0.1:9/items', 'http://127.0.0.1:9/items', 'http/1.1'],
    ['https://api.test/items over h2', 'https://api.test/items', 'h2'],
    ["mocked by 'GET /items'", "mocked by 'GET /items'", 'mock'],
    // What answered in the target's place, over no upstream protocol.
    ['replay', 'replay', undefined],
    ['replay (target failed: connection refused)', 'replay (target failed: connection refused)', undefined],
  ])('records the hop %s as its upstream', async (hop, upstreamUrl, upstreamProtocol) => {
    const resolved = resolveOptions({ '/api': 'http://127.0.0.1:9' })
    const route = resolved.routes[0]
    if (route === undefined || resolved.inspector === undefined) throw new Error('no route or inspector')
    const recorder = createExchangeRecorder(resolved.inspector)
    const server = createServer((req, res) => {
      // What a step notes in the request's exchange (the recording is it).
      recorder.begin(req, res, route).hop = hop
      res.end('made')
    })
    servers.push(server)
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as AddressInfo
    const pushed = new Promise((resolve) => recorder.ring.subscribe(resolve))
    await (await fetch(`http://127.0.0.1:${port}/api/items`)).text()
    await pushed
    const [record] = recorder.ring.list()
    expect(record).toMatchObject({ upstreamUrl, upstreamProtocol })
  })
})
