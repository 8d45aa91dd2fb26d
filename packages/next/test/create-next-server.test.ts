import { EventEmitter } from 'node:events'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { createServer, type IncomingMessage, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createMockBackend, SERVER_URL_VARIABLE } from '@cors-dev-proxy/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen, type StartedServer } from '../../../test/support/servers.js'
import { createNextServer, type NextAppOptions, type NextFactory } from '../src/create-next-server.js'

// The custom server's wiring, with a stand-in for Next that behaves as a custom server's Next app
// does (its `upgrade` listener added on its first request, to `httpServer` when given, else to the
// request's server) and a real backend; the real `next dev` runs in the framework suite.
const mock = createMockBackend()
const lines: string[] = []
const sink = { info: (line: string) => lines.push(line), warn: () => {}, error: () => {} }
let backend: StartedServer<Server>
let server: Server
let origin: string
let given: NextAppOptions & { httpServer?: EventEmitter }

const fakeNext: NextFactory = (options) => {
  given = options
  let listening = false
  return {
    prepare: async () => {},
    getRequestHandler: () => async (req, res) => {
      if (!listening) {
        listening = true
        const host = options.httpServer ?? (req.socket as unknown as { server: EventEmitter }).server
        host.on('upgrade', (upgradeReq: IncomingMessage, socket) => {
          socket.end(`HTTP/1.1 418 Next\r\nx-next-upgrade: ${upgradeReq.url}\r\nconnection: close\r\n\r\n`)
        })
      }
      if (req.url === '/throws') throw new Error('render failed')
      res.end(`next ${req.url}`)
    },
  }
}

/** Sends a WebSocket handshake; resolves with the status of the answer (101 or Next's 418). */
function upgrade(path: string): Promise<{ status: number | undefined; by: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    })
    req.on('upgrade', (res, socket) => {
      socket.destroy()
      resolve({ status: res.statusCode, by: undefined })
    })
    req.on('response', (res) => {
      res.resume()
      resolve({ status: res.statusCode, by: res.headers['x-next-upgrade'] as string | undefined })
    })
    req.on('error', reject)
    req.end()
  })
}

beforeAll(async () => {
  backend = await listen(createServer((req, res) => mock(req, res)))
  backend.server.on('upgrade', (req, socket, head) => mock.upgrade(req, socket, head) || socket.destroy())
  const created = await createNextServer(
    fakeNext,
    { dev: true, turbopack: true },
    { '/api': backend.url, '/live': { target: `${backend.url}/ws`, ws: true } },
    { logger: sink },
  )
  server = created.server
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
  await mock.close()
  await backend.close()
})

describe('createNextServer', () => {
  it("passes Next's options on, with a stand-in server for Next's upgrade listener", () => {
    expect(given).toMatchObject({ dev: true, turbopack: true })
    expect(given.httpServer).toBeInstanceOf(EventEmitter)
    expect(given.httpServer).not.toBe(server)
  })

  it("answers a route's requests from the backend and leaves the rest to Next", async () => {
    const echo = await (await fetch(`${origin}/api/items?x=1`)).json()
    expect(echo).toMatchObject({ method: 'GET', path: '/items' })
    expect(await (await fetch(`${origin}/about`)).text()).toBe('next /about')
    expect(await (await fetch(`${origin}/api2`)).text()).toBe('next /api2')
  })

  it("serves the overlay's script under /__cors-dev-proxy/, not Next's 404", async () => {
    const res = await fetch(`${origin}/__cors-dev-proxy/client.js`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('javascript')
    await res.arrayBuffer()
  })

  it("hands a ws route's upgrade to the backend, Next's HMR socket and unrouted upgrades to Next", async () => {
    await (await fetch(`${origin}/`)).arrayBuffer()
    expect(await upgrade('/live')).toEqual({ status: 101, by: undefined })
    expect(await upgrade('/_next/hmr?id=1')).toEqual({ status: 418, by: '/_next/hmr?id=1' })
    expect(await upgrade('/elsewhere')).toEqual({ status: 418, by: '/elsewhere' })
  })

  it('prints the routes once it listens and publishes its URL for serverFetch', () => {
    // The routes in the order written: '/api' first, though '/live' is the longer prefix.
    expect(lines.filter((line) => line.includes('routes: /api → '))).toHaveLength(1)
    expect(process.env[SERVER_URL_VARIABLE]).toBe(origin)
  })

  it('answers 500 when Next throws, and keeps serving', async () => {
    const res = await fetch(`${origin}/throws`)
    expect(res.status).toBe(500)
    await res.arrayBuffer()
    expect(await (await fetch(`${origin}/about`)).text()).toBe('next /about')
  })

  it('stops on a misspelt option, naming it, before Next starts', async () => {
    let started = false
    const next: NextFactory = (options) => {
      started = true
      return fakeNext(options)
    }
    await expect(
      createNextServer(next, { dev: true }, { '/api': { target: backend.url, changeOrgin: true } as never }),
    ).rejects.toThrow(/changeOrgin/)
    expect(started).toBe(false)
  })

  it("writes a record: true route's recordings under Next's dir, not the working directory", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cdp-next-dir-'))
    const created = await createNextServer(
      fakeNext,
      { dev: true, dir },
      { '/rec': { target: backend.url, record: true } },
      { logger: sink },
    )
    try {
      await new Promise<void>((resolve) => created.server.listen(0, '127.0.0.1', resolve))
      const { port } = created.server.address() as AddressInfo
      const res = await fetch(`http://127.0.0.1:${port}/rec/items?n=1`)
      expect(res.status).toBe(200)
      await res.arrayBuffer()
      // A recording is on disk once the proxy has closed.
      await created.proxy.close()
      const folder = join(dir, 'cors-dev-proxy/recordings/rec')
      const [file] = await readdir(folder)
      const recording = JSON.parse(await readFile(join(folder, file ?? ''), 'utf8'))
      expect(recording.request).toMatchObject({ method: 'GET', path: '/items?n=1' })
    } finally {
      created.server.closeAllConnections()
      await new Promise((resolve) => created.server.close(resolve))
      await rm(dir, { recursive: true, force: true })
    }
  })
})
