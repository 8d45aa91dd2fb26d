import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Duplex } from 'node:stream'
import {
  CorsDevProxyError,
  type LogSink,
  type RunningMockBackend,
  startMockBackend,
} from '@cors-dev-proxy/core'
import { runWithNuxtContext } from '@nuxt/kit'
import type { Nuxt } from '@nuxt/schema'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { listen, type StartedServer } from '../../../test/support/servers.js'
import { corsDevProxyModule } from '../src/module.js'

type Hook = (...args: never[]) => unknown

/** A logger that keeps nothing, for cases that read no log line. */
const silentSink: LogSink = { info() {}, warn() {}, error() {} }

/** The parts of a Nuxt instance the module and @nuxt/kit's `defineNuxtModule` use. */
function fakeNuxt(options: Record<string, unknown>) {
  const hooks = new Map<string, Hook[]>()
  return {
    _version: '4.5.2',
    options: {
      dev: true,
      app: { baseURL: '/', buildAssetsDir: '/_nuxt/' },
      devServer: { https: false },
      vite: { server: { allowedHosts: ['127.0.0.1'] } },
      experimental: {},
      nitro: {} as { plugins?: string[]; virtual?: Record<string, () => string> },
      ...options,
    },
    hooks: { addHooks() {} },
    hook(name: string, hook: Hook) {
      hooks.set(name, [...(hooks.get(name) ?? []), hook])
    },
    hooked: (name: string) => hooks.get(name)?.length ?? 0,
    async callHook(name: string, ...args: unknown[]) {
      for (const hook of hooks.get(name) ?? []) await (hook as (...args: unknown[]) => unknown)(...args)
    },
  }
}

/** Installs the module as Nuxt does, with the Nuxt instance in @nuxt/kit's context. */
function install(nuxt: ReturnType<typeof fakeNuxt>): Promise<unknown> {
  return runWithNuxtContext(nuxt as unknown as Nuxt, async () =>
    corsDevProxyModule(undefined as never, nuxt as unknown as Nuxt),
  )
}

/** What `nuxi dev` puts on listhen's server before the `listen` hook runs. */
interface NuxiLike {
  started: StartedServer<Server>
  /** Upgrades Nuxt's own listener got (it hands them to Nitro's worker). */
  nitroUpgrades: string[]
  /** Throws of the http-shutdown-like `finish` handler, which would kill `nuxt dev`. */
  finishThrows: string[]
}

/**
 * listhen's server as `nuxi dev` leaves it: `createServer(app)` (the app answers as Nuxt would,
 * here with `servedBy: 'nuxt'`), http-shutdown's request listener after it, which reads
 * `req.socket` when the answer finishes, and nuxi's upgrade listener, which takes every upgrade
 * outside Vite's `/_nuxt/` for Nitro.
 */
async function startNuxiLike(): Promise<NuxiLike> {
  const nitroUpgrades: string[] = []
  const finishThrows: string[] = []
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume()
    req.on('end', () => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ servedBy: 'nuxt', url: req.url }))
    })
  })
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    ;(req.socket as Socket & { _isIdle?: boolean })._isIdle = false
    res.on('finish', () => {
      try {
        ;(req.socket as Socket & { _isIdle?: boolean })._isIdle = true
      } catch (error) {
        finishThrows.push((error as Error).message)
      }
    })
  })
  server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    if (req.url?.startsWith('/_nuxt/')) return
    nitroUpgrades.push(req.url ?? '')
    socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n')
  })
  return { started: await listen(server), nitroUpgrades, finishThrows }
}

interface Answer {
  status: number
  body: string
}

function send(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        body += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end(init.body)
  })
}

function echoOverWebSocket(url: string, protocol?: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, protocol)
    socket.on('open', () => socket.send('hello'))
    socket.on('message', (data) => {
      resolve(`echo ${String(data)}`)
      socket.close()
    })
    socket.on('unexpected-response', (_req, res) => resolve(`status ${res.statusCode}`))
    socket.on('error', (error) => resolve(`error ${error.message}`))
  })
}

