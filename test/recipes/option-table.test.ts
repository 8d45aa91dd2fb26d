import { readFileSync } from 'node:fs'
import { Agent as HttpAgent } from 'node:http'
import { CorsDevProxyError, createCorsDevProxy } from '@cors-dev-proxy/core'
import { describe, expect, it } from 'vitest'

// The Migrating page's table "Every option, and what it is here" (docs/migrating.md: "Moving from Vite server.proxy /
// http-proxy-middleware") against the option names of the tools users move from, and against
// what the proxy does with each name.

/**
 * http-proxy-middleware's option names: its own (`Options` in src/types.ts of v3.0.7 and v4.2.0)
 * and the proxy server's it extends (v3: http-proxy's `ServerOptions`, README "Options"; v4:
 * httpxy's `ProxyServerOptions`, src/types.ts, the same names).
 */
const HPM_OPTION_NAMES = [
  'pathFilter',
  'pathRewrite',
  'plugins',
  'ejectPlugins',
  'on',
  'router',
  'logger',
  'target',
  'forward',
  'agent',
  'ssl',
  'ws',
  'xfwd',
  'secure',
  'toProxy',
  'prependPath',
  'ignorePath',
  'localAddress',
  'changeOrigin',
  'preserveHeaderKeyCase',
  'auth',
  'hostRewrite',
  'autoRewrite',
  'protocolRewrite',
  'cookieDomainRewrite',
  'cookiePathRewrite',
  'headers',
  'proxyTimeout',
  'timeout',
  'selfHandleResponse',
  'followRedirects',
  'buffer',
] as const

/** http-proxy-middleware 2's names that configs still carry (its README's v2 → v3 migration guide). */
const HPM2_OPTION_NAMES = [
  'context',
  'logLevel',
  'logProvider',
  'onProxyReq',
  'onProxyRes',
  'onProxyReqWs',
  'onError',
  'onOpen',
  'onClose',
] as const

/** Vite's `ProxyOptions` beyond http-proxy's (packages/vite/src/node/server/middlewares/proxy.ts). */
const VITE_OPTION_NAMES = ['rewrite', 'configure', 'bypass', 'rewriteWsOrigin'] as const

const TARGET = 'http://localhost:3000'

/** A value each name takes in the other tool, to see what the proxy does with it. */
const SAMPLES: Record<string, unknown> = {
  pathFilter: '/api/v2',
  pathRewrite: { '^/api': '' },
  plugins: [(proxy: { on(event: string, fn: () => void): void }) => proxy.on('error', () => {})],
  ejectPlugins: true,
  on: { proxyReq: () => {} },
  router: () => TARGET,
  logger: console,
  target: { protocol: 'http:', host: 'localhost', port: 3000 },
  forward: 'http://localhost:3001',
  agent: new HttpAgent({ keepAlive: true, maxSockets: 10 }),
  ssl: { key: 'k', cert: 'c' },
  ws: true,
  xfwd: true,
  secure: false,
  toProxy: true,
  prependPath: false,
  ignorePath: true,
  localAddress: '127.0.0.1',
  changeOrigin: true,
  preserveHeaderKeyCase: true,
  auth: 'user:password',
  hostRewrite: 'localhost:5173',
  autoRewrite: true,
  protocolRewrite: 'http',
  cookieDomainRewrite: 'localhost',
  cookiePathRewrite: { '/api': '/' },
  headers: { 'x-api-key': 'dev' },
  proxyTimeout: 5000,
  timeout: 5000,
  selfHandleResponse: true,
  followRedirects: true,
  buffer: {},
  context: '/api',
  logLevel: 'debug',
  logProvider: () => console,
  onProxyReq: () => {},
  onProxyRes: () => {},
  onProxyReqWs: () => {},
  onError: () => {},
  onOpen: () => {},
  onClose: () => {},
  rewrite: (path: string) => path,
  configure: () => {},
  bypass: () => undefined,
  rewriteWsOrigin: true,
}

interface Row {
  from: string
  status: 'works' | 'refused' | undefined
}

function tableRows(): Map<string, Row> {
  const page = readFileSync(new URL('../../docs/migrating.md', import.meta.url), 'utf8')
  const section = page.split('## Every option, and what it is here')[1]?.split('\n## ')[0] ?? ''
  const rows = new Map<string, Row>()
  for (const line of section.split('\n')) {
    const cells = /^\| `([A-Za-z]+)` \| ([^|]+) \| (.+) \|$/.exec(line)
    if (cells === null) continue
    const status = /^\*\*(works|refused)\*\*/.exec(cells[3] ?? '')?.[1] as Row['status']
    rows.set(cells[1] as string, { from: (cells[2] ?? '').trim(), status })
  }
  return rows
}

/** What the proxy does with a name written in a route, as the other tool's users write it. */
function outcome(name: string): 'works' | CorsDevProxyError {
  const route = name === 'target' ? { target: SAMPLES.target } : { target: TARGET, [name]: SAMPLES[name] }
  try {
    void createCorsDevProxy({ '/api': route as never }, { log: 'silent' }).close()
    return 'works'
  } catch (error) {
    if (error instanceof CorsDevProxyError) return error
    throw error
  }
}

describe("the Migrating page's option table", () => {
  const rows = tableRows()

  it.each([...HPM_OPTION_NAMES, ...HPM2_OPTION_NAMES, ...VITE_OPTION_NAMES])('has a row for %s', (name) => {
    expect(rows.has(name), `add \`${name}\` to the table`).toBe(true)
    expect(rows.get(name)?.status, `start the row of \`${name}\` with **works** or **refused**`).toBeDefined()
  })

  it.each([...rows.keys()])('says what the proxy does with %s', (name) => {
    expect(Object.hasOwn(SAMPLES, name), `give \`${name}\` a sample value in this test`).toBe(true)
    const result = outcome(name)
    if (rows.get(name)?.status === 'works') expect(result).toBe('works')
    else {
      expect(result).toBeInstanceOf(CorsDevProxyError)
      expect((result as CorsDevProxyError).option).toBe(`routes['/api'].${name}`)
      expect((result as CorsDevProxyError).message).toContain('Fix it like this: ')
    }
  })
})
