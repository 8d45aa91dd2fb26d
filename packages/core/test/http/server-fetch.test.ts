// Server-side code (SSR loaders, API handlers) reaches the same routes as the page: the adapter
// publishes where its server listens, and `serverFetch('/api/…')` goes there. A plain
// `fetch('/api/…')` on the server is explained once in the proxy's log.
import { createServer, type Server } from 'node:http'
import { createSecureServer } from 'node:http2'
import { afterEach, describe, expect, it } from 'vitest'
import { captureLogSink, listen, type StartedServer } from '../../../../test/support/servers.js'
import { localhostCertificate } from '../../../../test/support/tls.js'
import {
  createDevServerProxy,
  type DevServerHost,
  publishServerUrl,
  resolveOptions,
} from '../../src/adapter.js'
import { type Routes, SERVER_URL_VARIABLE, serverFetch, serverUrl } from '../../src/index.js'

const cleanup: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** A target that answers its method, path and body as JSON. */
async function echoTarget(): Promise<StartedServer<Server>> {
  const target = await listen(
    createServer((req, res) => {
      let body = ''
      req.setEncoding('utf8')
      req.on('data', (chunk: string) => (body += chunk))
      req.on('end', () => {
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ method: req.method, url: req.url, body, marker: req.headers['x-route'] }))
      })
    }),
  )
  cleanup.push(target.close)
  return target
}

/** A dev server as an adapter sets it up: `createDevServerProxy` with its server. */
async function devServer(routes: Routes, tls = false, host: Partial<DevServerHost> = {}) {
  const sink = captureLogSink()
  const resolved = resolveOptions(routes, { logger: sink })
  const certificate = tls ? await localhostCertificate() : undefined
  const server =
    certificate === undefined ? createServer() : createSecureServer({ ...certificate, allowHTTP1: true })
  const proxy = createDevServerProxy(resolved, { ...host, server })
  server.on('request', (req, res) => proxy.middleware(req, res, () => res.writeHead(404).end()))
  const started = await listen(server, tls ? 'https' : 'http')
  cleanup.push(async () => {
    await proxy.close()
    await started.close()
  })
  return { started, proxy, sink }
}

describe('serverFetch', () => {
  it('sends a relative URL through the dev server: target, prefix removal and headers of the route', async () => {
    const target = await echoTarget()
    const { started } = await devServer({ '/api': { target: target.url, headers: { 'x-route': 'api' } } })
    expect(process.env[SERVER_URL_VARIABLE]).toBe(started.url)
    const res = await serverFetch('/api/items?page=2', { method: 'POST', body: '{"a":1}' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ method: 'POST', url: '/items?page=2', body: '{"a":1}', marker: 'api' })
  })

  it('accepts the dev server’s own self-signed certificate over HTTPS', async () => {
    const target = await echoTarget()
    const { started } = await devServer({ '/api': target.url }, true)
    expect(process.env[SERVER_URL_VARIABLE]).toBe(started.url)
    const res = await serverFetch('/api/secure')
    expect(await res.json()).toMatchObject({ url: '/secure' })
  })

  it('answers mock routes as the page gets them', async () => {
    await devServer({ '/mock': { mock: true } })
    const res = await serverFetch('/mock/hello?x=1')
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ method: 'GET', path: '/hello' })
  })

  it('passes absolute URLs to fetch unchanged', async () => {
    const target = await echoTarget()
    const res = await serverFetch(`${target.url}/direct`)
    expect(await res.json()).toMatchObject({ url: '/direct' })
  })

  it('says what to do when no dev server published its URL', () => {
    const saved = process.env[SERVER_URL_VARIABLE]
    delete process.env[SERVER_URL_VARIABLE]
    cleanup.push(async () => {
      if (saved !== undefined) process.env[SERVER_URL_VARIABLE] = saved
    })
    expect(() => serverUrl('/api/items')).toThrow(TypeError)
    expect(() => serverUrl('/api/items')).toThrow(/CORS_DEV_PROXY_URL=http:\/\/127\.0\.0\.1:8080/)
    expect(serverUrl('https://api.example/items')).toBe('https://api.example/items')
  })

  it('publishes a server that listens on every interface at the IPv4 loopback', async () => {
    const server = createServer((_req, res) => res.end('ok'))
    publishServerUrl(server)
    await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve))
    cleanup.push(() => new Promise((resolve) => server.close(resolve)))
    const { port } = server.address() as { port: number }
    expect(process.env[SERVER_URL_VARIABLE]).toBe(`http://127.0.0.1:${port}`)
  })
})

describe('a server-side fetch that misses the proxy', () => {
  it('is explained once per path in the log, and still fails as Node’s fetch does', async () => {
    const target = await echoTarget()
    const { sink } = await devServer({ '/api': target.url })
    for (let i = 0; i < 3; i++) await expect(fetch('/api/items')).rejects.toThrow(TypeError)
    await expect(fetch('/elsewhere')).rejects.toThrow(TypeError)
    const hints = sink.lines.filter((line) => line.message.includes("fetch('/api/items') ran on the server"))
    expect(hints).toHaveLength(1)
    expect(hints[0]?.message).toContain("serverFetch('/api/items')")
    // Without a framework's own way, the hint names serverFetch only (no other framework's).
    expect(hints[0]?.message).toMatch(/in server-side code\.$/)
    expect(sink.text()).not.toContain('SvelteKit')
    expect(sink.text()).not.toContain("fetch('/elsewhere')")
  })

  it('names the framework’s own way beside serverFetch, when the adapter gives one', async () => {
    const target = await echoTarget()
    const { sink } = await devServer({ '/api': target.url }, false, {
      serverFetchAlternative: (path) => `SvelteKit's event.fetch('${path}')`,
    })
    await expect(fetch('/api/items?page=2')).rejects.toThrow(TypeError)
    expect(sink.lines.map((line) => line.message)).toContainEqual(
      expect.stringMatching(
        /Use serverFetch\('\/api\/items\?page=2'\) from '@cors-dev-proxy\/core' in server-side code \(SvelteKit's event\.fetch\('\/api\/items\?page=2'\) works too\)\.$/,
      ),
    )
  })

  it('leaves fetch as it was once the last proxy closes', async () => {
    const before = globalThis.fetch
    const target = await echoTarget()
    const { proxy } = await devServer({ '/api': target.url })
    expect(globalThis.fetch).not.toBe(before)
    await proxy.close()
    expect(globalThis.fetch).toBe(before)
  })
})
