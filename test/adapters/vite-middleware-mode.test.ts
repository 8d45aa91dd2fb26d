// Vite in middleware mode, the custom SSR server on Express: the plugin's HTTP routes are in
// `vite.middlewares`, and WebSocket upgrades reach it through one documented call on the user's
// server, `attachCorsDevProxy(vite, server)`, or by themselves when the server is Vite's
// `server.hmr.server`. Vite's own HMR socket on that server is left alone. Runs once per Vite
// version of the matrix (test/matrix/run-matrix.mjs).

import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer as createHttpServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CorsDevProxyError, type Routes, serverFetch } from '@cors-dev-proxy/core'
import { attachCorsDevProxy, corsDevProxy } from '@cors-dev-proxy/vite'
import express from 'express'
import type { Logger, ViteDevServer } from 'vite8'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { closeWebSocket, openWebSocket, roundTrip, send } from './clients.js'
import { startTargetServer, type TargetServer } from './target-server.js'
import { vite } from './vite-server.js'

let target: TargetServer
let root: string
const cleanup: Array<() => Promise<unknown>> = []

beforeAll(async () => {
  target = await startTargetServer()
  root = await mkdtemp(join(tmpdir(), 'cdp-vite-mw-'))
  await writeFile(join(root, 'index.html'), '<!doctype html><title>ssr</title>')
})
afterAll(async () => {
  await target?.close()
  await rm(root, { recursive: true, force: true })
})
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

function routes(): Routes {
  return { '/api': target.url, '/socket': { target: target.url, ws: true } }
}

function capture(lines: string[]): Logger {
  const warned = new Set<string>()
  const push = (message: unknown) => lines.push(String(message))
  return {
    info: push,
    warn: push,
    warnOnce(message) {
      if (!warned.has(message)) push(message)
      warned.add(message)
    },
    error: push,
    clearScreen() {},
    hasErrorLogged: () => false,
    hasWarned: false,
  }
}

interface CustomServer {
  vite: ViteDevServer
  server: Server
  origin: string
  logs: string[]
}

/** The usual custom SSR server: Express, Vite's middlewares mounted, a page rendered by hand. */
async function startCustomServer(hmr: 'own-server' | false, attach: boolean): Promise<CustomServer> {
  const logs: string[] = []
  const server = createHttpServer()
  const viteServer = await vite.createServer({
    configFile: false,
    root,
    logLevel: 'info',
    clearScreen: false,
    customLogger: capture(logs),
    appType: 'custom',
    optimizeDeps: { noDiscovery: true, include: [] },
    server: { middlewareMode: true, watch: null, hmr: hmr === 'own-server' ? { server } : false },
    plugins: [corsDevProxy(routes()) as never],
  })
  const app = express()
  app.use(viteServer.middlewares)
  app.use('/', (_req, res) => void res.type('html').send('<!doctype html><p>rendered on the server</p>'))
  server.on('request', app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  if (attach) attachCorsDevProxy(viteServer as never, server)
  cleanup.push(async () => {
    await viteServer.close()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  const { port } = server.address() as AddressInfo
  return { vite: viteServer as never, server, origin: `http://127.0.0.1:${port}`, logs }
}

const wsUrl = (origin: string, path: string) => `${origin.replace(/^http/, 'ws')}${path}`

describe(`Vite ${vite.version} in middleware mode on Express`, () => {
  it('proxies HTTP routes with no call, bodies whole, the rest to the app', async () => {
    const { origin } = await startCustomServer(false, false)
    const posted = await send(`${origin}/api/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Ada"}',
    })
    expect(posted.status).toBe(200)
    expect(JSON.parse(posted.body)).toMatchObject({ method: 'POST', url: '/items', body: '{"name":"Ada"}' })
    const page = await send(`${origin}/`)
    expect(page.body).toContain('rendered on the server')
  })

  it('forwards WebSocket routes after attachCorsDevProxy(vite, server), and says nothing', async () => {
    const { origin, logs } = await startCustomServer(false, true)
    await send(`${origin}/api/first`)
    const { socket, first } = await openWebSocket(wsUrl(origin, '/socket/chat'))
    try {
      expect(JSON.parse(first)).toMatchObject({ url: '/chat' })
      expect(await roundTrip(socket, 'hello')).toBe('hello')
    } finally {
      await closeWebSocket(socket)
    }
    expect(logs.join('\n')).not.toContain('middleware mode')
  })

  it('wires itself to server.hmr.server, and leaves Vite’s HMR socket there to Vite', async () => {
    const { origin, logs } = await startCustomServer('own-server', false)
    const { socket, first } = await openWebSocket(wsUrl(origin, '/socket/live'))
    try {
      expect(JSON.parse(first)).toMatchObject({ url: '/live' })
    } finally {
      await closeWebSocket(socket)
    }
    // Vite's own client: its subprotocol on its path; Vite answers with its `connected` message.
    const hmr = await openWebSocket(wsUrl(origin, '/'), { protocols: ['vite-hmr'] })
    try {
      expect(JSON.parse(hmr.first)).toMatchObject({ type: 'connected' })
    } finally {
      await closeWebSocket(hmr.socket)
    }
    expect(logs.join('\n')).not.toContain('attachCorsDevProxy')
  })

  it('says once, at the first request, how to wire WebSockets when nobody did', async () => {
    const { origin, logs } = await startCustomServer(false, false)
    for (let i = 0; i < 3; i++) expect((await send(`${origin}/api/n${i}`)).status).toBe(200)
    const warnings = logs.filter((line) => line.includes('attachCorsDevProxy(vite, server)'))
    expect(warnings).toHaveLength(1)
  })

  it('publishes the server for serverFetch once attached: server-side calls take the same route', async () => {
    const { origin } = await startCustomServer(false, true)
    const res = await serverFetch('/api/from-ssr?x=1')
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ method: 'GET', url: '/from-ssr?x=1' })
    expect(process.env.CORS_DEV_PROXY_URL).toBe(origin)
  })

  it('refuses attachCorsDevProxy on a middleware-mode Vite server without the plugin', async () => {
    const bare = await vite.createServer({
      configFile: false,
      root,
      logLevel: 'silent',
      optimizeDeps: { noDiscovery: true, include: [] },
      server: { middlewareMode: true, watch: null, hmr: false },
    })
    cleanup.push(() => bare.close())
    expect(() => attachCorsDevProxy(bare as never, createHttpServer())).toThrow(CorsDevProxyError)
    expect(() => attachCorsDevProxy(bare as never, createHttpServer())).toThrow(/corsDevProxy\(\)/)
  })
})
