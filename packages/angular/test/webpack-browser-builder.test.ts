import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo, Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebpackDevServer5 from 'wds5'
import WebpackDevServer6 from 'wds6'
import webpack from 'webpack'
import { closeWebSocket, openWebSocket, roundTrip, send } from '../../../test/adapters/clients.js'
import { closedPort, startTargetServer, type TargetServer } from '../../../test/adapters/target-server.js'
import { WEBPACK_APP } from '../../../test/adapters/webpack-server.js'
import { type AngularProxyConfig, angularProxy } from '../src/angular-proxy.js'

/**
 * What the webpack `browser` builder hands webpack-dev-server from the proxy file
 * (`@angular-devkit/build-angular`'s `normalizeProxyConfiguration`): one array item per key,
 * `{ context: [key], ...entry }`.
 */
function asBuildAngularNormalises(config: AngularProxyConfig) {
  return Object.entries(config).map(([context, value]) => Object.assign({ context: [context] }, value))
}

// Angular 22's builder runs webpack-dev-server 6 (http-proxy-middleware 4), Angular 21's version 5
// (http-proxy-middleware 2, which ignores `plugins`: `bypass` answers there).
describe.each([
  { version: 5, WebpackDevServer: WebpackDevServer5 },
  { version: 6, WebpackDevServer: WebpackDevServer6 },
] as const)(
  'angularProxy under the webpack browser builder (webpack-dev-server $version)',
  ({ WebpackDevServer }) => {
    let target: TargetServer
    let devServer: { server?: Server; stop(): Promise<void> }
    let compiler: webpack.Compiler
    let output: string
    let origin: string
    const logs: string[] = []

    beforeAll(async () => {
      target = await startTargetServer()
      output = await mkdtemp(join(tmpdir(), 'cdp-angular-webpack-'))
      compiler = webpack({
        mode: 'development',
        context: WEBPACK_APP,
        entry: './index.js',
        output: { path: output },
        devtool: false,
        stats: 'none',
        infrastructureLogging: { level: 'none' },
      })
      const logger = {
        info: (line: string) => logs.push(line),
        warn: (line: string) => logs.push(line),
        error: (line: string) => logs.push(line),
      }
      const proxy = angularProxy(
        {
          '/api': { target: target.url, secure: false, changeOrigin: true, pathRewrite: { '^/api': '' } },
          '/socket': { target: target.url, ws: true },
          // A second ws route: webpack-dev-server hands each upgrade to every ws entry's proxy.
          '/second-socket': { target: target.url, ws: true },
          '/dead': `http://127.0.0.1:${await closedPort()}`,
        },
        { logger },
      )
      const server = new WebpackDevServer(
        {
          host: '127.0.0.1',
          port: 0,
          static: false,
          open: false,
          setupExitSignals: false,
          compress: false,
          proxy: asBuildAngularNormalises(proxy),
        },
        compiler,
      )
      await server.start()
      devServer = server as unknown as typeof devServer
      origin = `http://127.0.0.1:${(devServer.server!.address() as AddressInfo).port}`
    })
    afterAll(async () => {
      await devServer?.stop()
      await new Promise<void>((resolve) => compiler.close(() => resolve()))
      await rm(output, { recursive: true, force: true })
      await target.close()
    })

    it('forwards with the prefix removed and the target as Host; /api2 is not taken', async () => {
      const answer = await send(`${origin}/api/users?page=2`)
      const echoed = JSON.parse(answer.body) as { url: string; headers: Record<string, string> }
      expect(echoed.url).toBe('/users?page=2')
      expect(echoed.headers.host).toBe(new URL(target.url).host)
      const before = target.requests.length
      await send(`${origin}/api2/users`)
      expect(target.requests.length).toBe(before)
    })

    it('points an absolute redirect back at the dev server', async () => {
      expect((await send(`${origin}/api/redirect/absolute`)).headers.location).toBe(`${origin}/api/posts`)
    })

    it('forwards a WebSocket of each ws route once, with two ws routes, the path kept', async () => {
      for (const prefix of ['/socket', '/second-socket']) {
        // A browser sends its page's Origin; webpack-dev-server refuses an upgrade without one (403).
        const { socket, first } = await openWebSocket(`${origin.replace('http', 'ws')}${prefix}/chat`, {
          origin,
        })
        // No pathRewrite: the path as http-proxy-middleware keeps it under webpack-dev-server.
        expect((JSON.parse(first) as { url: string }).url).toBe(`${prefix}/chat`)
        expect(await roundTrip(socket, 'hello')).toBe('hello')
        await closeWebSocket(socket)
      }
    })

    it('answers a dead backend 502 with the cause', async () => {
      const answer = await send(`${origin}/dead/x`)
      expect(answer.status).toBe(502)
      expect(answer.body).toContain('connection refused')
    })

    it('serves the inspector', async () => {
      const answer = await send(`${origin}/__cors-dev-proxy/exchanges`)
      expect(answer.status).toBe(200)
      expect(answer.headers['content-type']).toContain('json')
    })
  },
)
