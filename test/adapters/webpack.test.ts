import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type webpack from 'webpack'
import { localhostCertificate } from '../support/tls.js'
import type { DevServerHandle } from './adapter-harness.js'
import { webSocketUrl } from './adapter-harness.js'
import { describeAdapter } from './adapter-suite.js'
import { closeWebSocket, open, openWebSocket, readStream, send } from './clients.js'
import { type EchoBody, startTargetServer, type TargetServer } from './target-server.js'
import { startWebpackDevServer, WDS_ALIAS, webpackHarness } from './webpack-server.js'

describeAdapter(webpackHarness)

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
    } finally {
      await closeWebSocket(hmr.socket)
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

const DIST = fileURLToPath(new URL('../../packages/webpack/dist/index.js', import.meta.url))
const SERVE = fileURLToPath(new URL('../fixtures/serve-webpack-config.mjs', import.meta.url))

describe.each(['webpack.config.cjs', 'webpack.config.mjs'])(
  `${webpackHarness.name}: %s loading the built package`,
  (configName) => {
    let target: TargetServer
    let child: ChildProcess | undefined
    let output: string

    beforeAll(async () => {
      if (!existsSync(DIST))
        throw new Error('packages/webpack/dist is missing: run `npx tsc -b packages/webpack` first')
      target = await startTargetServer()
      output = await mkdtemp(join(tmpdir(), 'cdp-webpack-config-'))
    })
    afterAll(async () => {
      if (child && child.exitCode === null) {
        const exited = once(child, 'exit')
        child.stdin?.end()
        await exited
      }
      await target?.close()
      await rm(output, { recursive: true, force: true })
    })

    it('proxies with the prefix removed and forwards preflights', async () => {
      const config = fileURLToPath(new URL(`../fixtures/${configName}`, import.meta.url))
      child = spawn(process.execPath, [SERVE, config, WDS_ALIAS], {
        env: { ...process.env, CDP_TARGET: target.url, CDP_OUTPUT: output },
        stdio: ['pipe', 'pipe', 'pipe'],
      })
      let stderr = ''
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString()
      })
      let listening = false
      const exited = once(child, 'exit').then(([code]) => {
        if (!listening) throw new Error(`the dev server exited (${code}) before listening:\n${stderr}`)
      })
      const [line] = (await Promise.race([
        once(createInterface({ input: child.stdout! }), 'line'),
        exited,
      ])) as [string]
      listening = true
      const { port, node } = JSON.parse(line) as { port: number; node: string }
      expect(node).toBe(process.version)

      const res = await send(`http://127.0.0.1:${port}/api/users?x=1`)
      expect((JSON.parse(res.body) as EchoBody).url).toBe('/users?x=1')
      const preflight = await send(`http://127.0.0.1:${port}/api/users`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:8080', 'access-control-request-method': 'PUT' },
      })
      expect(preflight.headers['x-answered-by']).toBe('target')
      expect(stderr).toContain(`routes: /api → ${target.url}`)
    })
  },
)
