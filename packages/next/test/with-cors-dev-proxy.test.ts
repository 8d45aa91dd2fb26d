import { CorsDevProxyError, SERVER_URL_VARIABLE } from '@cors-dev-proxy/core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NEXT_SERVER_VARIABLE } from '../src/next-server-marker.js'
import { PHASE_DEVELOPMENT_SERVER, withCorsDevProxy } from '../src/with-cors-dev-proxy.js'

const context = { defaultConfig: {} }
const saved = {
  url: process.env[SERVER_URL_VARIABLE],
  port: process.env.PORT,
  nextServer: process.env[NEXT_SERVER_VARIABLE],
}

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name]
  else process.env[name] = value
}

describe('withCorsDevProxy', () => {
  beforeEach(() => {
    delete process.env[SERVER_URL_VARIABLE]
    delete process.env.PORT
    // createNextServer's mark, left by another file of this worker.
    delete process.env[NEXT_SERVER_VARIABLE]
  })
  afterEach(() => {
    restore(SERVER_URL_VARIABLE, saved.url)
    restore('PORT', saved.port)
    restore(NEXT_SERVER_VARIABLE, saved.nextServer)
  })

  it('stops at start-up on a misspelt option, naming it, with the stack trimmed to the message', () => {
    const load = () =>
      withCorsDevProxy({}, { '/api': { target: 'http://127.0.0.1:3000', changeOrgin: true } as never })
    expect(load).toThrow(CorsDevProxyError)
    expect(load).toThrow(/changeOrgin/)
    expect(load).toThrow(/changeOrigin/)
    try {
      load()
    } catch (error) {
      expect((error as Error).stack).toBe(`CorsDevProxyError: ${(error as Error).message}`)
    }
  })

  it('keeps the config and adds the packages Next must not bundle, once', async () => {
    const config = await withCorsDevProxy({ reactStrictMode: true, serverExternalPackages: ['sharp'] })(
      'phase-production-build',
      context,
    )
    expect(config).toEqual({
      reactStrictMode: true,
      serverExternalPackages: ['sharp', '@cors-dev-proxy/core', '@cors-dev-proxy/next'],
    })
    const again = await withCorsDevProxy(config)('phase-production-build', context)
    expect(again.serverExternalPackages).toEqual(config.serverExternalPackages)
  })

  it("takes Next's function form, with the phase and the default config", async () => {
    const seen: string[] = []
    const wrapped = withCorsDevProxy(async (phase) => {
      seen.push(phase)
      return { basePath: '/app' }
    })
    const config = await wrapped('phase-production-server', context)
    expect(seen).toEqual(['phase-production-server'])
    expect(config.basePath).toBe('/app')
  })

  it('tells serverFetch where next dev listens: the PORT Next sets before it loads the config', async () => {
    process.env.PORT = '4321'
    await withCorsDevProxy({})('phase-production-build', context)
    expect(process.env[SERVER_URL_VARIABLE]).toBeUndefined()
    await withCorsDevProxy({})(PHASE_DEVELOPMENT_SERVER, context)
    expect(process.env[SERVER_URL_VARIABLE]).toBe('http://127.0.0.1:4321')
  })

  it('leaves a URL already published (a custom server, or set by the user) alone', async () => {
    process.env.PORT = '4321'
    process.env[SERVER_URL_VARIABLE] = 'http://127.0.0.1:9999'
    await withCorsDevProxy({})(PHASE_DEVELOPMENT_SERVER, context)
    expect(process.env[SERVER_URL_VARIABLE]).toBe('http://127.0.0.1:9999')
  })

  it.each([
    [
      'a ws route',
      { '/live': { target: 'ws://localhost:3001/socket', ws: true } },
      "routes['/live'].ws",
      /createNextServer/,
    ],
    [
      'on.proxyReq',
      { '/api': { target: 'http://localhost:3001', on: { proxyReq: () => {} } } },
      "routes['/api'].on.proxyReq",
      /headers.*router/,
    ],
  ])(
    'stops next dev when it loads the config on %s, which proxy.ts cannot serve, naming what to use instead',
    async (_name, routes, option, advice) => {
      const wrapped = withCorsDevProxy({}, routes as never)
      const error = await wrapped(PHASE_DEVELOPMENT_SERVER, context).then(
        () => undefined,
        (caught: unknown) => caught,
      )
      expect(error).toBeInstanceOf(CorsDevProxyError)
      expect((error as CorsDevProxyError).option).toBe(option)
      expect((error as Error).message).toMatch(advice)
      expect((error as Error).message).toContain('http://localhost:3001')
      expect((error as Error).stack).toBe(`CorsDevProxyError: ${(error as Error).message}`)
    },
  )

  it('leaves them to the custom server (createNextServer runs Next), and to builds', async () => {
    const routes = { '/live': { target: 'ws://localhost:3001', ws: true } }
    await expect(withCorsDevProxy({}, routes)('phase-production-build', context)).resolves.toBeDefined()
    process.env[NEXT_SERVER_VARIABLE] = '1'
    await expect(withCorsDevProxy({}, routes)(PHASE_DEVELOPMENT_SERVER, context)).resolves.toBeDefined()
  })
})
