import { createServer, type IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket, { WebSocketServer } from 'ws'
import { captureLogSink, listen, type StartedServer } from '../../../../../test/support/servers.js'
import { resolveOptions } from '../../../src/config/resolve-options.js'
import { createLogger } from '../../../src/log/logger.js'
import { buildCorsDevProxy, type EngineProxy } from '../../../src/proxy/create-cors-dev-proxy.js'

/*
 * Backend control on WebSocket handshakes: real `ws` echo servers behind a real proxy on
 * 127.0.0.1 port 0, a real `ws` client, servers shared by the file.
 */

/** A `ws` echo server that names itself and counts the handshakes it accepted. */
async function startEcho(name: string) {
  const server = createServer()
  const wss = new WebSocketServer({ server })
  const state = { handshakes: 0 }
  wss.on('connection', (peer) => {
    state.handshakes++
    peer.on('message', (data) => peer.send(`${name}: ${data.toString()}`))
  })
  const started = await listen(server, 'ws')
  return {
    ...started,
    state,
    async close() {
      for (const client of wss.clients) client.terminate()
      wss.close()
      await started.close()
    },
  }
}

type Echo = Awaited<ReturnType<typeof startEcho>>
let local: Echo
let staging: Echo
let proxy: EngineProxy
let front: StartedServer<ReturnType<typeof createServer>>

beforeAll(async () => {
  local = await startEcho('local')
  staging = await startEcho('staging')
  const resolved = resolveOptions(
    {
      '/plain': { target: local.url, ws: true },
      '/slow': { target: local.url, ws: true, latency: 1500 },
      '/failing': { target: local.url, ws: true, failRate: 1, failWith: 502 },
      '/reset': { target: local.url, ws: true, failRate: 1, failWith: 'reset' },
      '/switch': { targets: { local: local.url, staging: staging.url }, ws: true },
    },
    { log: 'silent' },
  )
  proxy = buildCorsDevProxy(resolved, createLogger('silent', captureLogSink()))
  const server = createServer((req, res) => proxy.middleware(req, res))
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!proxy.upgrade(req, socket, head)) socket.destroy()
  })
  front = await listen(server, 'ws')
})
afterAll(async () => {
  await front?.close()
  await proxy?.close()
  await local?.close()
  await staging?.close()
})

/** Opens a WebSocket, sends `hello`, resolves with the echo and the milliseconds until it opened. */
function echo(path: string): Promise<{ reply: string; openedMs: number }> {
  const start = performance.now()
  const socket = new WebSocket(`${front.url}${path}`)
  return new Promise((resolve, reject) => {
    let openedMs = 0
    socket.once('open', () => {
      openedMs = performance.now() - start
      socket.send('hello')
    })
    socket.once('message', (data) => {
      socket.close()
      resolve({ reply: data.toString(), openedMs })
    })
    socket.once('error', reject)
  })
}

/** Opens a WebSocket the proxy should refuse: the status and headers it answered, or the error. */
function refused(path: string): Promise<{ status?: number; fault?: string; error?: string }> {
  const socket = new WebSocket(`${front.url}${path}`)
  return new Promise((resolve) => {
    socket.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode, fault: String(res.headers['x-cors-dev-proxy-fault']) })
      res.resume()
      socket.terminate()
    })
    socket.once('error', (error) => resolve({ error: error.message }))
    socket.once('open', () => resolve({ error: 'opened' }))
  })
}

describe('faults on WebSocket upgrades', () => {
  it('delays the handshake by latency, and nothing else', async () => {
    await echo('/plain/warm')
    const finished: string[] = []
    const [plain, slow] = await Promise.all([
      echo('/plain/x').finally(() => finished.push('plain')),
      echo('/slow/x').finally(() => finished.push('slow')),
    ])
    expect(finished).toEqual(['plain', 'slow'])
    expect(plain.reply).toBe('local: hello')
    expect(slow.reply).toBe('local: hello')
    // 1.5 s rather than 300 ms: the plain handshake beside it must open first even when a second
    // CPU-bound process slows every handshake by hundreds of milliseconds.
    expect(slow.openedMs).toBeGreaterThanOrEqual(1499)
    expect(plain.openedMs).toBeLessThan(slow.openedMs)
  })

  it('refuses the handshake with failWith, marked as injected, without reaching the target', async () => {
    const before = local.state.handshakes
    expect(await refused('/failing/x')).toEqual({ status: 502, fault: 'failRate; 502' })
    expect(local.state.handshakes).toBe(before)
  })

  it("drops the socket with failWith: 'reset'", async () => {
    const before = local.state.handshakes
    const answer = await refused('/reset/x')
    expect(answer.status).toBeUndefined()
    expect(answer.error).toMatch(/socket hang up|ECONNRESET/)
    expect(local.state.handshakes).toBe(before)
  })

  it('opens the next handshake on the target in use after a switch', async () => {
    expect((await echo('/switch/x')).reply).toBe('local: hello')
    expect(proxy.controls.apply({ route: '/switch', target: 'staging' }).status).toBe(200)
    expect((await echo('/switch/x')).reply).toBe('staging: hello')
  })

  it('lets the handshake through once the faults are switched off', async () => {
    expect(proxy.controls.apply({ route: '/failing', faultsOn: false }).status).toBe(200)
    expect((await echo('/failing/x')).reply).toBe('local: hello')
  })
})
