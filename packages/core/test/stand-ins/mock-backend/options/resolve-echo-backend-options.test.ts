import { describe, expect, it } from 'vitest'
import { CorsDevProxyError } from '../../../../src/config/errors.js'
import { createMockBackend } from '../../../../src/stand-ins/mock-backend/mock-backend.js'
import type { MockBackendOptions } from '../../../../src/stand-ins/mock-backend/options/echo-backend-options.js'
import { resolveMockBackendOptions } from '../../../../src/stand-ins/mock-backend/options/resolve-echo-backend-options.js'

describe('resolveMockBackendOptions', () => {
  it('fills in the defaults and leaves the caller’s object alone', () => {
    const options: MockBackendOptions = { cors: 'reflect' }
    const resolved = resolveMockBackendOptions(options)
    expect(resolved).toEqual({
      cors: 'reflect',
      jsonpParam: 'callback',
      bodyLimit: 1_048_576,
      logLimit: 1000,
    })
    expect(Object.isFrozen(resolved)).toBe(true)
    expect(options).toEqual({ cors: 'reflect' })
  })

  it.each([
    [{ cors: 'on' }, 'INVALID_OPTION', "routes['/api'].mock.cors", "{ cors: 'reflect' }"],
    [{ jsonpParam: '' }, 'INVALID_OPTION', "routes['/api'].mock.jsonpParam", "{ jsonpParam: 'callback' }"],
    [{ jsonpParam: 'a b' }, 'INVALID_OPTION', "routes['/api'].mock.jsonpParam", "{ jsonpParam: 'callback' }"],
    [{ bodyLimit: -1 }, 'INVALID_OPTION', "routes['/api'].mock.bodyLimit", '{ bodyLimit: 1048576 }'],
    [{ bodyLimit: 1.5 }, 'INVALID_OPTION', "routes['/api'].mock.bodyLimit", '{ bodyLimit: 1048576 }'],
    [{ logLimit: Number.NaN }, 'INVALID_OPTION', "routes['/api'].mock.logLimit", '{ logLimit: 1000 }'],
    [
      { origin: 'http://localhost:5173/' },
      'INVALID_OPTION',
      "routes['/api'].mock.origin",
      "{ cors: 'reflect', origin: 'http://localhost:5173' }",
    ],
    [{ credentials: 'yes' }, 'INVALID_OPTION', "routes['/api'].mock.credentials", '{ credentials: true }'],
    [
      { cros: 'off' },
      'UNKNOWN_OPTION',
      "routes['/api'].mock.cros",
      "did you mean `cors`?\n  Fix it like this: { mock: { cors: 'reflect' } }",
    ],
    ['yes', 'INVALID_OPTION', "routes['/api'].mock", "{ mock: { cors: 'reflect' } }"],
  ])(
    'refuses %j at construction with a code, the option and an example',
    (options, code, option, example) => {
      let error: unknown
      try {
        resolveMockBackendOptions(options as MockBackendOptions, "routes['/api'].mock")
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(CorsDevProxyError)
      expect(error).toMatchObject({ code, option })
      expect((error as Error).message).toContain(example)
    },
  )

  it('createMockBackend validates too, with an example written as its caller writes it', () => {
    expect(() => createMockBackend({ cors: 'yes' as 'off' })).toThrow(CorsDevProxyError)
    expect(() => createMockBackend({ bodyLimit: -5 })).toThrow(
      '[cors-dev-proxy] mock.bodyLimit must be a whole number of bytes (0 or more), got a number (-5)\n  Fix it like this: createMockBackend({ bodyLimit: 1048576 })',
    )
  })

  it('uses the jsonp.param rule for jsonpParam', () => {
    expect(resolveMockBackendOptions({ jsonpParam: 'cb.v2~x' }).jsonpParam).toBe('cb.v2~x')
    expect(() => resolveMockBackendOptions({ jsonpParam: 'x'.repeat(65) })).toThrow('1 to 64')
  })
})
