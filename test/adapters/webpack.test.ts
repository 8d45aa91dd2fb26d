import { createServer } from 'node:http'
import { CorsDevProxyError } from '@cors-dev-proxy/core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type webpack from 'webpack'
import { listen } from '../support/servers.js'
import { localhostCertificate } from '../support/tls.js'
import type { DevServerHandle } from './adapter-harness.js'
import { webSocketUrl } from './adapter-harness.js'
import { describeAdapter } from './adapter-suite.js'
import { closeWebSocket, open, openWebSocket, readStream, send } from './clients.js'
import { describeHooks } from './hooks-suite.js'
import { type EchoBody, startTargetServer, type TargetServer } from './target-server.js'
import { webpackConfigHarness } from './webpack-config-server.js'
import { startWebpackDevServer, webpackHarness } from './webpack-server.js'

describeAdapter(webpackHarness)
describeHooks(webpackHarness)

/** A webpack plugin that keeps the first build running until released. */
function holdBuild(): {
  plugin: webpack.WebpackPluginInstance
  started: Promise<void>
  release(): void
  done(): boolean
} {
  let release = () => {}
  let markStarted = () => {}
  let finished = false
  const gate = new Promise<void>((resolve) => (release = resolve))
  const started = new Promise<void>((resolve) => (markStarted = resolve))
  return {
    plugin: {
      apply(compiler) {
        compiler.hooks.make.tapPromise('hold-build', () => {
          markStarted()
          return gate
        })
        compiler.hooks.done.tap('hold-build', () => {
          finished = true
        })
      },
    },
    started,
    release,
    done: () => finished,
  }
}

