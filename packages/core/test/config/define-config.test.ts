import { describe, expect, it } from 'vitest'
import { defineConfig, splitConfig } from '../../src/config/define-config.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { forwardRoute } from '../support/resolved.js'

describe('defineConfig and the one-object form', () => {
  it('returns the config as it is', () => {
    const config = { routes: { '/api': 'http://localhost:3000' }, log: 'debug' as const }
    expect(defineConfig(config)).toBe(config)
  })

  it('names a misspelt option at compile time (pnpm typecheck fails on an unused directive)', () => {
    const typo = () =>
      // @ts-expect-error `corz` is not an option: the object literal is checked against the config type
      defineConfig({ routes: { '/api': 'http://localhost:3000' }, corz: true })
    expect(() => resolveOptions(typo() as never)).toThrow('corz')
  })

  it('splits { routes, ...options } and leaves (routes, options) alone', () => {
    const routes = { '/api': 'http://localhost:3000' }
    expect(splitConfig({ routes, cors: true })).toEqual([routes, { cors: true }])
    expect(splitConfig(routes, { log: 'silent' })).toEqual([routes, { log: 'silent' }])
    expect(splitConfig(routes)).toEqual([routes, undefined])
  })

  it('resolves the same either way, and names options where the one object has them', () => {
    const one = resolveOptions({
      routes: { '/api': 'http://localhost:3000' },
      changeOrigin: false,
      log: 'warn',
    })
    const two = resolveOptions({ '/api': 'http://localhost:3000' }, { changeOrigin: false, log: 'warn' })
    expect(forwardRoute(one.routes[0]).changeOrigin).toBe(false)
    expect(one.log).toBe(two.log)
    expect(() =>
      resolveOptions({ routes: { '/api': 'http://localhost:3000' }, chageOrigin: false } as never),
    ).toThrow('did you mean `changeOrigin`?')
  })
})
