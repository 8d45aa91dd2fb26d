import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type RunningMockBackend,
  startMockBackend,
} from '../../../src/stand-ins/mock-backend/start-mock-backend.js'

const ORIGIN = 'http://localhost:5173'
const PREFLIGHT_PUT = { origin: ORIGIN, 'access-control-request-method': 'PUT' }

let mock: RunningMockBackend
let reflectMock: RunningMockBackend
let fixedOriginMock: RunningMockBackend
let credentialsMock: RunningMockBackend
const agent = new Agent()

beforeAll(async () => {
  mock = await startMockBackend()
  reflectMock = await startMockBackend({ cors: 'reflect' })
  fixedOriginMock = await startMockBackend({ cors: 'reflect', origin: 'http://localhost:3000' })
  credentialsMock = await startMockBackend({ cors: 'wildcard', credentials: true })
})
afterAll(async () => {
  await agent.close()
  await mock.close()
  await reflectMock.close()
  await fixedOriginMock.close()
  await credentialsMock.close()
})

async function send(path: string, method: string, headers: Record<string, string>, base = mock) {
  const res = await request(new URL(path, base.url), { method, headers, dispatcher: agent })
  await res.body.dump()
  return { status: res.statusCode, headers: res.headers }
}

const CORS_HEADERS = [
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-expose-headers',
  'access-control-max-age',
  'vary',
] as const

function corsHeadersOf(headers: Record<string, string | string[] | undefined>) {
  return Object.fromEntries(
    CORS_HEADERS.filter((name) => headers[name] !== undefined).map((n) => [n, headers[n]]),
  )
}

