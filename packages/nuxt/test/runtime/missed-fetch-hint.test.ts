import { createServer, type IncomingMessage, request, type Server } from 'node:http'
import { prefixMatches } from '@cors-dev-proxy/core/adapter'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createMissedFetchHint,
  type MissedFetchRoute,
  missedFetchPlugin,
  type NitroEventLike,
} from '../../src/runtime/missed-fetch-hint.js'

const ROUTES: readonly MissedFetchRoute[] = [
  { prefix: '/api', target: 'http://localhost:8080' },
  { prefix: '/api/v2', target: 'http://localhost:9090/v2' },
  { prefix: '/mock', target: 'its mock backend' },
]

/** The route each URL's hint names, or `undefined` when no route claims it. */
function claimedBy(routes: readonly MissedFetchRoute[], url: string): string | undefined {
  const lines: string[] = []
  createMissedFetchHint(routes, (line) => lines.push(line))(url)
  return lines[0]?.match(/takes the '([^']+)' route/)?.[1]
}

describe('createMissedFetchHint: which paths the routes claim', () => {
  it.each([
    ['/api', '/api'],
    ['/api/', '/api'],
    ['/api/items', '/api'],
    ['/api?q=1', '/api'],
    ['/api#x', '/api'],
    ['/api/v2', '/api/v2'],
    ['/api/v2/items?x', '/api/v2'],
    ['/api/v20', '/api'],
    ['/mock/a', '/mock'],
    ['/api2', undefined],
    ['/apix/items', undefined],
    ['/ap', undefined],
    ['/', undefined],
    ['/_nuxt/app.js', undefined],
    ['/API/items', undefined],
  ])('%s → %s', (url, route) => {
    expect(claimedBy(ROUTES, url)).toBe(route)
  })

  it('with a root route, claims every path', () => {
    expect(claimedBy([{ prefix: '/', target: 'http://localhost:8080' }], '/anything/at/all')).toBe('/')
  })

  it.each([
    ['/api', '/api'],
    ['/api', '/api/'],
    ['/api', '/api2'],
    ['/api', '/ap'],
    ['/api/v2', '/api/v2/x'],
    ['/', '/x'],
    ['/a-b', '/a-b/c'],
  ])("agrees with the core's prefixMatches (%s, %s)", (prefix, path) => {
    const hinted = claimedBy([{ prefix, target: 'http://t' }], path) !== undefined
    expect(hinted).toBe(prefixMatches(prefix, path))
  })
})

