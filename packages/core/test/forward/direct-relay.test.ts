// The relay of every forwarded answer: an undici `dispatch()` handler writing the answer
// straight into the response (forward/relay.ts with forward/relay-sink.ts), the `proxyRes` hooks run
// on its head (forward/relay-head.ts) and the body collected for `transformResponse`
// (forward/collect-sink.ts).
// What it must keep of the stream-based relay is tested everywhere else; these are what it
// changed or has to do by hand.
import { createHash } from 'node:crypto'
import { once } from 'node:events'
import { createServer as createHttpServer, type IncomingMessage, request } from 'node:http'
import { createServer as createNetServer, type Server, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { type ProxyServerKind, type RunningProxy, serveProxy } from '../../../../test/support/proxy-server.js'
import { listen, sendHttp2Request, sendRequest } from '../../../../test/support/servers.js'
import { createCorsDevProxy, type Routes } from '../../src/index.js'

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

describe('the head written from the raw list', () => {
  const twoCookies = () =>
    rawTarget(() =>
      Buffer.from(
        'HTTP/1.1 200 OK\r\nSet-Cookie: a=1; Domain=api.example\r\nX-Id: 7\r\nset-cookie: b=2\r\nContent-Length: 2\r\n\r\nok',
      ),
    )

  it('keeps every Set-Cookie line when the dev server set headers on the response before the proxy', async () => {
    const target = await twoCookies()
    const proxy = createCorsDevProxy({ '/api': target }, { log: 'silent' })
    // On Node 20, writeHead with a flat list sets each field over headers already there: the
    // second Set-Cookie would replace the first.
    const server = await listen(
      createHttpServer((req, res) => {
        res.setHeader('x-dev-server', 'yes')
        proxy.middleware(req, res)
      }),
    )
    cleanup.push(async () => {
      await server.close()
      await proxy.close()
    })
    const res = await sendRequest(`${server.url}/api/x`)
    expect(res.status).toBe(200)
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2'])
    expect(res.headers['x-dev-server']).toBe('yes')
    expect(res.headers['x-id']).toBe('7')
    expect(res.body.toString()).toBe('ok')
  })

  it('keeps every Set-Cookie line on a cors route, whose headers join the head at writeHead', async () => {
    const target = await twoCookies()
    const proxy = await startProxy({ '/api': { target, cors: true } })
    const res = await sendRequest(`${proxy.url}/api/x`, { headers: { origin: 'http://localhost:5173' } })
    expect(res.status).toBe(200)
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2'])
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173')
    expect(res.headers['x-id']).toBe('7')
  })
})

describe('header values', () => {
  // Hooks and transforms see and pass on the same bytes.
  it.each([
    ['the direct relay', {}],
    ['the relay of a route with a proxyRes hook', { on: { proxyRes: () => undefined } }],
    ['the relay of a route with transformResponse', { transformResponse: (body: Buffer) => body }],
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
    // Below undici's 10 s connect timeout, which is what would answer without the route's timer,
    // with room for a machine running a second CPU-bound process.
    expect(took).toBeLessThan(8000)
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

/** A target that starts an answer and never ends it; `upstreamClosed` settles when its request closes. */
async function unfinishedTarget(): Promise<{
  url: string
  upstreamClosed: Promise<void>
  /** Resolves once the request reached the target. */
  reached: Promise<void>
}> {
  let closed: () => void = () => undefined
  const upstreamClosed = new Promise<void>((resolve) => {
    closed = resolve
  })
  let arrived: () => void = () => undefined
  const reached = new Promise<void>((resolve) => {
    arrived = resolve
  })
  const target = await listen(
    createHttpServer((_req, res) => {
      arrived()
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('first part\n')
      res.on('close', closed)
    }),
  )
  cleanup.push(target.close)
  return { url: target.url, upstreamClosed, reached }
}

/**
 * Waits for the upstream request to close, failing after 20 s: it closes within milliseconds, and
 * left open it would stay open for good; 3 s could run out beside a busy process.
 */
function closedSoon(upstreamClosed: Promise<void>): Promise<unknown> {
  return Promise.race([
    upstreamClosed,
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error('the upstream request stayed open')), 20_000),
    ),
  ])
}

describe('a client that leaves', () => {
  it('during the answer drops the upstream request', async () => {
    const target = await unfinishedTarget()
    const proxy = await startProxy({ '/api': target.url })
    const req = request(`${proxy.url}/api/stream`)
    req.end()
    const [res] = (await once(req, 'response')) as [IncomingMessage]
    await once(res, 'data')
    req.destroy()
    await closedSoon(target.upstreamClosed)
  })
})

/** A target that streams `total` bytes in 64 KiB chunks, and the sha256 of what it sends. */
async function streamingTarget(total: number) {
  const chunk = Buffer.alloc(64 * 1024, 3)
  const hash = createHash('sha256')
  for (let sent = 0; sent < total; sent += chunk.length) hash.update(chunk)
  const { createServer } = await import('node:http')
  const target = await listen(
    createServer((req, res) => {
      if (req.url === '/broken') {
        res.writeHead(200, { 'content-length': '1000' })
        res.write('partial')
        setTimeout(() => res.destroy(), 20)
        return
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-from': 'target' })
      let sent = 0
      const pump = (): void => {
        while (sent < total) {
          sent += chunk.length
          if (!res.write(chunk)) {
            res.once('drain', pump)
            return
          }
        }
        res.end()
      }
      pump()
    }),
  )
  cleanup.push(target.close)
  return { url: target.url, sha256: hash.digest('hex') }
}

describe('proxyRes hooks on the direct relay', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

  it('apply what a synchronous hook changes in the status and headers', async () => {
    const target = await streamingTarget(64 * 1024)
    const proxy = await startProxy({
      '/api': {
        target: target.url,
        on: {
          proxyRes: (proxyRes: { statusCode: number; headers: Record<string, unknown> }) => {
            proxyRes.statusCode = 203
            proxyRes.headers['x-hooked'] = 'yes'
            delete proxyRes.headers['x-from']
          },
        },
      },
    })
    const res = await sendRequest(`${proxy.url}/api/data`)
    expect(res.status).toBe(203)
    expect(res.headers['x-hooked']).toBe('yes')
    expect(res.headers['x-from']).toBeUndefined()
    expect(res.body.length).toBe(64 * 1024)
  })

  it('hold a large body back while an async hook runs, then relay it whole', async () => {
    const total = 8 * 1024 * 1024
    const target = await streamingTarget(total)
    const order: string[] = []
    const proxy = await startProxy({
      '/api': {
        target: target.url,
        on: {
          proxyRes: async (proxyRes: { headers: Record<string, unknown> }) => {
            await sleep(150)
            proxyRes.headers['x-first'] = '1'
            order.push('first')
          },
        },
        // A second hook, registered as http-proxy-middleware's plugins do: it runs after the first.
        plugins: [
          (proxyServer: {
            on(event: string, fn: (proxyRes: { headers: Record<string, unknown> }) => void): void
          }) =>
            proxyServer.on('proxyRes', (proxyRes) => {
              proxyRes.headers['x-second'] = String(proxyRes.headers['x-first'])
              order.push('second')
            }),
        ],
      },
    })
    for (const kind of ['http', 'h2'] as const) {
      const running =
        kind === 'http'
          ? proxy
          : await startProxy(
              { '/api': { target: target.url, on: { proxyRes: async () => sleep(100) } } },
              'h2',
            )
      const res =
        kind === 'http'
          ? await sendRequest(`${running.url}/api/data`)
          : await sendHttp2Request(`${running.url}/api/data`)
      expect(res.status).toBe(200)
      expect(res.body.length).toBe(total)
      expect(createHash('sha256').update(res.body).digest('hex')).toBe(target.sha256)
      if (kind === 'http') expect([res.headers['x-first'], res.headers['x-second']]).toEqual(['1', '1'])
    }
    expect(order).toEqual(['first', 'second'])
  })

  it('let an async hook answer the client itself, and send nothing after it', async () => {
    const target = await streamingTarget(1024 * 1024)
    const proxy = await startProxy({
      '/api': {
        target: target.url,
        on: {
          proxyRes: async (_proxyRes, _req, res) => {
            await sleep(20)
            res.writeHead(418, { 'content-type': 'text/plain' })
            res.end('answered by the hook')
          },
        },
      },
    })
    const res = await sendRequest(`${proxy.url}/api/data`)
    expect(res.status).toBe(418)
    expect(res.body.toString()).toBe('answered by the hook')
  })

  it('answer 502 naming a hook that throws, synchronous or async', async () => {
    const target = await streamingTarget(1024)
    for (const proxyRes of [
      () => {
        throw new Error('sync boom')
      },
      async () => {
        await sleep(10)
        throw new Error('async boom')
      },
    ]) {
      const proxy = await startProxy({ '/api': { target: target.url, on: { proxyRes } } })
      const res = await sendRequest(`${proxy.url}/api/data`)
      expect(res.status).toBe(502)
      // Named once: `routes['/api'].on.proxyRes threw: sync boom`.
      expect(res.body.toString()).toMatch(/^routes\['\/api'\]\.on\.proxyRes threw: (sync|async) boom\n$/)
    }
  })

  it('never pass a body the target broke off while an async hook ran for a whole one', async () => {
    const target = await streamingTarget(1024)
    const proxy = await startProxy({
      '/api': { target: target.url, on: { proxyRes: async () => sleep(200) } },
    })
    // A 502 when undici reports the break before the head goes out, else a broken-off response.
    const outcome = await sendRequest(`${proxy.url}/api/broken`).then(
      (res) => `status ${res.status}`,
      (error: Error) => `broken off (${error.message})`,
    )
    expect(outcome).toMatch(/^(status 502|broken off)/)
  })
})

describe('transformResponse on the direct relay', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

  it('gets the whole of a large answer, after an async proxyRes hook, over HTTP/1.1 and HTTP/2', async () => {
    const total = 8 * 1024 * 1024
    const target = await streamingTarget(total)
    const seen: Array<{ bytes: number; sha256: string; hooked: unknown }> = []
    const routes: Routes = {
      '/api': {
        target: target.url,
        on: {
          proxyRes: async (proxyRes: { headers: Record<string, unknown> }) => {
            await sleep(50)
            proxyRes.headers['x-hooked'] = 'yes'
          },
        },
        transformResponse: (body, proxyRes) => {
          seen.push({
            bytes: body.length,
            sha256: createHash('sha256').update(body).digest('hex'),
            hooked: proxyRes.headers['x-hooked'],
          })
          return body.subarray(0, 10)
        },
      },
    }
    for (const kind of ['http', 'h2'] as const) {
      const proxy = await startProxy(routes, kind)
      const res =
        kind === 'http'
          ? await sendRequest(`${proxy.url}/api/data`)
          : await sendHttp2Request(`${proxy.url}/api/data`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual(Buffer.alloc(10, 3))
      expect(res.headers['content-length']).toBe('10')
      expect(res.headers['x-hooked']).toBe('yes')
    }
    expect(seen).toEqual([
      { bytes: total, sha256: target.sha256, hooked: 'yes' },
      { bytes: total, sha256: target.sha256, hooked: 'yes' },
    ])
  })

  it('drops the upstream request past 16 MiB and answers 502 saying why', async () => {
    let upstreamClosed = false
    const { createServer } = await import('node:http')
    const chunk = Buffer.alloc(1024 * 1024, 1)
    const target = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' })
        // Without end: only the proxy giving up stops it.
        const pump = (): void => {
          while (res.write(chunk)) {
            if (res.destroyed) return
          }
          res.once('drain', pump)
        }
        res.on('close', () => {
          upstreamClosed = true
        })
        pump()
      }),
    )
    cleanup.push(target.close)
    const proxy = await startProxy({ '/api': { target: target.url, transformResponse: (body) => body } })
    const res = await sendRequest(`${proxy.url}/api/endless`)
    expect(res.status).toBe(502)
    expect(res.body.toString()).toContain('too large for transformResponse')
    await expect.poll(() => upstreamClosed, { timeout: 20_000 }).toBe(true)
  })

  it('answers 502 for a body the target broke off, never a transformed part of it', async () => {
    const target = await streamingTarget(1024)
    const transformed: number[] = []
    const proxy = await startProxy({
      '/api': {
        target: target.url,
        transformResponse: (body) => {
          transformed.push(body.length)
          return body
        },
      },
    })
    const res = await sendRequest(`${proxy.url}/api/broken`)
    expect(res.status).toBe(502)
    expect(res.body.toString()).toContain('response broken off')
    expect(transformed).toEqual([])
  })

  it('drops the upstream request when the client leaves while the body is collected', async () => {
    const target = await unfinishedTarget()
    const proxy = await startProxy({ '/api': { target: target.url, transformResponse: (body) => body } })
    const req = request(`${proxy.url}/api/stream`)
    req.on('error', () => undefined)
    req.end()
    // Once the target has the request and has begun its answer: the relay is collecting it.
    await target.reached
    await sleep(50)
    req.destroy()
    await closedSoon(target.upstreamClosed)
  })

  it('gets no promise from a synchronous transform: its answer is sent in the tick the body ended', async () => {
    const target = await streamingTarget(1024)
    let ticks = -1
    const proxy = await startProxy({
      '/api': {
        target: target.url,
        transformResponse: (body, _proxyRes, _req, res) => {
          // Counts microtask turns until the head is on the wire.
          ticks = 0
          const count = (): void => {
            if (res.headersSent || ticks > 50) return
            ticks++
            queueMicrotask(count)
          }
          queueMicrotask(count)
          return body
        },
      },
    })
    const res = await sendRequest(`${proxy.url}/api/data`)
    expect(res.status).toBe(200)
    expect(ticks).toBe(0)
  })
})