describe('mock backend CORS on actual responses', () => {
  it.each([
    ['/x', {}],
    ['/x?cors=off&credentials=true&expose=x-a', {}],
    ['/x?cors=wildcard', { 'access-control-allow-origin': '*' }],
    [
      '/x?cors=wildcard&credentials=true',
      { 'access-control-allow-origin': '*', 'access-control-allow-credentials': 'true' },
    ],
    [
      '/x?cors=reflect',
      { 'access-control-allow-origin': ORIGIN, 'access-control-allow-credentials': 'true', vary: 'Origin' },
    ],
    ['/x?cors=reflect&credentials=false', { 'access-control-allow-origin': ORIGIN, vary: 'Origin' }],
    [
      '/x?cors=wildcard&expose=x-a,x-b',
      { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'x-a, x-b' },
    ],
  ])('GET %s', async (path, expected) => {
    const res = await send(path, 'GET', { origin: ORIGIN })
    expect(res.status).toBe(200)
    expect(corsHeadersOf(res.headers)).toEqual(expected)
  })

  it('uses the default mode of the backend when the request chooses none', async () => {
    const res = await send('/x', 'GET', { origin: ORIGIN }, reflectMock)
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN)
    const off = await send('/x?cors=off', 'GET', { origin: ORIGIN }, reflectMock)
    expect(off.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('sends the fixed origin of `origin` in reflect mode, whatever the request says', async () => {
    const res = await send('/x', 'GET', { origin: ORIGIN }, fixedOriginMock)
    expect(corsHeadersOf(res.headers)).toEqual({
      'access-control-allow-origin': 'http://localhost:3000',
      'access-control-allow-credentials': 'true',
      vary: 'Origin',
    })
    const preflight = await send('/x', 'OPTIONS', PREFLIGHT_PUT, fixedOriginMock)
    expect(preflight.headers['access-control-allow-origin']).toBe('http://localhost:3000')
    const wildcard = await send('/x?cors=wildcard', 'GET', { origin: ORIGIN }, fixedOriginMock)
    expect(wildcard.headers['access-control-allow-origin']).toBe('*')
  })

  it('takes `credentials` as the default of ?credentials=, which a request still overrides', async () => {
    const res = await send('/x', 'GET', { origin: ORIGIN }, credentialsMock)
    expect(corsHeadersOf(res.headers)).toEqual({
      'access-control-allow-origin': '*',
      'access-control-allow-credentials': 'true',
    })
    const off = await send('/x?credentials=false', 'GET', { origin: ORIGIN }, credentialsMock)
    expect(corsHeadersOf(off.headers)).toEqual({ 'access-control-allow-origin': '*' })
  })

  it('reflect without an Origin sends no allow-origin but still Vary: Origin', async () => {
    const res = await send('/x?cors=reflect', 'GET', {})
    expect(corsHeadersOf(res.headers)).toEqual({ 'access-control-allow-credentials': 'true', vary: 'Origin' })
  })
})

describe('mock backend preflights', () => {
  it.each([
    ['/x', PREFLIGHT_PUT, 204, {}],
    [
      '/x?cors=wildcard',
      { ...PREFLIGHT_PUT, 'access-control-request-headers': 'content-type,x-foo' },
      204,
      {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
        'access-control-allow-headers': 'content-type,x-foo',
        vary: 'Access-Control-Request-Headers',
      },
    ],
    [
      '/x?cors=reflect&allowMethods=GET,POST&allowHeaders=content-type&maxAge=600',
      { ...PREFLIGHT_PUT, 'access-control-request-headers': 'content-type,x-foo' },
      204,
      {
        'access-control-allow-origin': ORIGIN,
        'access-control-allow-credentials': 'true',
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'content-type',
        'access-control-max-age': '600',
        vary: 'Origin',
      },
    ],
    [
      '/x?cors=reflect&allowMethods=',
      PREFLIGHT_PUT,
      204,
      {
        'access-control-allow-origin': ORIGIN,
        'access-control-allow-credentials': 'true',
        vary: 'Origin, Access-Control-Request-Headers',
      },
    ],
    [
      '/x?cors=wildcard&preflight=fail',
      PREFLIGHT_PUT,
      500,
      {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
        vary: 'Access-Control-Request-Headers',
      },
    ],
    ['/x?preflight=fail', PREFLIGHT_PUT, 500, {}],
  ])('OPTIONS %s', async (path, headers, status, expected) => {
    const res = await send(path, 'OPTIONS', headers)
    expect(res.status).toBe(status)
    expect(corsHeadersOf(res.headers)).toEqual(expected)
  })

  it('ignores ?status= and ?delay= on the preflight, so only the actual request fails', async () => {
    const res = await send('/x?cors=wildcard&status=500&delay=10000', 'OPTIONS', PREFLIGHT_PUT)
    expect(res.status).toBe(204)
  })

  it('echoes an OPTIONS that is not a preflight instead of answering it as one', async () => {
    const res = await request(new URL('/x?cors=wildcard', mock.url), {
      method: 'OPTIONS',
      headers: { origin: ORIGIN },
      dispatcher: agent,
    })
    expect(res.statusCode).toBe(200)
    expect(await res.body.json()).toMatchObject({ method: 'OPTIONS', path: '/x' })
  })

  it('records preflights in the log as such', async () => {
    await send('/logged?cors=wildcard', 'OPTIONS', PREFLIGHT_PUT)
    const entry = mock.log.findLast((e) => e.path === '/logged?cors=wildcard')
    expect(entry).toMatchObject({
      method: 'OPTIONS',
      preflight: true,
      status: 204,
      handled: true,
      origin: ORIGIN,
    })
  })
})

describe('mock backend switches for the browser matrix', () => {
  it.each([
    ['/x?cors=reflect&allowCredentials=True', 'True'],
    ['/x?cors=reflect&allowCredentials=1', '1'],
    ['/x?cors=wildcard&allowCredentials=true', 'true'],
    ['/x?cors=reflect&allowCredentials=', ''],
  ])(
    '%s sends Access-Control-Allow-Credentials as written, on the answer and the preflight',
    async (path, value) => {
      const res = await send(path, 'GET', { origin: ORIGIN })
      expect(res.headers['access-control-allow-credentials']).toBe(value)
      const preflight = await send(path, 'OPTIONS', PREFLIGHT_PUT)
      expect(preflight.headers['access-control-allow-credentials']).toBe(value)
    },
  )

  it('sends no Access-Control-Allow-Credentials with cors=off, whatever allowCredentials says', async () => {
    const res = await send('/x?cors=off&allowCredentials=true', 'GET', { origin: ORIGIN })
    expect(res.headers['access-control-allow-credentials']).toBeUndefined()
  })

  it.each([
    ['/x?cors=reflect&preflightStatus=200', 200],
    ['/x?cors=reflect&preflightStatus=299', 299],
    ['/x?cors=reflect&preflightStatus=404', 404],
    ['/x?cors=reflect&preflightStatus=302', 302],
    ['/x?cors=reflect&preflightStatus=204&preflight=fail', 204],
  ])('%s answers the preflight %i with the CORS headers, the request still 200', async (path, status) => {
    const preflight = await send(path, 'OPTIONS', PREFLIGHT_PUT)
    expect(preflight.status).toBe(status)
    expect(preflight.headers['access-control-allow-origin']).toBe(ORIGIN)
    expect(preflight.headers['access-control-allow-methods']).toBe('GET,HEAD,PUT,PATCH,POST,DELETE')
    expect((await send(path, 'GET', { origin: ORIGIN })).status).toBe(200)
  })

  it('adds header= lines to the answer and the preflight, two lines for a name given twice', async () => {
    const path =
      '/x?cors=reflect&header=X-Custom:1&header=Access-Control-Allow-Origin:http://a.test&header=access-control-allow-origin:http://b.test'
    const raw = await request(new URL(path, mock.url), { headers: { origin: ORIGIN }, dispatcher: agent })
    await raw.body.dump()
    expect(raw.headers['x-custom']).toBe('1')
    // undici keeps repeated lines as an array: two lines on the wire, the mode's value replaced.
    expect(raw.headers['access-control-allow-origin']).toEqual(['http://a.test', 'http://b.test'])
    const preflight = await send(
      `${path}&header=Access-Control-Allow-Methods:PUT%20x`,
      'OPTIONS',
      PREFLIGHT_PUT,
    )
    expect(preflight.headers['x-custom']).toBe('1')
    expect(preflight.headers['access-control-allow-methods']).toBe('PUT x')
  })

  it('sends header= lines with cors=off too, and keeps the body its own Content-Type', async () => {
    const res = await send('/x?cors=off&header=Cache-Control:no-store&header=Content-Type:text/x', 'GET', {})
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  })

  it('sends a Location given with header= on a 3xx preflight', async () => {
    const res = await send(
      '/x?cors=reflect&preflightStatus=307&header=Location:/elsewhere',
      'OPTIONS',
      PREFLIGHT_PUT,
    )
    expect(res.status).toBe(307)
    expect(res.headers.location).toBe('/elsewhere')
  })
})
