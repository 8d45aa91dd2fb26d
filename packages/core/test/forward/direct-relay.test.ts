// The relay of the common route (no `proxyRes` hooks, no `transformResponse`): an undici
// `dispatch()` handler writing the answer straight into the response (forward/direct-relay.ts).
// What it must keep of the stream-based relay is tested everywhere else; these are what it
// changed or has to do by hand.
import { createHash } from 'node:crypto'
import { once } from 'node:events'
import { createServer as createNetServer, type Server, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { type ProxyServerKind, type RunningProxy, serveProxy } from '../../../../test/support/proxy-server.js'
import { listen, sendHttp2Request, sendRequest } from '../../../../test/support/servers.js'
import type { Routes } from '../../src/index.js'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

async function startProxy(routes: Routes, kind: ProxyServerKind = 'http'): Promise<RunningProxy> {
  const running = await serveProxy(routes, { log: 'silent' }, kind)
  cleanup.push(running.close)
  return running
}

/** A target that answers every request with the given raw bytes (its head written by hand). */
async function rawTarget(answer: (port: number) => Buffer): Promise<string> {
  const sockets = new Set<Socket>()
  const server: Server = createNetServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.once('data', () => socket.end(answer((server.address() as { port: number }).port)))
    socket.on('error', () => undefined)
  })
  const started = await listen(server)
  cleanup.push(async () => {
    for (const socket of sockets) socket.destroy()
    await started.close()
  })
  return started.url
}

describe('header values', () => {
  // With a `proxyRes` hook the answer is read through undici's `request()` instead: the same bytes.
  it.each([
    ['the direct relay', {}],
    ['the relay of a route with a proxyRes hook', { on: { proxyRes: () => undefined } }],
  ])('passes a UTF-8 Content-Disposition to the client byte for byte (%s)', async (_name, extra) => {
    const value = Buffer.from('attachment; filename="café-数据.txt"')
    const target = await rawTarget(() =>
      Buffer.concat([
        Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Disposition: '),
        value,
        Buffer.from('\r\nX-Note: '),
        value,
        Buffer.from('\r\n\r\nok'),
      ]),
    )
    const proxy = await startProxy({ '/api': { target, ...extra } })
    const res = await sendRequest(`${proxy.url}/api/file`)
    expect(res.status).toBe(200)
    // Node's client reads header bytes as latin1: the same bytes give the same string.
    expect(Buffer.from(String(res.headers['content-disposition']), 'latin1')).toEqual(value)
    expect(Buffer.from(String(res.headers['x-note']), 'latin1')).toEqual(value)
    expect(res.body.toString()).toBe('ok')
  })

  it('reads a UTF-8 Location as text to point it back at the dev server', async () => {
    const target = await rawTarget((port) =>
      Buffer.concat([
        Buffer.from('HTTP/1.1 302 Found\r\nContent-Length: 0\r\nLocation: '),
        Buffer.from(`http://127.0.0.1:${port}/posts/café?q=ü`),
        Buffer.from('\r\n\r\n'),
      ]),
    )
    const proxy = await startProxy({ '/api': target })
    const res = await sendRequest(`${proxy.url}/api/go`)
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe(`${proxy.url}/api/posts/caf%C3%A9?q=%C3%BC`)
  })

  it('passes a UTF-8 Location of another origin byte for byte', async () => {
    const elsewhere = Buffer.from('https://example.test/café')
    const target = await rawTarget(() =>
      Buffer.concat([
        Buffer.from('HTTP/1.1 302 Found\r\nContent-Length: 0\r\nLocation: '),
        elsewhere,
        Buffer.from('\r\n\r\n'),
      ]),
    )
    const proxy = await startProxy({ '/api': target })
    const res = await sendRequest(`${proxy.url}/api/go`)
    expect(Buffer.from(String(res.headers.location), 'latin1')).toEqual(elsewhere)
  })
})

describe('the route timeout', () => {
  it('fires on time while the connection is still being set up (a TLS handshake never answered)', async () => {
    // Accepts TCP connections and never says a word: undici's connect would wait its own 10 s.
    const sockets = new Set<Socket>()
    const mute: Server = createNetServer((socket) => {
      sockets.add(socket)
      socket.on('error', () => undefined)
    })
    const started = await listen(mute)
    cleanup.push(async () => {
      for (const socket of sockets) socket.destroy()
      await started.close()
    })
    const proxy = await startProxy({
      '/api': { target: `https://127.0.0.1:${new URL(started.url).port}`, timeout: 400, secure: false },
    })
    const began = performance.now()
    const res = await sendRequest(`${proxy.url}/api/x`)
    const took = performance.now() - began
    expect(res.status).toBe(504)
    expect(took).toBeGreaterThanOrEqual(390)
    // Far below undici's 10 s connect timeout, with room for a loaded machine.
    expect(took).toBeLessThan(3000)
  })
})

describe('HTTP/2 clients', () => {
  it('get a 24 MiB answer whole', async () => {
    const chunk = Buffer.alloc(64 * 1024, 7)
    const total = 24 * 1024 * 1024
    const expected = createHash('sha256')
    for (let sent = 0; sent < total; sent += chunk.length) expected.update(chunk)
    const { createServer } = await import('node:http')
    const target = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(total) })
        let sent = 0
        const pump = (): void => {
          while (sent < total) {
            sent += chunk.length
            if (sent >= total) {
              res.end(chunk)
              return
            }
            if (!res.write(chunk)) {
              res.once('drain', pump)
              return
            }
          }
        }
        pump()
      }),
    )
    cleanup.push(target.close)
    const proxy = await startProxy({ '/api': target.url }, 'h2')
    const res = await sendHttp2Request(`${proxy.url}/api/bytes`)
    expect(res.status).toBe(200)
    expect(res.body.length).toBe(total)
    expect(createHash('sha256').update(res.body).digest('hex')).toBe(expected.digest('hex'))
  })
})

describe('a client that leaves', () => {
  it('during the answer drops the upstream request', async () => {
    let closed: () => void = () => undefined
    const upstreamClosed = new Promise<void>((resolve) => {
      closed = resolve
    })
    const { createServer, request } = await import('node:http')
    const target = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.write('first part\n')
        res.on('close', closed)
      }),
    )
    cleanup.push(target.close)
    const proxy = await startProxy({ '/api': target.url })
    const req = request(`${proxy.url}/api/stream`)
    req.end()
    const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage]
    await once(res, 'data')
    req.destroy()
    await Promise.race([
      upstreamClosed,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('the upstream request stayed open')), 3000),
      ),
    ])
  })
})
