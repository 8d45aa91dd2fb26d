import { createServer } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { listen, sendRequest } from '../../../../test/support/servers.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { createDevServerProxy } from '../../src/proxy/dev-server-proxy.js'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

describe('the replayer', () => {
  it('closes twice without a rejection after a replay (the server closing the proxy, then the adapter)', async () => {
    const backend = await listen(createServer((_req, res) => res.end('ok')))
    cleanup.push(() => backend.close())
    const server = createServer()
    const proxy = createDevServerProxy(resolveOptions({ '/api': backend.url }, { log: 'silent' }), { server })
    server.on('request', (req, res) => proxy.middleware(req, res, () => res.end('app')))
    const front = await listen(server)
    cleanup.push(() => front.close())
    await sendRequest(`${front.url}/api/a`)
    const replayed = await sendRequest(`${front.url}/__cors-dev-proxy/replay/1`, {
      method: 'POST',
      headers: { origin: front.url },
    })
    expect(JSON.parse(replayed.body.toString())).toEqual({ replayOf: 1, status: 200 })
    await proxy.close()
    await expect(proxy.close()).resolves.toBeUndefined()
  })
})