describe('createMissedFetchHint: the line', () => {
  it("names the path, serverFetch and the route's target, with the framework suite's words", () => {
    const lines: string[] = []
    createMissedFetchHint(ROUTES, (line) => lines.push(line))('/api/missed?x=1')
    expect(lines).toEqual([
      "[cors-dev-proxy] fetch('/api/missed?x=1') ran on the server and went to Nitro, not to the proxy: " +
        "server-side code has no page origin, so $fetch and useFetch call Nitro's own routes. " +
        "Use serverFetch('/api/missed?x=1') from '@cors-dev-proxy/core' (it takes the '/api' route to " +
        'http://localhost:8080).',
    ])
    expect(lines[0]).toContain("fetch('/api/missed?x=1') ran on the server")
  })

  it('is written once per path, whatever the query', () => {
    const lines: string[] = []
    const explain = createMissedFetchHint(ROUTES, (line) => lines.push(line))
    for (const url of ['/api/a', '/api/a?page=2', '/api/a', '/api/b', '/api2/a', '/api/b#top']) explain(url)
    expect(lines.map((line) => line.match(/fetch\('([^']+)'\)/)?.[1])).toEqual(['/api/a', '/api/b'])
  })

  it('keeps its memory bounded: past 100 paths, one more line per route and then none', () => {
    const lines: string[] = []
    const explain = createMissedFetchHint(ROUTES, (line) => lines.push(line))
    for (let id = 0; id < 1000; id++) explain(`/api/items/${id}`)
    explain('/mock/x')
    explain('/mock/y')
    expect(lines).toHaveLength(102)
    expect(lines[100]).toContain("fetch('/api/items/100')")
    expect(lines[101]).toContain("fetch('/mock/x')")
  })
})

/** A Nitro app's hooks, as the plugin sees them, with the `request` hook it registered. */
function fakeNitroApp() {
  const hooks: Array<(event: NitroEventLike) => void> = []
  return {
    hooks: {
      hook(name: 'request', hook: (event: NitroEventLike) => void) {
        expect(name).toBe('request')
        hooks.push(hook)
      },
    },
    request(event: NitroEventLike) {
      for (const hook of hooks) hook(event)
    },
    hooked: () => hooks.length,
  }
}

/** An in-process request of Nitro's `localFetch`: node-mock-http's, whose socket is no `net.Socket`. */
function localFetchEvent(url: string): NitroEventLike {
  return Object.freeze({ path: url, node: Object.freeze({ req: Object.freeze({ url, socket: {} }) }) })
}

describe('missedFetchPlugin', () => {
  let server: Server | undefined
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined))
    server = undefined
  })

  it("explains an in-process request of a route's path, and leaves the event as it was", () => {
    const lines: string[] = []
    const nitro = fakeNitroApp()
    missedFetchPlugin(ROUTES, (line) => lines.push(line))(nitro)
    // Frozen: a plugin that changed the event would throw here.
    nitro.request(localFetchEvent('/api/missed'))
    nitro.request(localFetchEvent('/api/missed'))
    nitro.request(localFetchEvent('/about'))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain("fetch('/api/missed') ran on the server")
  })

  it('stays quiet for a request that came over the network (a pathFilter or bypass let it through)', async () => {
    const lines: string[] = []
    const nitro = fakeNitroApp()
    missedFetchPlugin(ROUTES, (line) => lines.push(line))(nitro)
    server = createServer((req: IncomingMessage, res) => {
      nitro.request({ path: req.url, node: { req } })
      res.end()
    })
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as { port: number }
    await new Promise((resolve, reject) => {
      request(`http://127.0.0.1:${port}/api/from-the-browser`, (res) => res.resume().on('end', resolve))
        .on('error', reject)
        .end()
    })
    expect(lines).toEqual([])
  })

  it('never throws into Nitro, whatever the event looks like', () => {
    const nitro = fakeNitroApp()
    missedFetchPlugin(ROUTES, () => {
      throw new Error('the terminal is gone')
    })(nitro)
    const hostile = {
      get path(): string {
        throw new Error('no path')
      },
      node: { req: { socket: {} } },
    }
    expect(() => nitro.request({})).not.toThrow()
    expect(() => nitro.request(hostile)).not.toThrow()
    expect(() => nitro.request(localFetchEvent('/api/x'))).not.toThrow()
  })

  it('adds no hook at all when there is no route', () => {
    const nitro = fakeNitroApp()
    missedFetchPlugin([], () => {})(nitro)
    expect(nitro.hooked()).toBe(0)
  })
})

describe('missedFetchPlugin: a plain fetch of a relative URL in the worker', () => {
  // Every test of this file that runs the plugin wraps fetch: each starts from the real one here.
  const real = globalThis.fetch
  beforeEach(() => {
    globalThis.fetch = real
  })
  afterEach(() => {
    globalThis.fetch = real
  })

  it('is explained once per path, and still fails as Node’s fetch does', async () => {
    const lines: string[] = []
    missedFetchPlugin(ROUTES, (line) => lines.push(line))(fakeNitroApp())
    expect(globalThis.fetch).not.toBe(real)
    for (let i = 0; i < 2; i++) await expect(globalThis.fetch('/api/plain?i=1')).rejects.toThrow(TypeError)
    await expect(globalThis.fetch('/about')).rejects.toThrow(TypeError)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain("fetch('/api/plain?i=1') ran on the server and has no page origin there")
    expect(lines[0]).toContain("serverFetch('/api/plain?i=1')")
  })

  it('wraps fetch once, however many times the plugin runs', () => {
    missedFetchPlugin(ROUTES, () => undefined)(fakeNitroApp())
    const wrapped = globalThis.fetch
    missedFetchPlugin(ROUTES, () => undefined)(fakeNitroApp())
    expect(globalThis.fetch).toBe(wrapped)
  })
})