describe('the module in nuxt dev (a listhen-like listener, as nuxi dev leaves it)', () => {
  let backend: RunningMockBackend
  let nuxi: NuxiLike
  let nuxt: ReturnType<typeof fakeNuxt>
  let lines: string[]
  const previousUrl = process.env.CORS_DEV_PROXY_URL

  beforeEach(async () => {
    backend = await startMockBackend()
    nuxi = await startNuxiLike()
    lines = []
    const logger: LogSink = {
      info: (line) => lines.push(line),
      warn: (line) => lines.push(line),
      error: (line) => lines.push(line),
    }
    nuxt = fakeNuxt({
      corsDevProxy: {
        routes: { '/api': backend.origin, '/': { target: backend.origin, ws: true } },
        logger,
      },
    })
    await install(nuxt)
    await nuxt.callHook('listen', nuxi.started.server, { https: false })
  })

  afterEach(async () => {
    await nuxt.callHook('close', nuxt)
    await Promise.all([nuxi.started.close(), backend.close()])
    if (previousUrl === undefined) delete process.env.CORS_DEV_PROXY_URL
    else process.env.CORS_DEV_PROXY_URL = previousUrl
  })

  it("serves the routes before Nuxt's app, POST bodies included, and the listener's finish handler finds req.socket", async () => {
    const base = nuxi.started.url
    const get = await send(`${base}/api/items?page=2`)
    expect(JSON.parse(get.body)).toMatchObject({ method: 'GET', path: '/items', query: { page: '2' } })
    const post = await send(`${base}/api/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"x"}',
    })
    expect(JSON.parse(post.body)).toMatchObject({ method: 'POST', body: { name: 'x' } })
    expect(nuxi.finishThrows).toEqual([])
    expect(lines.filter((line) => line.includes('routes:'))).toHaveLength(1)
  })

  it('forwards a preflight to the backend instead of answering it', async () => {
    const answer = await send(`${nuxi.started.url}/api/items`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT' },
    })
    expect(answer.status).toBe(204)
    expect(backend.log.filter((entry) => entry.preflight).map((entry) => entry.path)).toEqual(['/items'])
  })

  it("applies Vite's allowedHosts check before the routes", async () => {
    const answer = await send(`${nuxi.started.url}/api/items`, { headers: { host: 'evil.example' } })
    expect(answer.status).toBe(403)
    expect(answer.body).toContain('add "evil.example" to `vite.server.allowedHosts` in nuxt.config')
    expect(backend.log).toEqual([])
  })

  it('forwards WebSockets of ws routes ahead of the listener that hands upgrades to Nitro', async () => {
    const url = `ws://127.0.0.1:${nuxi.started.port}/ws`
    expect(await echoOverWebSocket(url)).toBe('echo hello')
    expect(nuxi.nitroUpgrades).toEqual([])
  })

  it("leaves Vite's HMR socket to the listeners that were there, whatever route covers /", async () => {
    const hmr: string[] = []
    // Vite's HMR server attaches itself to the listener after `listen`, and sees every upgrade.
    nuxi.started.server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
      if (req.headers['sec-websocket-protocol'] !== 'vite-hmr') return
      hmr.push(req.url ?? '')
      socket.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n')
    })
    await echoOverWebSocket(`ws://127.0.0.1:${nuxi.started.port}/_nuxt/`, 'vite-hmr')
    expect(hmr).toEqual(['/_nuxt/'])
    expect(backend.log).toEqual([])
  })

  it("adds, for Nitro's worker, the plugin that explains a server-side $fetch that missed the proxy", async () => {
    const { plugins = [], virtual = {} } = nuxt.options.nitro
    expect(plugins).toEqual([expect.stringMatching(/\/runtime\/missed-fetch-plugin$/)])
    const template = virtual['#cors-dev-proxy/missed-fetch-routes']?.() ?? ''
    const { routes } = await import(`data:text/javascript,${encodeURIComponent(template)}`)
    expect(routes.map((route: { prefix: string }) => route.prefix)).toEqual(['/api', '/'])
  })

  it("publishes the listener's URL for serverFetch before Nitro's worker starts", () => {
    expect(process.env.CORS_DEV_PROXY_URL).toBe(nuxi.started.url)
  })

  it("puts Nuxt's own listeners back when this Nuxt instance closes", async () => {
    await nuxt.callHook('close', nuxt)
    const answer = await send(`${nuxi.started.url}/api/items`)
    expect(JSON.parse(answer.body)).toEqual({ servedBy: 'nuxt', url: '/api/items' })
    expect(nuxi.started.server.listenerCount('request')).toBe(2)
    expect(await echoOverWebSocket(`ws://127.0.0.1:${nuxi.started.port}/ws`)).toBe('status 404')
    expect(nuxi.nitroUpgrades).toEqual(['/ws'])
  })
})

