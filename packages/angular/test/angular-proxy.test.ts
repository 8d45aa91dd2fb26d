import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { CorsDevProxyError, type CorsDevProxyOptions, type Routes } from '@cors-dev-proxy/core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import {
  closeWebSocket,
  open,
  openWebSocket,
  readStream,
  roundTrip,
  send,
} from '../../../test/adapters/clients.js'
import { closedPort, startTargetServer, type TargetServer } from '../../../test/adapters/target-server.js'
import { angularProxy } from '../src/angular-proxy.js'
import { asAngularLoads, startNgServeVite, type ViteHandle } from './ng-serve-vite.js'

/** The issue's `proxy.conf.json`, with the test backend as target. */
function proxyConfJson(target: string) {
  return { '/api': { target, secure: false, changeOrigin: true, pathRewrite: { '^/api': '' } } }
}

/** `angularProxy` with every log line kept in `logs`. */
function capturedProxy(routes: Routes, logs: string[], options: CorsDevProxyOptions = {}) {
  const logger = {
    info: (line: string) => logs.push(line),
    warn: (line: string) => logs.push(line),
    error: (line: string) => logs.push(line),
  }
  return angularProxy(routes, { ...options, logger })
}

/** A backend that sets a cookie for its own host, beside the shared target. */
async function startCookieBackend(): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, {
      'set-cookie': 'sid=1; Domain=127.0.0.1; Path=/; HttpOnly',
      'content-type': 'text/plain',
    })
    res.end('cookie set')
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

function thrown(action: () => unknown): CorsDevProxyError {
  try {
    action()
  } catch (error) {
    if (error instanceof CorsDevProxyError) return error
    throw error
  }
  throw new Error('expected a CorsDevProxyError')
}

describe('angularProxy: the proxyConfig file', () => {
  it('refuses a misspelt option when ng serve loads the file, naming it', () => {
    const error = thrown(() =>
      angularProxy({ '/api': { target: 'http://localhost:3000', changeOrgin: true } as never }),
    )
    expect(error.code).toBe('UNKNOWN_OPTION')
    expect(error.message).toContain('changeOrgin')
    expect(error.message).toContain('changeOrigin')
  })

  it("refuses proxy.conf.json's logLevel with the option that replaces it", () => {
    const error = thrown(() =>
      angularProxy({ '/api': { target: 'http://localhost:3000', logLevel: 'debug' } as never }),
    )
    expect(error.message).toContain('logLevel')
    expect(error.message).toContain("log: 'debug'")
  })

  it('gives Vite one entry per route, matched on a segment boundary, and one for the inspector', () => {
    const config = angularProxy({
      '/api': 'http://localhost:3000',
      '/socket': { target: 'http://localhost:3001', ws: true },
    })
    const keys = Object.keys(config)
    expect(keys.sort()).toEqual(['^/__cors-dev-proxy(?:[/?]|$)', '^/api(?:[/?]|$)', '^/socket(?:[/?]|$)'])
    const api = /^\/api(?:[/?]|$)/
    expect(['/api', '/api/users', '/api?q=1'].map((url) => api.test(url))).toEqual([true, true, true])
    expect(api.test('/api2')).toBe(false)
    expect(config['^/socket(?:[/?]|$)']?.ws).toBe(true)
    expect(config['^/api(?:[/?]|$)']?.ws).toBe(false)
  })
})

describe('angularProxy: on the Vite 8 server ng serve starts', () => {
  let target: TargetServer
  let cookies: { url: string; server: Server }
  let dev: ViteHandle
  const logs: string[] = []

  beforeAll(async () => {
    target = await startTargetServer()
    cookies = await startCookieBackend()
    dev = await startNgServeVite(
      capturedProxy(
        {
          ...proxyConfJson(target.url),
          '/socket': { target: target.url, ws: true },
          '/cookies': cookies.url,
          '/dead': `http://127.0.0.1:${await closedPort()}`,
        },
        logs,
      ),
    )
  })
  afterAll(async () => {
    await dev.close()
    await target.close()
    cookies.server.close()
  })
  afterEach(() => target.releaseEvents())

  it('forwards a call with the prefix removed and the target as Host, and prints the routes once', async () => {
    const answer = await send(`${dev.origin}/api/users?page=2`)
    expect(answer.status).toBe(200)
    expect(answer.headers['x-answered-by']).toBe('target')
    const echoed = JSON.parse(answer.body) as { url: string; headers: Record<string, string> }
    expect(echoed.url).toBe('/users?page=2')
    expect(echoed.headers.host).toBe(new URL(target.url).host)
    expect(logs.filter((line) => line.includes('/api →'))).toHaveLength(1)
  })

  it('leaves /api2 to ng serve (Vite alone would have proxied it)', async () => {
    const before = target.requests.length
    await send(`${dev.origin}/api2/users`)
    expect(target.requests.length).toBe(before)
  })

  it("forwards a preflight to the backend with the backend's answer, not Vite's cors headers", async () => {
    const answer = await send(`${dev.origin}/api/users`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:4200',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'x-custom',
      },
    })
    expect(answer.headers['x-answered-by']).toBe('target')
    expect(answer.headers['access-control-allow-methods']).toBe('GET, PUT')
  })

  it('points an absolute redirect of the target back at ng serve, with the prefix', async () => {
    const answer = await send(`${dev.origin}/api/redirect/absolute`)
    expect(answer.status).toBe(302)
    expect(answer.headers.location).toBe(`${dev.origin}/api/posts`)
  })

  it("removes a cookie's Domain of the target, so the browser keeps it for ng serve's host", async () => {
    const answer = await send(`${dev.origin}/cookies/login`)
    expect(answer.headers['set-cookie']).toEqual(['sid=1; Path=/; HttpOnly'])
  })

  it('streams server-sent events unbuffered: the first event arrives before the stream ends', async () => {
    const res = await open(`${dev.origin}/api/events`)
    expect(res.headers['content-type']).toBe('text/event-stream')
    const stream = readStream(res)
    expect(await stream.until('data: one')).not.toContain('data: two')
    target.releaseEvents()
    expect(await stream.rest()).toContain('data: two')
  })

  it('forwards a WebSocket of a ws route, both ways, with its path kept as ng serve keeps it', async () => {
    const { socket, first } = await openWebSocket(`${dev.origin.replace('http', 'ws')}/socket/chat`)
    expect((JSON.parse(first) as { url: string }).url).toBe('/socket/chat')
    expect(await roundTrip(socket, 'hello')).toBe('hello')
    await closeWebSocket(socket)
  })

  it('answers a dead backend 502 with a body that names it and the cause, and logs it', async () => {
    const answer = await send(`${dev.origin}/dead/users`)
    expect(answer.status).toBe(502)
    expect(answer.body).toContain('connection refused')
    expect(answer.body).toMatch(/is the server at http:\/\/127\.0\.0\.1:\d+ running\?/)
    expect(logs.some((line) => line.includes('connection refused'))).toBe(true)
  })

  it("serves the overlay's script under /__cors-dev-proxy/", async () => {
    const answer = await send(`${dev.origin}/__cors-dev-proxy/client.js`)
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toContain('javascript')
  })
})