describe(`${webpackHarness.name}: placement among webpack-dev-server's middlewares`, () => {
  let target: TargetServer
  let server: DevServerHandle | undefined

  beforeAll(async () => {
    target = await startTargetServer()
  })
  afterEach(async () => {
    await server?.close()
    server = undefined
  })
  afterAll(async () => {
    await target?.close()
  })

  it('answers proxied requests while a build is still running', async () => {
    const build = holdBuild()
    server = await startWebpackDevServer({ routes: { '/api': target.url }, plugins: [build.plugin] })
    await build.started
    try {
      const res = await send(`${server.origin}/api/during-build`)
      expect(res.status).toBe(200)
      expect((JSON.parse(res.body) as EchoBody).url).toBe('/during-build')
      expect(build.done()).toBe(false)
    } finally {
      build.release()
    }
  })

  it('streams server-sent events past the compression the dev server applies to its own files', async () => {
    server = await startWebpackDevServer({ routes: { '/stream': target.url } })
    // Compression is on (the default) for what the dev server itself serves...
    const bundle = await send(`${server.origin}/main.js`, { headers: { 'accept-encoding': 'gzip' } })
    expect(bundle.headers['content-encoding']).toBe('gzip')

    // ...yet event 1 arrives while the target still holds event 2 back.
    const events = await open(`${server.origin}/stream/events`, {
      headers: { accept: 'text/event-stream', 'accept-encoding': 'gzip' },
    })
    const reader = readStream(events)
    expect(await reader.until('data: one')).not.toContain('data: two')
    target.releaseEvents()
    expect(await reader.rest()).toContain('data: two')
  })

  it("answers the routes before Express and its compression, after the dev server's Host and cross-origin checks", async () => {
    server = await startWebpackDevServer({ routes: { '/api': target.url } })
    const gzip = { 'accept-encoding': 'gzip' }
    const proxied = await send(`${server.origin}/api/early`, { headers: gzip })
    expect(proxied.headers['x-answered-by']).toBe('target')
    // As the target sent it: neither compressed nor dressed by Express...
    expect(proxied.headers['content-encoding']).toBeUndefined()
    expect(proxied.headers['x-powered-by']).toBeUndefined()
    // ...with the header the cross-origin check adds.
    expect(proxied.headers['cross-origin-resource-policy']).toBe('same-origin')
    const bundle = await send(`${server.origin}/main.js`, { headers: gzip })
    expect(bundle.headers['content-encoding']).toBe('gzip')
    expect(bundle.headers['x-powered-by']).toBe('Express')

    // The checks still refuse, with their own answers, and nothing reaches the target.
    const before = target.requests.length
    const rebinding = await send(`${server.origin}/api/x`, { headers: { host: 'evil.example' } })
    expect(rebinding).toMatchObject({ status: 403, body: 'Invalid Host header' })
    const noCors = await send(`${server.origin}/api/x`, {
      headers: { 'sec-fetch-mode': 'no-cors', 'sec-fetch-site': 'cross-site' },
    })
    expect(noCors).toMatchObject({ status: 403, body: 'Cross-Origin request blocked' })
    expect(target.requests.length).toBe(before)
  })

  it('keeps a middleware of yours listed before the proxy in front of its routes', async () => {
    server = await startWebpackDevServer({
      routes: { '/api': target.url },
      options: {
        setupMiddlewares(middlewares) {
          middlewares.unshift({
            name: 'mine',
            middleware: (req: { headers: Record<string, string> }, _res: unknown, next: () => void) => {
              req.headers['x-mine'] = 'seen'
              next()
            },
          })
          return middlewares
        },
      },
    })
    const res = await send(`${server.origin}/api/x`)
    expect((JSON.parse(res.body) as EchoBody).headers['x-mine']).toBe('seen')
    // Inside the app, after yours: Express dressed the answer.
    expect(res.headers['x-powered-by']).toBe('Express')
  })

  it('composes with a setupMiddlewares of your own', async () => {
    let seen: string[] = []
    server = await startWebpackDevServer({
      routes: { '/api': target.url },
      options: {
        setupMiddlewares(middlewares) {
          seen = middlewares.map((entry) => (typeof entry === 'function' ? '' : (entry.name ?? '')))
          middlewares.push({
            name: 'mine',
            path: '/mine',
            middleware: (_req: unknown, res: { end(body: string): void }) => res.end('mine'),
          })
          return middlewares
        },
      },
    })
    expect((await send(`${server.origin}/mine`)).body).toBe('mine')
    expect((await send(`${server.origin}/api/x`)).headers['x-answered-by']).toBe('target')
    const own = seen.indexOf('cors-dev-proxy')
    expect(own).toBeGreaterThan(seen.indexOf('host-header-check'))
    expect(own).toBeLessThan(seen.indexOf('compression'))
    expect(own).toBeLessThan(seen.indexOf('webpack-dev-middleware'))
  })

  it("leaves webpack-dev-server's HMR socket alone even when a ws route covers /", async () => {
    server = await startWebpackDevServer({ routes: { '/': { target: target.url, ws: true } } })
    const before = target.upgrades.length
    const hmr = await openWebSocket(webSocketUrl(server, '/ws'), { origin: server.origin })
    const proxied = await openWebSocket(webSocketUrl(server, '/live'), { origin: server.origin })
    try {
      expect(JSON.parse(hmr.first)).toHaveProperty('type')
      expect(JSON.parse(proxied.first)).toMatchObject({ url: '/live' })
      expect(target.upgrades.slice(before)).toEqual(['/live'])
      // A route on / only gives up the HMR path: nothing to warn about.
      expect(server.logs.filter((line) => line.includes("webpack-dev-server's own socket"))).toEqual([])
    } finally {
      await closeWebSocket(hmr.socket)
      await closeWebSocket(proxied.socket)
    }
  })

  it("warns about a ws route under the dev server's own socket path, and forwards it once that path moves", async () => {
    const shadowWarnings = (handle: DevServerHandle) =>
      handle.logs.filter((line) => line.startsWith('warn:') && line.includes("the ws route '/ws'"))
    server = await startWebpackDevServer({ routes: { '/ws': { target: target.url, ws: true } } })
    expect(shadowWarnings(server)).toEqual([expect.stringContaining('webSocketServer: {')])
    await server.close()
    server = undefined
    server = await startWebpackDevServer({
      routes: { '/ws': { target: target.url, ws: true } },
      devServer: { webSocketServer: { type: 'ws', options: { path: '/hmr' } } },
    })
    expect(shadowWarnings(server)).toEqual([])
    const proxied = await openWebSocket(webSocketUrl(server, '/ws/chat'), { origin: server.origin })
    try {
      expect(JSON.parse(proxied.first)).toMatchObject({ url: '/chat' })
    } finally {
      await closeWebSocket(proxied.socket)
    }
  })

  it("refuses a ws route's upgrade whose Host the dev server does not allow", async () => {
    server = await startWebpackDevServer({ routes: { '/live': { target: target.url, ws: true } } })
    const refused = openWebSocket(webSocketUrl(server, '/live'), {
      origin: server.origin,
      headers: { host: 'evil.example' },
    })
    await expect(refused).rejects.toThrow(/403/)
  })

  it("works with server: 'https'", async () => {
    const tls = await localhostCertificate()
    server = await startWebpackDevServer({ routes: { '/api': target.url }, tls, tlsType: 'https' })
    const res = await send(`${server.origin}/api/secure`, { ca: tls.cert })
    expect(res.status).toBe(200)
    expect((JSON.parse(res.body) as EchoBody).headers['x-forwarded-proto']).toBe('https')
  })
})

