import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { connect as netConnect } from 'node:net'
import express from 'express'
import { Agent, request } from 'undici'
import { afterEach, describe, expect, it } from 'vitest'
import { createMockBackend, type MockBackend } from '../../../src/stand-ins/mock-backend/mock-backend.js'
import type { MockBackendOptions } from '../../../src/stand-ins/mock-backend/options/echo-backend-options.js'

const servers: Server[] = []
const backends: MockBackend[] = []
afterEach(async () => {
  for (const backend of backends.splice(0)) await backend.close()
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** Runs a backend on its own server (optionally mounted under a prefix, as a connect-style middleware). */
async function serve(options?: MockBackendOptions, mountAt?: string) {
  const backend = createMockBackend(options)
  backends.push(backend)
  const app = express()
  if (mountAt) app.use(mountAt, backend)
  else app.use(backend)
  const server = createServer(app)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { backend, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

describe('createMockBackend as a middleware', () => {
  it('answers every path itself, with the path relative to where it is mounted', async () => {
    const { base } = await serve({}, '/api')
    const res = await fetch(`${base}/api/users/1?a=b`)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ method: 'GET', path: '/users/1', query: { a: 'b' } })
  })

  it('uses ?status= for the echo', async () => {
    const { base } = await serve()
    const res = await fetch(`${base}/x?status=503`)
    expect(res.status).toBe(503)
    expect(await res.json()).toMatchObject({ path: '/x', query: { status: '503' } })
    const empty = await fetch(`${base}/x?status=204`)
    expect(empty.status).toBe(204)
    expect(await empty.text()).toBe('')
  })

  it.each([
    [204, ''],
    [205, ''],
    [304, ''],
    [204, '&callback=cb'],
    [205, '&callback=cb'],
    [304, '&callback=cb'],
  ])('answers ?status=%i%s without content, and the connection stays usable', async (status, extra) => {
    const { base } = await serve()
    const agent = new Agent({ connections: 1 })
    try {
      const res = await request(`${base}/x?status=${status}${extra}`, { dispatcher: agent })
      expect(res.statusCode).toBe(status)
      expect(await res.body.text()).toBe('')
      expect(['0', undefined]).toContain(res.headers['content-length'])
      // The same keep-alive connection serves the next request.
      const next = await request(`${base}/y`, { dispatcher: agent })
      expect(await next.body.json()).toMatchObject({ path: '/y' })
    } finally {
      await agent.close()
    }
  })

  it('answers an unknown switch value 400, naming the switch, with the default mode’s CORS headers', async () => {
    const { base } = await serve({ cors: 'wildcard' })
    const res = await fetch(`${base}/x?cors=sometimes`, { headers: { origin: 'http://localhost:5173' } })
    expect(res.status).toBe(400)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(await res.json()).toEqual({
      switch: 'cors',
      value: 'sometimes',
      allowed: 'off | wildcard | reflect',
      error: 'unknown value "sometimes" for switch "cors": use off | wildcard | reflect',
    })
  })

  it('holds the answer for ?delay=, and answers 503 when closed meanwhile', async () => {
    const { backend, base } = await serve()
    const pending = fetch(`${base}/slow?delay=10000`)
    for (let i = 0; i < 500 && !backend.log.some((e) => e.path === '/slow?delay=10000'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(backend.log.at(-1)).toMatchObject({ path: '/slow?delay=10000', handled: false, status: undefined })
    await backend.close()
    const res = await pending
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({ error: 'the mock backend is closing' })
  })

  it('answers JSONP on GET with a callback, wrapping the echo', async () => {
    const { base } = await serve()
    const res = await fetch(`${base}/data?callback=app.onData&x=1`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    const body = await res.text()
    const prefix = "/**/ typeof app.onData === 'function' && app.onData("
    expect(body.startsWith(prefix)).toBe(true)
    expect(body.endsWith(');')).toBe(true)
    expect(JSON.parse(body.slice(prefix.length, -2))).toMatchObject({ path: '/data', query: { x: '1' } })
  })

  it('uses the configured jsonpParam, and echoes a callback under another name as JSON', async () => {
    const { base } = await serve({ jsonpParam: 'cb' })
    const jsonp = await fetch(`${base}/d?cb=f`)
    expect((await jsonp.text()).startsWith("/**/ typeof f === 'function' && f(")).toBe(true)
    const other = await fetch(`${base}/d?callback=f`)
    expect(other.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await other.json()).toMatchObject({ method: 'GET', query: { callback: 'f' } })
  })

  it.each(['POST', 'PUT', 'DELETE', 'HEAD'])(
    'answers a %s carrying the callback parameter 405 with Allow: GET, as a jsonp route does',
    async (method) => {
      const { backend, base } = await serve({ jsonpParam: 'cb' })
      const body = method === 'POST' || method === 'PUT' ? 'x' : undefined
      const res = await fetch(`${base}/d?cb=f`, { method, body })
      expect(res.status).toBe(405)
      expect(res.headers.get('allow')).toBe('GET')
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
      if (method !== 'HEAD') expect(await res.json()).toMatchObject({ param: 'cb' })
      else await res.arrayBuffer()
      expect(backend.log.at(-1)).toMatchObject({ method, status: 405, handled: true })
      // Without the parameter the same request is echoed.
      const echoed = await fetch(`${base}/d`, { method, body })
      expect(echoed.status).toBe(200)
      await echoed.arrayBuffer()
    },
  )

  it.each(['alert(1)//', '1abc', 'a..b', 'x'.repeat(129), ''])(
    'refuses the callback name %j with 400 JSON, never reflecting it',
    async (name) => {
      const { base } = await serve()
      const res = await fetch(`${base}/d?callback=${encodeURIComponent(name)}`)
      expect(res.status).toBe(400)
      expect(res.headers.get('content-type')).toContain('application/json')
      const body = await res.text()
      expect(JSON.parse(body)).toHaveProperty('error')
      if (name !== '') expect(body).not.toContain(name)
    },
  )

  it('logs every request with its outcome and keeps only the last logLimit', async () => {
    const { backend, base } = await serve({ logLimit: 2 })
    await (await fetch(`${base}/one`, { headers: { origin: 'http://a.test' } })).text()
    await (await fetch(`${base}/two?status=404`)).text()
    await (await fetch(`${base}/three?cors=bad`)).text()
    expect(backend.log.map((e) => [e.id, e.path, e.status, e.handled])).toEqual([
      [2, '/two?status=404', 404, true],
      [3, '/three?cors=bad', 400, true],
    ])
    expect(backend.log[0]).toMatchObject({
      method: 'GET',
      origin: null,
      preflight: false,
      protocol: 'http/1.1',
    })
    expect(backend.log[0]?.responseHeaders?.['content-type']).toBe('application/json; charset=utf-8')
  })

  it('answers a request target that is not a path 400 instead of throwing', async () => {
    const { base } = await serve()
    const { port } = new URL(base)
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = netConnect(Number(port), '127.0.0.1', () => {
        socket.end(
          'GET http://elsewhere.example/x HTTP/1.1\r\nHost: elsewhere.example\r\nConnection: close\r\n\r\n',
        )
      })
      let text = ''
      socket.on('data', (chunk) => {
        text += String(chunk)
      })
      socket.on('end', () => resolve(text))
      socket.on('error', reject)
    })
    expect(reply.startsWith('HTTP/1.1 400')).toBe(true)
    expect(reply).toContain('serves paths only')
  })
})
