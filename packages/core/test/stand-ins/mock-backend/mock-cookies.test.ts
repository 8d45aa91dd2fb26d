import { Agent, request } from 'undici'
import { afterEach, describe, expect, it } from 'vitest'
import { localhostCertificate } from '../../../../../test/support/tls.js'
import { parseCookieHeader } from '../../../src/stand-ins/mock-backend/mock-cookies.js'
import {
  type RunningMockBackend,
  startMockBackend,
} from '../../../src/stand-ins/mock-backend/start-mock-backend.js'

describe('parseCookieHeader', () => {
  it.each([
    [undefined, {}],
    ['', {}],
    ['a=1', { a: '1' }],
    ['a=1; b=2;c=3', { a: '1', b: '2', c: '3' }],
    ['a=1; a=2', { a: '1' }],
    ['a=x=y', { a: 'x=y' }],
    ['novalue; =bare; b=', { b: '' }],
  ])('%j', (header, expected) => {
    expect(parseCookieHeader(header)).toEqual(expected)
  })
})

describe('/cookie', () => {
  let mock: RunningMockBackend | undefined
  afterEach(async () => {
    await mock?.close()
    mock = undefined
  })

  it('sets a SameSite=Lax cookie over http and reads cookies back', async () => {
    mock = await startMockBackend()
    const set = await request(`${mock.origin}/cookie?set=session=abc123&set=theme=dark`)
    expect(set.statusCode).toBe(200)
    expect(set.headers['set-cookie']).toEqual([
      'session=abc123; Path=/; HttpOnly; SameSite=Lax',
      'theme=dark; Path=/; HttpOnly; SameSite=Lax',
    ])
    expect(await set.body.json()).toEqual({ cookies: { session: 'abc123', theme: 'dark' } })

    const read = await request(`${mock.origin}/cookie`, { headers: { cookie: 'session=abc123' } })
    expect(read.headers['set-cookie']).toBeUndefined()
    expect(await read.body.json()).toEqual({ cookies: { session: 'abc123' } })
  })

  it('sets SameSite=None; Secure over https, so the cookie travels cross-site', async () => {
    const { cert, key } = await localhostCertificate()
    mock = await startMockBackend({ https: { cert, key } })
    const agent = new Agent({ connect: { ca: cert } })
    try {
      const res = await request(`${mock.origin}/cookie?set=s=1`, { dispatcher: agent })
      expect(res.headers['set-cookie']).toBe('s=1; Path=/; HttpOnly; SameSite=None; Secure')
      await res.body.dump()
    } finally {
      await agent.close()
    }
  })

  it('adds ?domain= to each cookie it sets, as a backend on another host would', async () => {
    mock = await startMockBackend()
    const res = await request(`${mock.origin}/cookie?set=a=1&set=b=2&domain=api.example`)
    expect(res.headers['set-cookie']).toEqual([
      'a=1; Domain=api.example; Path=/; HttpOnly; SameSite=Lax',
      'b=2; Domain=api.example; Path=/; HttpOnly; SameSite=Lax',
    ])
    await res.body.dump()
  })

  it('clears a cookie with Max-Age=0', async () => {
    mock = await startMockBackend()
    const res = await request(`${mock.origin}/cookie?clear=session`, {
      headers: { cookie: 'session=1; other=2' },
    })
    expect(res.headers['set-cookie']).toBe('session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax')
    expect(await res.body.json()).toEqual({ cookies: { other: '2' } })
  })

  it.each([
    ['set=bad name=1'],
    ['set=a=1;Domain=evil.example'],
    ['set=a=x,y'],
    ['set==novalue'],
    ['clear=a;b'],
    ['set=a=1&domain=evil.example;Secure'],
    ['set=a=1&domain=.'],
  ])('refuses %s with 400 instead of writing it into Set-Cookie', async (query) => {
    mock = await startMockBackend()
    const res = await request(`${mock.origin}/cookie?${query.replace(/ /g, '%20').replace(/;/g, '%3B')}`)
    expect(res.statusCode).toBe(400)
    expect(res.headers['set-cookie']).toBeUndefined()
    expect(await res.body.json()).toHaveProperty('error')
  })

  it('honours ?status= and the CORS switches', async () => {
    mock = await startMockBackend()
    const res = await request(`${mock.origin}/cookie?status=201&cors=reflect`, {
      headers: { origin: 'http://localhost:5173' },
    })
    expect(res.statusCode).toBe(201)
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173')
    expect(res.headers['access-control-allow-credentials']).toBe('true')
    await res.body.dump()
  })
})