describe("the route's timeout and an upload", () => {
  it('counts from the end of the upload: a slow upload answered at once is not a 504', async () => {
    const { createServer, request } = await import('node:http')
    const target = await listen(
      createServer((req, res) => {
        let bytes = 0
        req.on('data', (chunk: Buffer) => {
          bytes += chunk.length
        })
        req.on('end', () => res.end(String(bytes)))
      }),
    )
    cleanup.push(target.close)
    const proxy = await startProxy({ '/api': { target: target.url, timeout: 300 } })
    const req = request(`${proxy.url}/api/upload`, { method: 'POST' })
    // Ten chunks 100 ms apart: the upload alone takes three times the route's timeout.
    for (let i = 0; i < 10; i++) {
      req.write(Buffer.alloc(1024, i))
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    req.end()
    const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage]
    let body = ''
    for await (const chunk of res) body += chunk
    expect(res.statusCode).toBe(200)
    expect(body).toBe(String(10 * 1024))
  })

  it('still answers 504 when the target stays silent after the upload', async () => {
    const { createServer } = await import('node:http')
    const target = await listen(createServer((req) => req.resume()))
    cleanup.push(target.close)
    const proxy = await startProxy({ '/api': { target: target.url, timeout: 300 } })
    const started = Date.now()
    const res = await sendRequest(`${proxy.url}/api/upload`, { method: 'POST', body: Buffer.alloc(4096) })
    expect(res.status).toBe(504)
    expect(Date.now() - started).toBeGreaterThanOrEqual(280)
  })
})
