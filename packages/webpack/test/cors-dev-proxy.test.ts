import { EventEmitter } from 'node:events'
import type { Server } from 'node:net'
import { stripVTControlCharacters } from 'node:util'
import { CorsDevProxyError } from '@cors-dev-proxy/core'
import { describe, expect, it } from 'vitest'
import type { Configuration } from 'webpack-dev-server'
import { NESTED_MISTAKES } from '../../../test/support/nested-mistakes.js'
import { corsDevProxy } from '../src/cors-dev-proxy.js'
import type { DevServerLike } from '../src/dev-server-types.js'

/** A webpack-dev-server stand-in: what `setupMiddlewares` sees, with its logger captured. */
function fakeDevServer(serverType: string, app: unknown) {
  const lines: string[] = []
  const server = new EventEmitter() as unknown as Server
  const devServer: DevServerLike = {
    server,
    app,
    options: { server: { type: serverType }, webSocketServer: false },
    logger: {
      info: (line) => lines.push(`info ${stripVTControlCharacters(String(line))}`),
      warn: (line) => lines.push(`warn ${stripVTControlCharacters(String(line))}`),
      error: (line) => lines.push(`error ${stripVTControlCharacters(String(line))}`),
    },
  }
  return { devServer, lines, server }
}

describe('corsDevProxy (webpack-dev-server)', () => {
  it('throws where the config is written, with the option and a fix', () => {
    let error: unknown
    try {
      corsDevProxy({ '/api': 'localhost:3000' })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(CorsDevProxyError)
    expect((error as CorsDevProxyError).code).toBe('INVALID_TARGET')
    expect((error as CorsDevProxyError).message).toContain('http://localhost:3000')
  })

  it.each(NESTED_MISTAKES.map((mistake) => [mistake.title, mistake] as const))(
    'throws a nested mistake where the config is written: %s',
    (_title, mistake) => {
      let error: unknown
      try {
        corsDevProxy(mistake.routes, mistake.options)
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(CorsDevProxyError)
      expect(error).toMatchObject({ code: mistake.code, option: mistake.option })
      expect((error as Error).message).toContain(`Fix it like this: ${mistake.fix}`)
    },
  )

  it('takes the one-object config of cors-dev-proxy.config.* too, your setupMiddlewares included', () => {
    const setup = corsDevProxy({ routes: { '/api': 'http://localhost:3000' }, setupMiddlewares: (m) => m })
    expect(typeof setup.setupMiddlewares).toBe('function')
    expect(() => corsDevProxy({ routes: { '/api': 'localhost:3000' } })).toThrow(CorsDevProxyError)
  })

  it('takes your setupMiddlewares as an option, not as a proxy option', () => {
    const options = Object.freeze({ log: 'warn' as const, setupMiddlewares: <M>(list: M[]) => list })
    expect(() => corsDevProxy({ '/api': 'http://localhost:3000' }, options)).not.toThrow()
    expect(() => corsDevProxy({ '/api': 'http://localhost:3000' }, { lgo: 'x' } as never)).toThrow(/lgo/)
  })

  it('accepts a setupMiddlewares typed inline or with webpack-dev-server’s own types', () => {
    // Type-checked by `tsc`: both shapes compile without casts.
    const typedByWds: NonNullable<Configuration['setupMiddlewares']> = (middlewares) => middlewares
    const inline = corsDevProxy(
      { '/api': 'http://localhost:3000' },
      {
        setupMiddlewares(middlewares) {
          middlewares.push({ name: 'mine', path: '/mine', middleware: () => {} })
          return middlewares
        },
      },
    )
    expect(typeof inline.setupMiddlewares).toBe('function')
    expect(() =>
      corsDevProxy({ '/api': 'http://localhost:3000' }, { setupMiddlewares: typedByWds }),
    ).not.toThrow()
  })

  it('returns only setupMiddlewares and onListening, which fit a typed devServer configuration', () => {
    // Type-checked by `tsc`: a webpack-dev-server 5 Configuration accepts the spread.
    const devServer: Configuration = { port: 8080, ...corsDevProxy({ '/api': 'http://localhost:3000' }) }
    expect(Object.keys(devServer)).toEqual(['port', 'setupMiddlewares', 'onListening'])
  })

  it('takes your onListening as an option and calls it after its own check, with the dev server', () => {
    const seen: DevServerLike[] = []
    const { devServer, lines, server } = fakeDevServer('http', () => {})
    const setup = corsDevProxy(
      { '/api': 'http://localhost:3000' },
      { onListening: (ds) => void seen.push(ds) },
    )
    setup.setupMiddlewares([], devServer)
    setup.onListening(devServer)
    expect(seen).toEqual([devServer])
    expect(lines.filter((line) => line.startsWith('error'))).toEqual([])
    server.emit('close')
  })

  it('reports at onListening a start in which its setupMiddlewares never ran', () => {
    const { devServer, lines } = fakeDevServer('http', () => {})
    corsDevProxy({ '/api': 'http://localhost:3000' }).onListening(devServer)
    expect(lines).toEqual([
      expect.stringMatching(/^error \[cors-dev-proxy\] nothing is proxied: .*\{ setupMiddlewares \}/),
    ])
  })

  it("refuses server: 'http2' on Express before installing anything", () => {
    const { devServer, lines, server } = fakeDevServer(
      'http2',
      Object.assign(() => {}, { settings: {} }),
    )
    let error: unknown
    try {
      corsDevProxy({ '/api': 'http://localhost:3000' }).setupMiddlewares([], devServer)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(CorsDevProxyError)
    expect(error).toMatchObject({ code: 'CONFLICTING_OPTIONS', option: 'devServer.app' })
    // No upgrade or close listener was attached, no startup line is pending.
    expect(server.listenerCount('upgrade')).toBe(0)
    expect(server.listenerCount('listening')).toBe(0)
    expect(lines).toEqual([])
  })

  it.each<[title: string, type: string, app: unknown]>([
    ["server: 'http2' on a connect app", 'http2', () => {}],
    ["server: 'http' on Express", 'http', Object.assign(() => {}, { settings: {} })],
  ])('%s: installs the proxy and announces the routes through the dev server logger', (_title, type, app) => {
    const { devServer, lines, server } = fakeDevServer(type, app)
    const installed = corsDevProxy({ '/api': 'http://localhost:3000' }).setupMiddlewares([], devServer)
    expect(installed).toEqual([expect.objectContaining({ name: 'cors-dev-proxy' })])
    server.emit('listening')
    expect(lines).toEqual([
      expect.stringContaining('info [cors-dev-proxy] routes: /api → http://localhost:3000'),
    ])
    server.emit('close')
  })
})
