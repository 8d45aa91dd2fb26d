import { describe, expect, it } from 'vitest'
import { expectConfigError } from '../../../test/support/config-error.js'
import { NESTED_MISTAKES } from '../../../test/support/nested-mistakes.js'
import { resolveModuleOptions } from '../src/module-options.js'

describe('resolveModuleOptions', () => {
  it('takes the routes alone', () => {
    const resolved = resolveModuleOptions({
      '/api': 'http://localhost:3000',
      '/api/auth': 'http://localhost:4000',
    })
    expect(resolved.routes.map((route) => route.prefix)).toEqual(['/api/auth', '/api'])
  })

  it('takes { routes, ...options }, as cors-dev-proxy.config.* exports it', () => {
    const resolved = resolveModuleOptions({ routes: { '/api': 'http://localhost:3000' }, log: 'debug' })
    expect(resolved.log).toBe('debug')
    expect(resolved.routes.map((route) => route.prefix)).toEqual(['/api'])
  })

  it.each([
    ['nothing (the module listed without corsDevProxy)', {}],
    ['not an object', 'http://localhost:3000'],
  ])('refuses %s, showing a nuxt.config that works', (_title, options) => {
    expectConfigError(() => resolveModuleOptions(options), {
      code: 'INVALID_ROUTES',
      option: 'corsDevProxy',
      contains: ["corsDevProxy: { routes: { '/api': 'http://localhost:3000' } }"],
    })
  })

  it('refuses routes mixed with shared options instead of guessing', () => {
    expectConfigError(() => resolveModuleOptions({ '/api': 'http://localhost:3000', cors: true }), {
      code: 'INVALID_ROUTES',
      option: 'corsDevProxy',
      contains: [
        "'/api'",
        'cors',
        "corsDevProxy: { routes: { '/api': 'http://localhost:3000' }, log: 'info' }",
      ],
    })
  })

  it('passes the core errors on, with the option path, in both shapes', () => {
    expectConfigError(() => resolveModuleOptions({ '/api': 'localhost:3000' }), {
      code: 'INVALID_TARGET',
      option: "routes['/api'].target",
    })
    expectConfigError(
      () => resolveModuleOptions({ routes: { '/api': 'http://localhost:3000' }, lgo: 'debug' }),
      {
        code: 'UNKNOWN_OPTION',
        option: 'options.lgo',
      },
    )
  })

  it.each(NESTED_MISTAKES)(
    'fails at startup on a nested mistake: $title',
    ({ routes, options, code, option, fix }) => {
      expectConfigError(() => resolveModuleOptions({ routes, ...options }), {
        code: code as never,
        option,
        contains: [fix],
      })
    },
  )
})
