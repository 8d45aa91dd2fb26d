import { describe, expect, it } from 'vitest'
import { parseMockSwitches } from '../../../src/stand-ins/mock-backend/mock-switches.js'

const none = {
  cors: undefined,
  status: undefined,
  delay: 0,
  preflightFail: false,
  allowMethods: undefined,
  allowHeaders: undefined,
  allowOrigin: undefined,
  expose: undefined,
  credentials: undefined,
  maxAge: undefined,
  redirect: undefined,
  preflightStatus: undefined,
  allowCredentials: undefined,
  headers: [],
}

describe('parseMockSwitches', () => {
  it.each([
    ['', {}],
    ['unrelated=1&callback=cb', {}],
    ['cors=off', { cors: 'off' }],
    ['cors=wildcard', { cors: 'wildcard' }],
    ['cors=reflect', { cors: 'reflect' }],
    ['status=200', { status: 200 }],
    ['status=418', { status: 418 }],
    ['status=599', { status: 599 }],
    ['delay=0', { delay: 0 }],
    ['delay=10000', { delay: 10_000 }],
    ['preflight=fail', { preflightFail: true }],
    ['preflight=ok', { preflightFail: false }],
    ['allowMethods=GET,POST', { allowMethods: 'GET, POST' }],
    ['allowMethods=GET,%20patch', { allowMethods: 'GET, patch' }],
    ['allowMethods=*', { allowMethods: '*' }],
    ['allowMethods=', { allowMethods: '' }],
    ['allowHeaders=content-type', { allowHeaders: 'content-type' }],
    ['allowHeaders=content-type,x-foo', { allowHeaders: 'content-type, x-foo' }],
    ['expose=x-a,x-b', { expose: 'x-a, x-b' }],
    ['allowOrigin=http://example.com', { allowOrigin: 'http://example.com' }],
    ['allowOrigin=http://a.test,%20http://b.test', { allowOrigin: 'http://a.test, http://b.test' }],
    ['allowOrigin=null', { allowOrigin: 'null' }],
    ['credentials=true', { credentials: true }],
    ['credentials=false', { credentials: false }],
    ['maxAge=0', { maxAge: 0 }],
    ['maxAge=7200', { maxAge: 7200 }],
    ['cors=reflect&status=404&delay=5', { cors: 'reflect', status: 404, delay: 5 }],
    ['redirect=/next', { redirect: '/next' }],
    ['redirect=%2Fnext%3Fa%3D1', { redirect: '/next?a=1' }],
    ['redirect=http://127.0.0.1:4000/x', { redirect: 'http://127.0.0.1:4000/x' }],
    ['preflightStatus=200', { preflightStatus: 200 }],
    ['preflightStatus=302&preflight=fail', { preflightStatus: 302, preflightFail: true }],
    ['allowCredentials=True', { allowCredentials: 'True' }],
    ['allowCredentials=%20true', { allowCredentials: ' true' }],
    ['allowCredentials=', { allowCredentials: '' }],
    ['header=X-Custom:1', { headers: [['X-Custom', '1']] }],
    ['header=X-Empty:', { headers: [['X-Empty', '']] }],
    ['header=Location:/x%3Fa%3Db:c', { headers: [['Location', '/x?a=b:c']] }],
    [
      'header=Access-Control-Allow-Origin:http://a.test&header=access-control-allow-origin:%20http://b.test',
      {
        headers: [
          ['Access-Control-Allow-Origin', 'http://a.test'],
          ['access-control-allow-origin', ' http://b.test'],
        ],
      },
    ],
  ])('accepts %j', (query, expected) => {
    expect(parseMockSwitches(new URLSearchParams(query))).toEqual({
      ok: true,
      switches: { ...none, ...expected },
    })
  })

  it.each([
    ['cors=on', 'cors', 'off | wildcard | reflect'],
    ['cors=', 'cors', 'off | wildcard | reflect'],
    ['cors=Reflect', 'cors', 'off | wildcard | reflect'],
    ['status=99', 'status', 'an integer from 200 to 599'],
    ['status=600', 'status', 'an integer from 200 to 599'],
    ['status=20x', 'status', 'an integer from 200 to 599'],
    ['status=-200', 'status', 'an integer from 200 to 599'],
    ['delay=10001', 'delay', 'milliseconds from 0 to 10000'],
    ['delay=1.5', 'delay', 'milliseconds from 0 to 10000'],
    ['preflight=yes', 'preflight', 'fail | ok'],
    ['allowMethods=GET POST', 'allowMethods', 'comma-separated methods (e.g. GET,POST) or *'],
    ['allowHeaders=x(foo)', 'allowHeaders', 'comma-separated header names (e.g. content-type) or *'],
    ['expose=*', 'expose', 'comma-separated header names (e.g. x-a,x-b)'],
    ['credentials=1', 'credentials', 'true | false'],
    ['maxAge=86401', 'maxAge', 'seconds from 0 to 86400'],
    ['maxAge=1e3', 'maxAge', 'seconds from 0 to 86400'],
    ['preflightStatus=101', 'preflightStatus', 'an integer from 200 to 599'],
    ['preflightStatus=600', 'preflightStatus', 'an integer from 200 to 599'],
    ['allowCredentials=a%0Ab', 'allowCredentials', 'a printable header value (e.g. True)'],
    ['header=X-Custom', 'header', 'Name:value (e.g. X-Custom:1), repeatable'],
    ['header=:1', 'header', 'Name:value (e.g. X-Custom:1), repeatable'],
    ['header=X%20Y:1', 'header', 'Name:value (e.g. X-Custom:1), repeatable'],
    ['header=X-A:1&header=X-B:a%0Db', 'header', 'Name:value (e.g. X-Custom:1), repeatable'],
    ...['//evil.example/x', '/%5Cevil.example', 'next', 'javascript:alert(1)', '/a%20b', '/a%0d%0ab', ''].map(
      (value) => [`redirect=${value}`, 'redirect', 'a path (e.g. /next) or an http(s) URL on this server'],
    ),
  ])('refuses %j, naming the switch and its allowed values', (query, name, allowed) => {
    const result = parseMockSwitches(new URLSearchParams(query))
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.switch).toBe(name)
    expect(result.error.allowed).toBe(allowed)
    expect(result.error.error).toContain(`switch "${name}"`)
    expect(result.error.error).toContain(allowed)
  })

  it('refuses a switch given twice instead of picking one', () => {
    const result = parseMockSwitches(new URLSearchParams('status=200&status=500'))
    expect(result).toMatchObject({
      ok: false,
      error: { switch: 'status', error: 'switch "status" is given twice' },
    })
  })
})
