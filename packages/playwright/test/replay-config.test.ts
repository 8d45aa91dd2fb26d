import { describe, expect, it } from 'vitest'
import { replayConfig } from '../src/replay-config.js'

describe('replayConfig', () => {
  it("forces replay: 'only' on forwarding routes, leaves mock routes, turns the inspector and overlay off", () => {
    const proxyReq = () => undefined
    const proxyRes = () => undefined
    const on = { proxyReq, proxyRes }
    const written = {
      routes: {
        '/api': 'http://localhost:3000',
        '/auth': {
          target: 'http://localhost:4000',
          record: true,
          replay: 'fallback' as const,
          on,
          configure: () => {},
        },
        '/echo': { mock: true },
      },
      on,
      log: 'debug' as const,
    }
    const config = replayConfig(written, 'replay')
    expect(config.routes).toEqual({
      '/api': { target: 'http://localhost:3000', replay: 'only' },
      '/auth': { target: 'http://localhost:4000', replay: 'only', on: { proxyRes } },
      '/echo': { mock: true },
    })
    expect(config).toMatchObject({ inspector: false, overlay: false, log: 'debug', on: { proxyRes } })
    expect(config.on).not.toHaveProperty('proxyReq')
    // The caller's objects are untouched.
    expect(written.on).toEqual({ proxyReq, proxyRes })
    expect(written.routes['/auth']).toMatchObject({ record: true, replay: 'fallback' })
  })

  it("gives record: 'missing' under 'missing', and logs at 'warn' unless told", () => {
    const config = replayConfig(
      { routes: { '/api': { target: 'http://localhost:3000', replay: 'only' } } },
      'missing',
    )
    expect(config.routes).toEqual({ '/api': { target: 'http://localhost:3000', record: 'missing' } })
    expect(config.log).toBe('warn')
  })
})
