import { describe, expect, it } from 'vitest'
import { expectConfigError } from '../../../../test/support/config-error.js'
import {
  checkBoolean,
  checkCookieRewrite,
  checkJsonp,
  checkLogLevel,
  checkLogSink,
  checkPathRewrite,
  checkTimeout,
} from '../../src/config/validate-values.js'

const at = "routes['/api'].x"

describe('checkBoolean', () => {
  it.each([undefined, true, false])('%s is accepted', (value) => {
    expect(checkBoolean(value, at, 'x')).toBe(value)
  })
  it.each([
    ['true', '{ x: true }'],
    [0, '{ x: false }'],
    [null, '{ x: false }'],
  ])('%j is refused', (value, example) => {
    expectConfigError(() => checkBoolean(value, at, 'x'), {
      code: 'INVALID_OPTION',
      option: at,
      contains: ['must be true or false', example],
    })
  })
  it('throws the code of the option it checks (a CORS policy: INVALID_CORS)', () => {
    expectConfigError(
      () => checkBoolean('yes', "routes['/api'].cors.credentials", 'credentials', 'INVALID_CORS'),
      {
        code: 'INVALID_CORS',
        option: "routes['/api'].cors.credentials",
        contains: ['must be true or false', '{ credentials: true }'],
      },
    )
  })
})

describe('checkTimeout', () => {
  it.each([undefined, 1, 1.5, 30_000, 2_147_483_647])('%s is accepted', (value) => {
    expect(checkTimeout(value, at)).toBe(value)
  })
  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2_147_483_648, '30000', null])(
    '%j is refused',
    (value) => {
      expectConfigError(() => checkTimeout(value, at), {
        code: 'INVALID_OPTION',
        option: at,
        contains: ['positive number of milliseconds', '{ timeout: 30000 }'],
      })
    },
  )
})

describe('checkPathRewrite', () => {
  it('accepts undefined, false, a function and an object of strings (copied, frozen)', () => {
    const fn = (path: string) => path
    const rules = { '^/api': '' }
    expect(checkPathRewrite(undefined, at)).toBeUndefined()
    expect(checkPathRewrite(false, at)).toBe(false)
    expect(checkPathRewrite(fn, at)).toBe(fn)
    const copy = checkPathRewrite(rules, at)
    expect(copy).toEqual(rules)
    expect(copy).not.toBe(rules)
    expect(Object.isFrozen(copy)).toBe(true)
    expect(Object.isFrozen(rules)).toBe(false)
  })
  it.each([
    [true, at, 'must be false (keep the prefix), an object of RegExp'],
    ['/v2', at, 'must be false (keep the prefix), an object of RegExp'],
    [/^\/api/, at, 'must be false (keep the prefix), an object of RegExp'],
    [{ '^/api': 1 }, `${at}['^/api']`, 'must be a replacement string'],
  ])('%j is refused', (value, option, problem) => {
    expectConfigError(() => checkPathRewrite(value, at), {
      code: 'INVALID_OPTION',
      option,
      contains: [problem, 'pathRewrite:'],
    })
  })
})

describe('checkCookieRewrite', () => {
  it.each([undefined, false, '', 'localhost'])('domain %j is accepted', (value) => {
    expect(checkCookieRewrite(value, at, 'domain')).toBe(value)
  })
  it('copies and freezes an object', () => {
    const map = { 'api.example.com': 'localhost', '*': '' }
    const copy = checkCookieRewrite(map, at, 'domain')
    expect(copy).toEqual(map)
    expect(copy).not.toBe(map)
    expect(Object.isFrozen(copy)).toBe(true)
  })
  it.each([
    [true, 'domain', at, 'must be false, a string or an object'],
    [1, 'domain', at, 'must be false, a string or an object'],
    ['x; Secure', 'domain', at, 'must not contain ;'],
    [{ a: 'b\r\n' }, 'domain', `${at}['a']`, 'must not contain ;'],
    [{ a: 2 }, 'domain', `${at}['a']`, 'must be a string'],
    ['api', 'path', at, "a path starting with '/'"],
    [{ '/v1': 'api' }, 'path', `${at}['/v1']`, "a path starting with '/'"],
  ] as const)('%j (%s) is refused', (value, kind, option, problem) => {
    expectConfigError(() => checkCookieRewrite(value, at, kind), {
      code: 'INVALID_OPTION',
      option,
      contains: [problem, 'Rewrite:'],
    })
  })
})

describe('checkJsonp', () => {
  it.each([
    [undefined, undefined],
    [false, false],
    [true, { param: 'callback' }],
    [{}, { param: 'callback' }],
    [{ param: 'cb' }, { param: 'cb' }],
    [{ param: 'jsonp_callback.v2~$-' }, { param: 'jsonp_callback.v2~$-' }],
  ])('%j → %j', (value, expected) => {
    expect(checkJsonp(value, at)).toEqual(expected)
  })
  it.each([
    ['cb', at, 'must be true, false or { param }'],
    [{ param: '' }, `${at}.param`, 'must be a query parameter name'],
    [{ param: 'a&b' }, `${at}.param`, 'must be a query parameter name'],
    [{ param: 'a=b' }, `${at}.param`, 'must be a query parameter name'],
    [{ param: 'a b' }, `${at}.param`, 'must be a query parameter name'],
    [{ param: 'x'.repeat(65) }, `${at}.param`, 'must be a query parameter name'],
    [{ param: 1 }, `${at}.param`, 'must be a query parameter name'],
  ])('%j is refused', (value, option, problem) => {
    expectConfigError(() => checkJsonp(value, at), {
      code: 'INVALID_OPTION',
      option,
      contains: [problem, "{ jsonp: { param: 'callback' } }"],
    })
  })
  it('refuses unknown keys inside jsonp', () => {
    expectConfigError(() => checkJsonp({ parma: 'cb' }, at), {
      code: 'UNKNOWN_OPTION',
      option: `${at}.parma`,
      contains: ['did you mean `param`?'],
    })
  })
})

describe('checkLogLevel and checkLogSink', () => {
  it.each(['silent', 'error', 'warn', 'info', 'debug', undefined])('level %s is accepted', (level) => {
    expect(checkLogLevel(level, 'options.log')).toBe(level)
  })
  it.each(['verbose', 'INFO', 3, true])('level %j is refused', (level) => {
    expectConfigError(() => checkLogLevel(level, 'options.log'), {
      code: 'INVALID_OPTION',
      option: 'options.log',
      contains: ["must be one of 'silent', 'error', 'warn', 'info', 'debug'", "{ log: 'debug' }"],
    })
  })
  it('accepts console and any object with info, warn and error', () => {
    expect(checkLogSink(console, 'options.logger')).toBe(console)
    const sink = { info() {}, warn() {}, error() {} }
    expect(checkLogSink(sink, 'options.logger')).toBe(sink)
  })
  it.each([{ info() {}, warn() {} }, 'console', null, () => {}])('sink %j is refused', (sink) => {
    expectConfigError(() => checkLogSink(sink, 'options.logger'), {
      code: 'INVALID_OPTION',
      option: 'options.logger',
      contains: ['must have info, warn and error methods', '{ logger: console }'],
    })
  })
})