describe('angularProxy: moving the issue’s proxy.conf.json over', () => {
  let target: TargetServer
  beforeAll(async () => {
    target = await startTargetServer()
  })
  afterAll(() => target.close())

  /** What the backend saw and answered for one call through a server. */
  async function through(proxy: unknown) {
    const dev = await startNgServeVite(proxy)
    try {
      const answer = await send(`${dev.origin}/api/users?id=7`, { method: 'PUT', body: 'payload' })
      const echoed = JSON.parse(answer.body) as {
        url: string
        method: string
        body: string
        headers: Record<string, string>
      }
      return {
        status: answer.status,
        url: echoed.url,
        host: echoed.headers.host,
        method: echoed.method,
        body: echoed.body,
      }
    } finally {
      await dev.close()
    }
  }

  it('sends the same upstream path and Host, and gets the same answer, as Angular’s own proxy', async () => {
    const angular = await through(asAngularLoads(proxyConfJson(target.url)))
    const ours = await through(capturedProxy(proxyConfJson(target.url), []))
    expect(angular).toEqual({
      status: 200,
      url: '/users?id=7',
      host: new URL(target.url).host,
      method: 'PUT',
      body: 'payload',
    })
    expect(ours).toEqual(angular)
  })

  it('keeps a redirect of the target on ng serve, where Angular’s own proxy sends the browser to the backend', async () => {
    const locationThrough = async (proxy: unknown) => {
      const dev = await startNgServeVite(proxy)
      try {
        const { location } = (await send(`${dev.origin}/api/redirect/absolute`)).headers
        return { location, origin: dev.origin }
      } finally {
        await dev.close()
      }
    }
    const angular = await locationThrough(asAngularLoads(proxyConfJson(target.url)))
    const ours = await locationThrough(capturedProxy(proxyConfJson(target.url), []))
    expect(angular.location).toBe(`${target.url}/posts`)
    expect(ours.location).toBe(`${ours.origin}/api/posts`)
  })
})

describe('angularProxy: what ng serve keeps', () => {
  let target: TargetServer
  let dev: ViteHandle
  beforeAll(async () => {
    target = await startTargetServer()
    dev = await startNgServeVite(
      capturedProxy(
        {
          '/api': { target: target.url, pathFilter: (path: string) => !path.startsWith('/api/own') },
          '/': { target: target.url, ws: true },
        },
        [],
      ),
    )
  })
  afterAll(async () => {
    await dev.close()
    await target.close()
  })

  it('hands a request its route passes on to ng serve, which answers it', async () => {
    const before = target.requests.length
    const answer = await send(`${dev.origin}/api/own/file.js`)
    expect(answer.status).toBe(404)
    expect(target.requests.length).toBe(before)
    expect((await send(`${dev.origin}/api/items`)).headers['x-answered-by']).toBe('target')
  })

  it("leaves Vite's HMR socket alone under a ws route on '/'", async () => {
    const socket = new WebSocket(`${dev.origin.replace('http', 'ws')}/`, ['vite-hmr'])
    socket.on('error', () => {})
    await Promise.race([once(socket, 'open'), once(socket, 'close')])
    socket.terminate()
    expect(target.upgrades).toEqual([])
    const { socket: proxied } = await openWebSocket(`${dev.origin.replace('http', 'ws')}/chat`)
    expect(target.upgrades).toEqual(['/chat'])
    await closeWebSocket(proxied)
  })
})
