import { once } from 'node:events'
import { createServer } from 'node:http'
import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket, { WebSocketServer } from 'ws'
import { captureLogSink, listen, sendRequest } from '../../../../test/support/servers.js'
import { type CorsDevProxyOptions, createCorsDevProxy } from '../../src/index.js'

// http-proxy-middleware's WebSocket wiring for `app.use(proxy)` alone (README "WebSocket" and
// "External WebSocket upgrade"; http-proxy-middleware.ts, catchUpgradeRequest): the first HTTP
// request gives `req.socket.server`, whose 'upgrade' event the middleware subscribes to.

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** A WebSocket echo target that counts its connections. */
async function startEchoTarget() {
  const server = createServer((_req, res) => res.end('http'))
  const wss = new WebSocketServer({ server })
  let connections = 0
  wss.on('connection', (socket) => {
    connections += 1
    socket.on('message', (data) => socket.send(`echo ${data}`))
  })
  const started = await listen(server)
  cleanup.push(async () => {
    for (const client of wss.clients) client.terminate()
    wss.close()
    await started.close()
  })
  return { url: started.url, connections: () => connections }
}

/** Express with only `app.use(proxy.middleware)`; `wire` adds hpm's `server.on('upgrade', proxy.upgrade)` too. */
async function startExpress(target: string, options: CorsDevProxyOptions = {}, wire = false) {
  const proxy = createCorsDevProxy(
    { '/live': { target, ws: true } },
    { logger: captureLogSink(), ...options },
  )
  const app = express()
  app.use(proxy.middleware)
  app.use((_req, res) => res.status(299).send('dev server'))
  const server = createServer(app)
  if (wire) server.on('upgrade', (req, socket, head) => proxy.upgrade(req, socket, head) || socket.destroy())
  const started = await listen(server)
  cleanup.push(async () => {
    await proxy.close()
    await started.close()
  })
  return started
}

async function echo(url: string): Promise<string> {
  const socket = new WebSocket(url)
  // `once` rejects when 'error' is emitted first: a closed socket reads as `false`.
  const opened = await Promise.race([
    once(socket, 'open').then(() => true),
    once(socket, 'unexpected-response').then(([, res]) => (res as { statusCode: number }).statusCode),
  ]).catch(() => false)
  if (opened !== true) {
    socket.terminate()
    return `refused ${opened}`
  }
  socket.send('hi')
  const [data] = await once(socket, 'message')
  socket.close()
  return String(data)
}

describe('createCorsDevProxy(...).middleware mounted with app.use alone', () => {
  it('subscribes to the server’s upgrade event on the first request: ws routes then work', async () => {
    const target = await startEchoTarget()
    const dev = await startExpress(target.url)
    expect((await sendRequest(`${dev.url}/anything`)).status).toBe(299)
    expect(await echo(`${dev.url.replace('http', 'ws')}/live`)).toBe('echo hi')
    expect(dev.server.listenerCount('upgrade')).toBe(1)
  })

  it('never handles an upgrade twice when proxy.upgrade is wired as well', async () => {
    const target = await startEchoTarget()
    const dev = await startExpress(target.url, {}, true)
    await sendRequest(`${dev.url}/anything`)
    expect(dev.server.listenerCount('upgrade')).toBe(2)
    expect(await echo(`${dev.url.replace('http', 'ws')}/live`)).toBe('echo hi')
    expect(await echo(`${dev.url.replace('http', 'ws')}/live`)).toBe('echo hi')
    expect(target.connections()).toBe(2)
  })

  it('closes an upgrade no route takes when it is the only listener', async () => {
    const target = await startEchoTarget()
    const dev = await startExpress(target.url)
    await sendRequest(`${dev.url}/anything`)
    expect(await echo(`${dev.url.replace('http', 'ws')}/elsewhere`)).toBe('refused false')
  })

  it('subscribes to nothing with subscribeUpgrade: false (the upgrade reaches the middleware: 501)', async () => {
    const target = await startEchoTarget()
    const dev = await startExpress(target.url, { subscribeUpgrade: false })
    await sendRequest(`${dev.url}/anything`)
    expect(dev.server.listenerCount('upgrade')).toBe(0)
    expect(await echo(`${dev.url.replace('http', 'ws')}/live`)).toBe('refused 501')
  })
})