describe(`${webpackHarness.name}: mistakes in devServer caught at start`, () => {
  let target: TargetServer
  let server: DevServerHandle | undefined

  beforeAll(async () => {
    target = await startTargetServer()
  })
  afterEach(async () => {
    await server?.close()
    server = undefined
  })
  afterAll(async () => {
    await target?.close()
  })

  /** The error a replaced setupMiddlewares gets, once the dev server listens. */
  const replacedSetupErrors = (handle: DevServerHandle) =>
    handle.logs.filter((line) => line.startsWith('error:') && line.includes('nothing is proxied'))

  it('reports a setupMiddlewares written after the spread once the dev server listens, with the fix', async () => {
    server = await startWebpackDevServer({
      routes: { '/api': target.url },
      afterSpread: () => ({ setupMiddlewares: (middlewares: unknown[]) => middlewares }),
    })
    expect(replacedSetupErrors(server)).toEqual([
      expect.stringContaining(
        "[cors-dev-proxy] nothing is proxied: a setupMiddlewares written after ...corsDevProxy() in devServer replaced cors-dev-proxy's, " +
          "so requests to '/api' get the dev server's own answer (a 404). Pass yours to cors-dev-proxy instead, " +
          'which calls it with the list that holds the proxy: devServer: { ...corsDevProxy(routes, { setupMiddlewares }) }.',
      ),
    ])
    // What the error is about: the route is dead, and no startup line claimed otherwise.
    expect((await send(`${server.origin}/api/x`)).status).toBe(404)
    expect(server.logs.filter((line) => line.includes('[cors-dev-proxy] routes:'))).toEqual([])
  })

  it('says nothing when your setupMiddlewares calls its own, start after start', async () => {
    let ran = 0
    const handle = await startWebpackDevServer({
      routes: { '/api': target.url },
      afterSpread: (proxy) => ({
        setupMiddlewares: (
          middlewares: unknown[],
          devServer: Parameters<typeof proxy.setupMiddlewares>[1],
        ) => {
          ran += 1
          return proxy.setupMiddlewares(middlewares, devServer)
        },
      }),
    })
    server = handle
    expect((await send(`${handle.origin}/api/first`)).headers['x-answered-by']).toBe('target')
    const origin = await handle.restart()
    expect((await send(`${origin}/api/second`)).headers['x-answered-by']).toBe('target')
    expect(ran).toBe(2)
    expect(replacedSetupErrors(handle)).toEqual([])
  })

  it('calls your onListening, passed as an option, once per start with the dev server', async () => {
    const seen: unknown[] = []
    const handle = await startWebpackDevServer({
      routes: { '/api': target.url },
      options: { onListening: (devServer) => void seen.push(devServer.server?.listening) },
    })
    server = handle
    await handle.restart()
    expect(seen).toEqual([true, true])
    expect(replacedSetupErrors(handle)).toEqual([])
  })

  it('warns about each devServer.proxy entry a route shadows, and leaves the others working', async () => {
    // The entries' own backend: a bare server that says who answered and which path it got.
    const other = await listen(
      createServer((req, res) => res.end(JSON.stringify({ by: 'devServer.proxy', url: req.url }))),
    )
    try {
      server = await startWebpackDevServer({
        routes: { '/api': target.url },
        devServer: {
          proxy: [
            { context: ['/auth', '/api/v1'], target: other.url },
            { context: '/api2', target: other.url },
            { context: (path: string) => path.startsWith('/fn'), target: other.url },
          ],
        },
      })
      const conflicts = server.logs.filter(
        (line) => line.startsWith('warn:') && line.includes('devServer.proxy'),
      )
      expect(conflicts).toEqual([
        expect.stringContaining(
          "[cors-dev-proxy] devServer.proxy[0] (context '/api/v1') and the cors-dev-proxy route '/api' claim the " +
            'same requests: cors-dev-proxy answers them first, so devServer.proxy[0] never sees them.',
        ),
      ])
      const answer = async (path: string) =>
        JSON.parse((await send(`${server!.origin}${path}`)).body) as unknown
      // The shadowed path reaches the route's target (prefix removed); the others, the entries' backend.
      expect(await answer('/api/v1/users')).toMatchObject({ url: '/v1/users', headers: expect.any(Object) })
      expect(await answer('/auth/login')).toEqual({ by: 'devServer.proxy', url: '/auth/login' })
      expect(await answer('/api2/x')).toEqual({ by: 'devServer.proxy', url: '/api2/x' })
      expect(await answer('/fn/x')).toEqual({ by: 'devServer.proxy', url: '/fn/x' })
    } finally {
      await other.close()
    }
  })

  it("refuses server: 'http2' on the default Express: start() rejects with the fix", async () => {
    const tls = await localhostCertificate()
    const started = startWebpackDevServer({ routes: { '/api': target.url }, tls, http2App: 'express' })
    const error = await started.then(
      () => undefined,
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(CorsDevProxyError)
    expect(error).toMatchObject({ code: 'CONFLICTING_OPTIONS', option: 'devServer.app' })
    expect((error as Error).message).toContain("app: () => require('connect')()")
  })
})

// The whole suite again, with webpack-dev-server started from a CommonJS config that require()s
// the built package and from an ESM config that imports it, each in a Node of its own.
describeAdapter(webpackConfigHarness('webpack.config.cjs'))
describeAdapter(webpackConfigHarness('webpack.config.mjs'))
