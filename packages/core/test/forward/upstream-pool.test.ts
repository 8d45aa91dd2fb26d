import { once } from 'node:events'
import { createServer } from 'node:http'
import type { Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../test/support/proxy-server.js'
import { collectBody, listen, sendRequest } from '../../../../test/support/servers.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import type { ResolvedForwardRoute } from '../../src/config/resolved-route.js'
import { createUpstreamPool } from '../../src/forward/upstream-pool.js'
import { forwardRoute } from '../support/resolved.js'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

async function countingTarget() {
  const sockets: Socket[] = []
  const target = await listen(createServer((_req, res) => res.end('ok')))
  target.server.on('connection', (socket: Socket) => sockets.push(socket))
  cleanup.push(target.close)
  return { target, sockets }
}

function forwardRoutes(routes: Parameters<typeof resolveOptions>[0]): ResolvedForwardRoute[] {
  return resolveOptions(routes).routes.map(forwardRoute)
}

describe('createUpstreamPool', () => {
  it('keeps one connection to the target alive across requests through the proxy', async () => {
    const { target, sockets } = await countingTarget()
    const proxy = await serveProxy({ '/api': target.url }, { log: 'silent' })
    cleanup.push(proxy.close)
    for (let i = 0; i < 10; i++) expect((await sendRequest(`${proxy.url}/api/${i}`)).status).toBe(200)
    expect(sockets).toHaveLength(1)
  })

  it('shares a pool per origin and secure setting, and reuses it for the same route', () => {
    const pool = createUpstreamPool()
    cleanup.push(() => pool.close())
    const [a, b, c, d] = forwardRoutes({
      '/a': 'http://127.0.0.1:3000/v1',
      '/b': 'http://127.0.0.1:3000/v2',
      '/c': { target: 'http://127.0.0.1:3000', secure: false },
      '/d': 'http://127.0.0.1:4000',
    }).sort((x, y) => (x.prefix < y.prefix ? -1 : 1))
    if (!a || !b || !c || !d) throw new Error('four routes')
    expect(pool.poolFor(a)).toBe(pool.poolFor(b))
    expect(pool.poolFor(a)).toBe(pool.poolFor(a))
    expect(pool.poolFor(c)).not.toBe(pool.poolFor(a))
    expect(pool.poolFor(d)).not.toBe(pool.poolFor(a))
    expect(pool.size).toBe(3)
  })

  it("applies each route's timeout, also when routes share one target's pool", {
    timeout: 10_000,
  }, async () => {
    // `/hang` never answers; everything else answers at once.
    const target = await listen(
      createServer((req, res) => {
        if (req.url !== '/hang') res.end('ok')
      }),
    )
    cleanup.push(target.close)
    const proxy = await serveProxy(
      { '/patient': { target: target.url, timeout: 60_000 }, '/hasty': { target: target.url, timeout: 200 } },
      { log: 'silent' },
    )
    cleanup.push(proxy.close)
    // The patient route opens the shared pool first, with its own 60 s as the pool's default.
    expect((await sendRequest(`${proxy.url}/patient/x`)).status).toBe(200)
    const res = await sendRequest(`${proxy.url}/hasty/hang`)
    expect(res.status).toBe(504)
    expect(res.body.toString()).toContain('no response within 200 ms')
  })

  it('closes the kept-alive connections on close()', async () => {
    const { target, sockets } = await countingTarget()
    const [route] = forwardRoutes({ '/api': target.url })
    if (!route) throw new Error('one route')
    const pool = createUpstreamPool()
    const res = await pool.poolFor(route).request({ path: '/', method: 'GET' })
    await collectBody(res.body)
    expect(sockets).toHaveLength(1)
    const closed = once(sockets[0] as Socket, 'close')
    await pool.close()
    await closed
    expect(pool.size).toBe(0)
  })
})
