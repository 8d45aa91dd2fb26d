import { createServer, request, type Server } from 'node:http'
import connect from 'connect'
import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import { listen, type StartedServer } from '../../../../test/support/servers.js'
import type { NextFunction, ProxyRequest, ProxyResponse } from '../../src/http/proxy-types.js'
import { type AppMiddleware, serveBeforeApp } from '../../src/proxy/serve-before-app.js'

type Middleware = AppMiddleware
type App = ((req: ProxyRequest, res: ProxyResponse) => void) & { use(fn: unknown): unknown }

/** webpack-dev-server's Host check, in miniature: only `Host: allowed` passes. */
const hostCheck: Middleware = (req, res, next) => {
  if (req.headers.host === 'allowed') next()
  else res.writeHead(403).end('Invalid Host header')
}
/**
 * A proxy with a route on /api: it answers, hands /api/pass on, passes an error for /api/fail,
 * throws for /api/throw, and passes on what it does not claim, as the real one does.
 */
function fakeProxy(seen: string[]): { middleware: Middleware; claims: (req: ProxyRequest) => boolean } {
  const claims = (req: ProxyRequest) => req.url?.startsWith('/api') === true
  return {
    claims,
    middleware(req, res, next) {
      if (!claims(req)) return next()
      // Express gives its requests a prototype with `get`; Node's have none.
      seen.push(`proxy ${typeof (req as { get?: unknown }).get === 'function' ? 'express' : 'node'}`)
      if (req.url === '/api/pass') next()
      else if (req.url === '/api/fail') next(new Error('step failed'))
      else if (req.url === '/api/throw') throw new Error('thrown')
      else res.end('proxied')
    },
  }
}

let started: StartedServer<Server> | undefined
afterEach(async () => {
  await started?.close()
  started = undefined
})

async function get(path: string, host = 'allowed'): Promise<{ status: number; body: string }> {
  const { port } = started as StartedServer<Server>
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
      .on('error', reject)
      .end()
  })
}

/**
 * An app as a dev server builds it: its Host check, the listed proxy, its own answer, its error
 * handler. The plan runs the functions listed before the proxy that are the check, leaves out
 * `skippable` ones, and keeps the proxy in the app when anything else comes first.
 */
async function start(
  app: App,
  seen: string[],
  options: { before?: Middleware; skippable?: unknown[] } = {},
): Promise<Server> {
  const server = createServer(app)
  const mounted: unknown[] = []
  const use = (fn: unknown) => {
    mounted.push(fn)
    app.use(fn)
  }
  const listed = serveBeforeApp(server, app, {
    ...fakeProxy(seen),
    plan(own) {
      const before = mounted.slice(0, mounted.indexOf(own))
      if (before.some((fn) => fn !== hostCheck && !options.skippable?.includes(fn))) return undefined
      return before.filter((fn) => fn === hostCheck) as Middleware[]
    },
  })
  use(hostCheck)
  if (options.before) use(options.before)
  use(listed)
  use((req: ProxyRequest, res: ProxyResponse) => {
    seen.push(`app ${req.url}`)
    res.end('dev server')
  })
  use((error: Error, _req: ProxyRequest, res: ProxyResponse, _next: NextFunction) => {
    seen.push(`error ${error.message}`)
    res.writeHead(500).end()
  })
  started = await listen(server)
  return server
}

describe('serveBeforeApp', () => {
  it.each([
    ['Express', () => express() as unknown as App],
    ['connect', () => connect() as unknown as App],
  ])(
    '%s: serves a claimed request before the app, after the checks the app lists before it',
    async (_title, make) => {
      const seen: string[] = []
      await start(make(), seen)
      expect(await get('/api/x')).toEqual({ status: 200, body: 'proxied' })
      expect(seen).toEqual(['proxy node'])
      // The check still applies, with its own answer, and nothing reaches the proxy.
      expect(await get('/api/x', 'evil.example')).toEqual({ status: 403, body: 'Invalid Host header' })
      expect(seen).toEqual(['proxy node'])
      // Other requests are the app's.
      expect(await get('/page')).toEqual({ status: 200, body: 'dev server' })
    },
  )

  it('hands what the proxy passes on to the app, which goes on after its listed entry, with the error', async () => {
    const seen: string[] = []
    await start(express() as unknown as App, seen)
    expect(await get('/api/pass')).toEqual({ status: 200, body: 'dev server' })
    expect(await get('/api/fail')).toEqual({ status: 500, body: '' })
    expect(await get('/api/throw')).toEqual({ status: 500, body: '' })
    expect(seen).toEqual([
      'proxy node',
      'app /api/pass',
      'proxy node',
      'error step failed',
      'proxy node',
      'error thrown',
    ])
  })

  it('keeps the proxy inside the app, after them, when middlewares of the user sit before it', async () => {
    const seen: string[] = []
    const before: Middleware = (_req, _res, next) => {
      seen.push('mine')
      next()
    }
    await start(express() as unknown as App, seen, { before })
    expect(await get('/api/x')).toEqual({ status: 200, body: 'proxied' })
    expect(seen).toEqual(['mine', 'proxy express'])
  })

  it('skips what it is told it may do without', async () => {
    const seen: string[] = []
    const patch: Middleware = (_req, _res, next) => {
      seen.push('patch')
      next()
    }
    await start(express() as unknown as App, seen, { before: patch, skippable: [patch] })
    await get('/api/x')
    await get('/page')
    expect(seen).toEqual(['proxy node', 'patch', 'app /page'])
  })

  it('leaves a server alone whose request listener is not the app', async () => {
    const app = connect() as unknown as App
    const server = createServer((req, res) => app(req, res))
    const listener = server.listeners('request')
    const plan = () => []
    const listed = serveBeforeApp(server, app, { ...fakeProxy([]), plan })
    expect(server.listeners('request')).toEqual(listener)
    expect(typeof listed).toBe('function')
  })
})
