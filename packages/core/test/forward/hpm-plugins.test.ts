import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import { expectConfigError } from '../../../../test/support/config-error.js'
import { captureLogSink, listen, sendRequest } from '../../../../test/support/servers.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { createCorsDevProxy, type Routes } from '../../src/index.js'

// http-proxy-middleware 3/4's `logger` and `plugins` (README "logger", "plugins", "ejectPlugins";
// src/plugins/default/logger-plugin.ts, src/get-plugins.ts), per route.

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

async function startTarget() {
  const started = await listen(
    createServer((req: IncomingMessage, res: ServerResponse) => {
      res.setHeader('content-type', 'text/plain')
      res.setHeader('x-seen-token', String(req.headers['x-token'] ?? ''))
      res.statusCode = req.url?.endsWith('/missing') ? 404 : 200
      res.end('ok')
    }),
  )
  cleanup.push(started.close)
  return started
}

async function startDevServer(routes: Routes) {
  const proxy = createCorsDevProxy(routes, { logger: captureLogSink() })
  const app = express()
  app.use((req, res, next) => proxy.middleware(req, res, next))
  const started = await listen(createServer(app))
  cleanup.push(async () => {
    await proxy.close()
    await started.close()
  })
  return started
}

/** What `console` would receive: every call, arguments joined as `console` prints them. */
function consoleLike() {
  const lines: Array<[string, string]> = []
  const record =
    (level: string) =>
    (...args: unknown[]) =>
      lines.push([level, args.map(String).join(' ')])
  return { lines, info: record('info'), warn: record('warn'), error: record('error') }
}

describe('a route logger (hpm v3+ `logger: console`)', () => {
  it('writes one info line per request: method, path as received, full target URL, status', async () => {
    const target = await startTarget()
    const logger = consoleLike()
    const dev = await startDevServer({ '/api': { target: `${target.url}/v1`, logger } })
    await sendRequest(`${dev.url}/api/users?page=2`)
    await sendRequest(`${dev.url}/api/missing`)
    expect(logger.lines).toEqual([
      ['info', `[cors-dev-proxy] GET /api/users?page=2 -> ${target.url}/v1/users?page=2 [200]`],
      ['info', `[cors-dev-proxy] GET /api/missing -> ${target.url}/v1/missing [404]`],
    ])
  })

  it('writes one error line for a request that could not be forwarded, and the 502 still goes out', async () => {
    const target = await startTarget()
    await target.close()
    const logger = consoleLike()
    const dev = await startDevServer({ '/api': { target: target.url, logger } })
    const res = await sendRequest(`${dev.url}/api/x`)
    expect(res.status).toBe(502)
    expect(logger.lines).toHaveLength(1)
    expect(logger.lines[0]?.[0]).toBe('error')
    expect(logger.lines[0]?.[1]).toContain(`to ${target.url}/x [ECONNREFUSED]`)
  })
})

describe('plugins (hpm v3+: (proxyServer, options) => void)', () => {
  it("maps proxyServer.on('proxyReq' | 'proxyRes') onto the route's hooks, with the route as options", async () => {
    const target = await startTarget()
    const seen: unknown[] = []
    const route = {
      target: target.url,
      plugins: [
        (proxyServer: { on(event: string, fn: (...args: never[]) => void): void }, options: unknown) => {
          seen.push(options)
          proxyServer.on('proxyReq', (proxyReq: { setHeader(n: string, v: string): void }) =>
            proxyReq.setHeader('x-token', 'from-plugin'),
          )
          proxyServer.on('proxyRes', (proxyRes: { headers: Record<string, string> }) => {
            proxyRes.headers['x-plugin'] = 'yes'
          })
        },
      ],
    }
    const dev = await startDevServer({ '/api': route })
    const res = await sendRequest(`${dev.url}/api/x`)
    expect(res.headers['x-seen-token']).toBe('from-plugin')
    expect(res.headers['x-plugin']).toBe('yes')
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({ target: target.url })
  })

  it('skips hpm’s own plugins (built in here) and refuses events it cannot map, naming the plugin', () => {
    function loggerPlugin() {
      throw new Error('never called')
    }
    expect(() =>
      resolveOptions({ '/api': { target: 'http://localhost:3000', plugins: [loggerPlugin] } }),
    ).not.toThrow()
    expectConfigError(
      () =>
        resolveOptions({
          '/api': {
            target: 'http://localhost:3000',
            plugins: [
              (proxyServer) => (proxyServer as { on(e: string, f: () => void): void }).on('open', () => {}),
            ],
          },
        }),
      {
        code: 'INVALID_OPTION',
        option: "routes['/api'].plugins",
        contains: ['registers proxy.on("open")', 'Fix it like this: { plugins: [(proxy) =>'],
      },
    )
  })

  it('accepts ejectPlugins and says at start-up that nothing is ejected', () => {
    const resolved = resolveOptions({ '/api': { target: 'http://localhost:3000', ejectPlugins: true } })
    expect(resolved.warnings.join('\n')).toContain("routes['/api'].ejectPlugins")
  })
})
