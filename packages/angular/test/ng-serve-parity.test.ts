import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeWebSocket, openWebSocket, send } from '../../../test/adapters/clients.js'
import { startTargetServer, type TargetServer } from '../../../test/adapters/target-server.js'
import { angularProxy } from '../src/angular-proxy.js'
import { asAngularLoads, startNgServeVite } from './ng-serve-vite.js'

/** What the backend saw of one call: the path, whose host, and whether it was told who forwarded it. */
interface Seen {
  url: string
  host: 'target' | 'dev server' | string
  forwarded: boolean
}

/** Names the Host the backend saw, so two servers on two ports compare equal. */
function whoseHost(host: string | undefined, target: string, origin: string): string {
  if (host === new URL(target).host) return 'target'
  if (host === new URL(origin).host) return 'dev server'
  return String(host)
}

/** A `proxy.conf.json` written for `ng serve`, in each shape `ng serve` reads, against `target`. */
function ngServeFile(target: string) {
  const ws = target.replace(/^http/, 'ws')
  return {
    // The entries: no pathRewrite, so ng serve keeps the path.
    '/api': { target, changeOrigin: true },
    '/live': { target: ws, ws: true },
    // Nothing but the target: Host the dev server's, no X-Forwarded-*, the path kept.
    '/plain': { target },
    '/secure': { target, secure: false },
    // pathRewrite maps say otherwise, for calls and WebSockets alike.
    '/old': { target, changeOrigin: true, pathRewrite: { '^/old': '' } },
    '/v1': { target, pathRewrite: { '^/v1/users': '/v2/people', '^/v1': '/v1-legacy' } },
    '/old-ws': { target: ws, ws: true, pathRewrite: { '^/old-ws': '/socket' } },
    // Vite's own `rewrite`, which a proxy.conf.mjs for the application builder may carry.
    '/vite': { target, rewrite: (path: string) => path.replace(/^\/vite/, '/from-vite') },
    // Vite's string shorthand: `{ target, changeOrigin: true }`, the path kept.
    '/short': target,
  }
}

/** The array form (webpack-dev-server's), which ng serve also reads. */
function ngServeArrayFile(target: string) {
  return [
    { context: ['/orders', '/carts'], target, changeOrigin: true },
    { context: ['/legacy'], target, pathRewrite: { '^/legacy': '/api' } },
  ]
}

/** The HTTP calls and WebSocket upgrades each file's check makes. */
const CALLS = [
  '/api/users?page=2',
  '/api',
  '/plain/items/3',
  '/secure/x',
  '/old/items?q=1',
  '/v1/users/7',
  '/v1/orders',
  '/vite/a',
  '/short/b?c=d',
]
const SOCKETS = ['/live/echo', '/old-ws/chat']
const ARRAY_CALLS = ['/orders/1', '/carts', '/legacy/items']

describe("angularProxy reads a proxy.conf.json as ng serve does: each entry reaches the backend as through Angular's own proxy", () => {
  let target: TargetServer
  beforeAll(async () => {
    target = await startTargetServer()
  })
  afterAll(() => target.close())

  /** What the backend saw for each call and each upgrade, through one Vite dev server with `proxy`. */
  async function through(proxy: unknown, calls: string[], sockets: string[]) {
    const dev = await startNgServeVite(proxy)
    try {
      const seen: Record<string, Seen> = {}
      for (const call of calls) {
        const answer = await send(`${dev.origin}${call}`)
        expect(answer.status, `${call}: ${answer.body.slice(0, 200)}`).toBe(200)
        const echoed = JSON.parse(answer.body) as { url: string; headers: Record<string, string> }
        seen[call] = {
          url: echoed.url,
          host: whoseHost(echoed.headers.host, target.url, dev.origin),
          forwarded: echoed.headers['x-forwarded-for'] !== undefined,
        }
      }
      for (const path of sockets) {
        const { socket, first } = await openWebSocket(`${dev.origin.replace('http', 'ws')}${path}`)
        const echoed = JSON.parse(first) as { url: string; headers: Record<string, string> }
        seen[`ws ${path}`] = {
          url: echoed.url,
          host: whoseHost(echoed.headers.host, target.url, dev.origin),
          forwarded: echoed.headers['x-forwarded-for'] !== undefined,
        }
        await closeWebSocket(socket)
      }
      return seen
    } finally {
      await dev.close()
    }
  }

  it('keeps the path of an entry without pathRewrite, and applies the ones with it, for calls and WebSockets', async () => {
    const angular = await through(asAngularLoads(ngServeFile(target.url)), CALLS, SOCKETS)
    const ours = await through(angularProxy(ngServeFile(target.url), { log: 'silent' }), CALLS, SOCKETS)
    // Angular's own proxy, as measured: the reference.
    expect(angular['/api/users?page=2']).toEqual({
      url: '/api/users?page=2',
      host: 'target',
      forwarded: false,
    })
    expect(angular['ws /live/echo']).toMatchObject({ url: '/live/echo' })
    expect(angular['/plain/items/3']).toEqual({ url: '/plain/items/3', host: 'dev server', forwarded: false })
    expect(angular['/v1/users/7']?.url).toBe('/v2/people/7')
    expect(angular['ws /old-ws/chat']?.url).toBe('/socket/chat')
    expect(ours).toEqual(angular)
  })

  it('reads the array form (context lists) the same way', async () => {
    const angular = await through(asAngularLoads(ngServeArrayFile(target.url)), ARRAY_CALLS, [])
    const ours = await through(angularProxy(ngServeArrayFile(target.url), { log: 'silent' }), ARRAY_CALLS, [])
    expect(angular['/legacy/items']?.url).toBe('/api/items')
    expect(angular['/orders/1']?.url).toBe('/orders/1')
    expect(ours).toEqual(angular)
  })

  it('takes changeOrigin and xfwd from the shared options when an entry sets neither', async () => {
    const proxy = angularProxy(
      { '/plain': { target: target.url } },
      { changeOrigin: true, xfwd: true, log: 'silent' },
    )
    const seen = await through(proxy, ['/plain/x'], [])
    expect(seen['/plain/x']).toEqual({ url: '/plain/x', host: 'target', forwarded: true })
  })

  it('points a redirect of the target back at ng serve with the path as kept', async () => {
    const dev = await startNgServeVite(
      angularProxy({ '/redirect': { target: target.url } }, { log: 'silent' }),
    )
    try {
      // The backend answers /redirect/absolute itself: the path reached it whole.
      const answer = await send(`${dev.origin}/redirect/absolute`)
      expect(answer.status).toBe(302)
      expect(answer.headers.location).toBe(`${dev.origin}/posts`)
    } finally {
      await dev.close()
    }
  })
})
