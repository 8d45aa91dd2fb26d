import { once } from 'node:events'
import { createServer, type IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket, { WebSocketServer } from 'ws'
import { serveProxy } from '../../../../../test/support/proxy-server.js'
import { collectBody, listen, openRequest } from '../../../../../test/support/servers.js'
import type { Routes } from '../../../src/index.js'
import { createCorsDevProxy } from '../../../src/proxy/node-middleware.js'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** What the dev server's upgrade listener saw after asking the proxy. */
interface UpgradeDecision {
  url: string | undefined
  taken: boolean
  /** After a `false` answer only: the proxy neither wrote to the socket nor destroyed it. */
  untouched?: boolean
}

/**
 * A dev server: the proxy's upgrade listener first, then an "HMR" WebSocket server (greets
 * with `hmr hello`) that takes whatever the proxy leaves alone, as Vite's does.
 */
async function startDevServer(routes: Routes) {
  const proxy = createCorsDevProxy(routes, { log: 'silent' })
  const server = createServer((req, res) => proxy.middleware(req, res))
  const hmr = new WebSocketServer({ noServer: true })
  hmr.on('connection', (socket) => socket.send('hmr hello'))
  const decisions: UpgradeDecision[] = []
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const taken = proxy.upgrade(req, socket, head)
    const untouched = !socket.destroyed && socket.bytesWritten === 0
    decisions.push(taken ? { url: req.url, taken } : { url: req.url, taken, untouched })
    if (!taken) hmr.handleUpgrade(req, socket, head, (ws) => hmr.emit('connection', ws, req))
  })
  const started = await listen(server, 'ws')
  cleanup.push(async () => {
    for (const client of hmr.clients) client.terminate()
    hmr.close()
    await proxy.close()
    await started.close()
  })
  return { url: started.url, decisions }
}

/** Opens a client, sends `text` once open, and resolves with the first message it receives. */
async function firstReply(url: string, text: string): Promise<string> {
  const client = new WebSocket(url)
  cleanup.push(async () => client.terminate())
  const reply = new Promise<string>((resolve) => client.once('message', (data) => resolve(data.toString())))
  await once(client, 'open')
  client.send(text)
  return reply
}

describe('createCorsDevProxy with a mock route', () => {
  it('hands `<prefix>/ws` of a mock route with ws: true to the echo, and leaves other upgrades alone', async () => {
    const dev = await startDevServer({ '/api': { mock: true, ws: true }, '/plain': { mock: true } })
    expect(await firstReply(`${dev.url}/api/ws?room=1`, 'ping')).toBe('ping')
    // Not a route, and a mock route without `ws`: both reach the HMR server untouched.
    expect(await firstReply(`${dev.url}/other`, 'ping')).toBe('hmr hello')
    expect(await firstReply(`${dev.url}/plain/ws`, 'ping')).toBe('hmr hello')
    expect(dev.decisions).toEqual([
      { url: '/api/ws?room=1', taken: true },
      { url: '/other', taken: false, untouched: true },
      { url: '/plain/ws', taken: false, untouched: true },
    ])
  })

  it('ends an open /events stream when close() resolves', { timeout: 15_000 }, async () => {
    const running = await serveProxy({ '/api': { mock: true } }, { log: 'silent' })
    cleanup.push(running.close)
    // 1000 events 50 ms apart: without close() reaching the mock, the stream would run for 50 s.
    const res = await openRequest(`${running.url}/api/events?count=1000&interval=50`)
    expect(res.statusCode).toBe(200)
    res.setEncoding('utf8')
    let text = ''
    const firstEvent = new Promise<void>((resolve) =>
      res.on('data', (chunk: string) => {
        text += chunk
        if (text.includes('id: 1\n')) resolve()
      }),
    )
    const ended = new Promise<string>((resolve) => {
      res.once('end', () => resolve('end'))
      res.once('close', () => resolve('close'))
    })
    await firstEvent
    await running.proxy.close()
    expect(['end', 'close']).toContain(await ended)
    // Cut short by the close, not run to its last event.
    expect(text).not.toContain('event: end')
  })

  it('answers a held ?delay= request 503 when close() resolves', { timeout: 15_000 }, async () => {
    const running = await serveProxy({ '/api': { mock: true } }, { log: 'silent' })
    cleanup.push(running.close)
    // The request listener runs after the proxy's handler, which has by then started the delay.
    const received = once(running.server, 'request')
    const answer = openRequest(`${running.url}/api/slow?delay=10000`)
    await received
    await running.proxy.close()
    const res = await answer
    expect(res.statusCode).toBe(503)
    expect((await collectBody(res)).toString()).toContain('the mock backend is closing')
  })
})