describe("the module's recordings", () => {
  it("writes a record: true route's recordings under Nuxt's rootDir, not the working directory", async () => {
    const rootDir = await mkdtemp(join(tmpdir(), 'cdp-nuxt-root-'))
    const backend = await startMockBackend()
    const nuxi = await startNuxiLike()
    const nuxt = fakeNuxt({
      rootDir,
      corsDevProxy: { routes: { '/rec': { target: backend.origin, record: true } }, logger: silentSink },
    })
    try {
      await install(nuxt)
      await nuxt.callHook('listen', nuxi.started.server, { https: false })
      expect((await send(`${nuxi.started.url}/rec/items?n=1`)).status).toBe(200)
      // A recording is on disk once the proxy has closed.
      await nuxt.callHook('close', nuxt)
      const folder = join(rootDir, 'cors-dev-proxy/recordings/rec')
      const [file] = await readdir(folder)
      const recording = JSON.parse(await readFile(join(folder, file ?? ''), 'utf8'))
      expect(recording.request).toMatchObject({ method: 'GET', path: '/items?n=1' })
    } finally {
      await Promise.all([nuxi.started.close(), backend.close()])
      await rm(rootDir, { recursive: true, force: true })
    }
  })
})

describe('the module outside nuxt dev, and with a mistake', () => {
  it('does nothing in nuxt build: no hook, no proxy', async () => {
    const nuxt = fakeNuxt({ dev: false, corsDevProxy: { '/api': 'http://localhost:3000' } })
    await install(nuxt)
    expect(nuxt.hooked('listen') + nuxt.hooked('vite:serverCreated') + nuxt.hooked('close')).toBe(0)
    expect(nuxt.options.nitro).toEqual({})
  })

  it('adds the overlay client to the head in nuxt dev, not with overlay: false nor in nuxt build', async () => {
    const dev = fakeNuxt({ corsDevProxy: { '/api': 'http://localhost:3000' } })
    await install(dev)
    const head = (dev.options.app as { head?: { script?: unknown[] } }).head
    expect(head?.script).toEqual([{ src: '/__cors-dev-proxy/client.js', type: 'module', tagPriority: -100 }])
    const off = fakeNuxt({ corsDevProxy: { routes: { '/api': 'http://localhost:3000' }, overlay: false } })
    await install(off)
    expect((off.options.app as { head?: unknown }).head).toBeUndefined()
    const build = fakeNuxt({ dev: false, corsDevProxy: { '/api': 'http://localhost:3000' } })
    await install(build)
    expect((build.options.app as { head?: unknown }).head).toBeUndefined()
  })

  it('stops nuxt dev at startup with a CorsDevProxyError naming the option', async () => {
    const nuxt = fakeNuxt({ corsDevProxy: { '/api': { target: 'http://localhost:3000', wss: true } } })
    const failure: unknown = await install(nuxt).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(CorsDevProxyError)
    expect((failure as CorsDevProxyError).option).toBe("routes['/api'].wss")
    // Nuxt prints the stack of what stops it: only the message, no frames of ours or of Nuxt's loader.
    expect((failure as Error).stack).toBe(`CorsDevProxyError: ${(failure as Error).message}`)
    expect(nuxt.hooked('listen')).toBe(0)
  })
})
