// The Fetch handler's WebSocket bridge on Node: the runtime's accepted socket stands in as a
// peer recording what it is sent; the target is the mock backend's real WebSocket echo.
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { WebSocketPeer } from '../../src/fetch/websocket-bridge.js'
import { createFetchHandler, type FetchHandler } from '../../src/proxy/create-fetch-handler.js'
import { createMockBackend } from '../../src/stand-ins/mock-backend/mock-backend.js'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close()
})

/** The mock backend on 127.0.0.1:0 (its echo answers upgrades to `/ws`), and the handshakes it saw. */
async function echoBackend() {
  const mock = createMockBackend()
  const handshakes: IncomingMessage[] = []
  const server = createServer(mock)
  server.on('upgrade', (req, socket, head) => {
    handshakes.push(req)
    if (!mock.upgrade(req, socket, head)) socket.destroy()
  })
  server.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  cleanup.push(async () => {
    await mock.close()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, handshakes }
}

function handler(...args: Parameters<typeof createFetchHandler>): FetchHandler {
  const proxy = createFetchHandler(...args)
  cleanup.push(proxy.close)
  return proxy
}

/** A peer that records what the bridge sends it, and resolves `closed` with its close code. */
function recordingPeer() {
  const received: unknown[] = []
  let arrived: () => void = () => {}
  let closedWith: (code: number | undefined) => void = () => {}
  const closed = new Promise<number | undefined>((resolve) => {
    closedWith = resolve
  })
  const peer: WebSocketPeer = {
    send(data) {
      received.push(data)
      arrived()
    },
    close(code) {
      closedWith(code)
    },
  }
  const next = () =>
    new Promise<void>((resolve) => {
      arrived = resolve
    })
  return { peer, received, closed, next }
}

const upgrade = (url: string, headers: Record<string, string> = {}) =>
  new Request(url, { headers: { upgrade: 'websocket', connection: 'Upgrade', ...headers } })

describe('createFetchHandler: webSocket', () => {
  it('bridges a ws route to the target, path rewritten, messages both ways', async () => {
    const backend = await echoBackend()
    const proxy = handler({ '/live': { target: `${backend.url}/ws`, ws: true } }, { log: 'silent' })
    const bridge = await proxy.webSocket(
      upgrade('http://localhost:8080/live', { origin: 'http://localhost:8080' }),
    )
    if (bridge === undefined || bridge instanceof Response) throw new Error(`no bridge: ${bridge}`)
    expect(bridge.url).toBe(`${backend.url.replace('http', 'ws')}/ws`)
    const { peer, received, next } = recordingPeer()
    bridge.open(peer)
    // Sent before the target's socket opened: it waits for it.
    const echoed = next()
    bridge.message('hello through the bridge')
    await echoed
    expect(received).toEqual(['hello through the bridge'])
    // changeOrigin (the default): the target sees its own origin, as on the Node front end.
    expect(backend.handshakes[0]?.headers.origin).toBe(backend.url)
    // The client's close ends the target's socket, which the echo sees as a close.
    bridge.close(1000, 'done')
    bridge.message('after the close')
    expect(received).toEqual(['hello through the bridge'])
  })

  it("closes the client's socket when the target's closes", async () => {
    const backend = await echoBackend()
    // The mock's echo refuses any path but /ws: the target's socket fails and closes.
    const proxy = handler({ '/live': { target: backend.url, ws: true } }, { log: 'silent' })
    const bridge = await proxy.webSocket(upgrade('http://localhost:8080/live/elsewhere'))
    if (bridge === undefined || bridge instanceof Response) throw new Error(`no bridge: ${bridge}`)
    const { peer, closed } = recordingPeer()
    bridge.open(peer)
    // 1006 (abnormal) is not a code a script may send: the client gets 1000.
    expect(await closed).toBe(1000)
  })

  it("applies the route's faults to the handshake, as on Node", async () => {
    // Port 9: nothing listens there, and no bridge is opened: the handshake's fate is the point.
    const proxy = handler(
      {
        '/slow': { target: 'http://127.0.0.1:9', ws: true, latency: 200 },
        '/failing': { target: 'http://127.0.0.1:9', ws: true, failRate: 1, failWith: 502 },
        '/reset': { target: 'http://127.0.0.1:9', ws: true, failRate: 1, failWith: 'reset' },
      },
      { log: 'silent' },
    )
    const start = performance.now()
    const slow = await proxy.webSocket(upgrade('http://localhost/slow/x'))
    expect(performance.now() - start).toBeGreaterThanOrEqual(199)
    expect(slow).not.toBeInstanceOf(Response)
    const failed = (await proxy.webSocket(upgrade('http://localhost/failing/x'))) as Response
    expect([failed.status, failed.headers.get('x-cors-dev-proxy-fault')]).toEqual([502, 'failRate; 502'])
    expect(((await proxy.webSocket(upgrade('http://localhost/reset/x'))) as Response).type).toBe('error')
  })

  it('answers undefined for a plain request and for a route without ws', async () => {
    const proxy = handler(
      { '/live': { target: 'http://127.0.0.1:9', ws: true }, '/api': 'http://127.0.0.1:9' },
      { log: 'silent' },
    )
    expect(await proxy.webSocket(new Request('http://localhost/live'))).toBeUndefined()
    expect(await proxy.webSocket(upgrade('http://localhost/api/socket'))).toBeUndefined()
    expect(await proxy.webSocket(upgrade('http://localhost/elsewhere'))).toBeUndefined()
  })

  it("refuses 403 a page the route's cors does not admit", async () => {
    const lines: string[] = []
    const proxy = handler(
      { '/live': { target: 'http://127.0.0.1:9', ws: true, cors: true } },
      { logger: { info: () => {}, warn: (line) => lines.push(line), error: (line) => lines.push(line) } },
    )
    const answer = await proxy.webSocket(upgrade('http://localhost/live', { origin: 'https://evil.example' }))
    expect(answer).toBeInstanceOf(Response)
    expect((answer as Response).status).toBe(403)
    expect(lines.join('\n')).toContain("route '/live' has `cors`")
    const admitted = await proxy.webSocket(
      upgrade('http://localhost/live', { origin: 'http://localhost:5173' }),
    )
    expect(admitted).not.toBeInstanceOf(Response)
    expect(admitted?.url).toBe('ws://127.0.0.1:9/')
  })

  it("asks the route's router, and answers 502 naming the route when it throws, as on Node", async () => {
    const backend = await echoBackend()
    const lines: string[] = []
    const proxy = handler(
      {
        '/live': {
          target: 'http://127.0.0.1:9',
          ws: true,
          pathRewrite: { '^/live': '/ws' },
          router: (req) => {
            if (req.headers['x-tenant'] === 'none') throw new Error('no such tenant')
            return backend.url
          },
        },
      },
      { logger: { info: () => {}, warn: (line) => lines.push(line), error: (line) => lines.push(line) } },
    )
    const routed = await proxy.webSocket(upgrade('http://localhost/live'))
    expect(routed?.url).toBe(`${backend.url.replace('http', 'ws')}/ws`)
    const refused = (await proxy.webSocket(
      upgrade('http://localhost/live', { 'x-tenant': 'none' }),
    )) as Response
    expect([refused.status, await refused.text()]).toEqual([
      502,
      "Bad Gateway: the router of route '/live' failed\n",
    ])
    expect(lines.join('\n')).toContain("routes['/live'].router threw: no such tenant (WebSocket handshake)")
  })
})
