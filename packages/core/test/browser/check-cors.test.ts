import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { refusedUrl } from '../../../../test/support/refused-port.js'
import { checkCors } from '../../src/browser/check-cors.js'
import {
  type RunningMockBackend,
  startMockBackend,
} from '../../src/stand-ins/mock-backend/start-mock-backend.js'

const origin = 'http://localhost:5173'
let backend: RunningMockBackend

beforeAll(async () => {
  backend = await startMockBackend({ port: 0, cors: 'reflect' })
})
afterAll(() => backend.close())

const requestsFor = (tag: string) => backend.log.filter((entry) => entry.path.includes(`tag=${tag}`))

describe('checkCors sends what the browser would send', () => {
  test('a simple GET: no preflight, allowed with a reflected origin', async () => {
    const verdict = await checkCors({ url: `${backend.origin}/items?tag=simple`, origin })
    expect(verdict).toMatchObject({ allowed: true, preflight: false })
    expect(requestsFor('simple').map((entry) => entry.method)).toEqual(['GET'])
    expect(requestsFor('simple')[0]?.origin).toBe(origin)
  })

  test('a simple GET to a backend without CORS: blocked, in Chromium words', async () => {
    const url = `${backend.origin}/items?cors=off&tag=off`
    const verdict = await checkCors({ url, origin })
    expect(verdict.allowed).toBe(false)
    expect(verdict.message).toBe(
      `Access to fetch at '${url}' from origin '${origin}' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.`,
    )
    expect(verdict.response?.status).toBe(200)
  })

  test('a PUT with JSON: preflight with the request method and sorted header names, then the PUT', async () => {
    const url = `${backend.origin}/items/1?tag=put`
    const verdict = await checkCors({
      url,
      origin,
      method: 'put',
      headers: { 'X-Foo': '1', 'Content-Type': 'application/json' },
      body: '{"a":1}',
    })
    expect(verdict).toMatchObject({ allowed: true, preflight: true })
    const [preflight, put] = requestsFor('put')
    expect(preflight?.method).toBe('OPTIONS')
    expect(preflight?.requestHeaders['access-control-request-method']).toBe('PUT')
    expect(preflight?.requestHeaders['access-control-request-headers']).toBe('content-type,x-foo')
    expect(preflight?.requestHeaders.cookie).toBeUndefined()
    expect(put?.method).toBe('PUT')
  })

  test('a header set twice is sent once, with the combined value the browser sends', async () => {
    const url = `${backend.origin}/items?tag=combined`
    const verdict = await checkCors({
      url,
      origin,
      headers: [
        ['Accept', 'a'],
        ['accept', 'b'],
      ],
    })
    expect(verdict).toMatchObject({ allowed: true, preflight: false })
    expect(requestsFor('combined').map((entry) => entry.requestHeaders.accept)).toEqual(['a, b'])
  })

  test('a forbidden method: nothing is sent, and the verdict carries the TypeError fetch throws', async () => {
    const verdict = await checkCors({ url: `${backend.origin}/items?tag=trace`, origin, method: 'TRACE' })
    expect(verdict).toMatchObject({
      allowed: false,
      preflight: false,
      scriptError: "TypeError: Failed to execute 'fetch' on 'Window': 'TRACE' HTTP method is unsupported.",
    })
    expect(verdict.message).toBeUndefined()
    expect(requestsFor('trace')).toEqual([])
  })

  test('a same-origin PUT with JSON: no preflight, as the browser sends none, and allowed', async () => {
    const url = `${backend.origin}/items/1?cors=off&tag=same`
    const verdict = await checkCors({
      url,
      origin: backend.origin,
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
    })
    expect(verdict).toMatchObject({ allowed: true, preflight: false })
    expect(requestsFor('same').map((entry) => entry.method)).toEqual(['PUT'])
  })

  test('a header the preflight does not allow: blocked at the preflight, the request is never sent', async () => {
    const url = `${backend.origin}/items/1?allowHeaders=content-type&tag=hdr`
    const verdict = await checkCors({
      url,
      origin,
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-foo': '1' },
    })
    expect(verdict).toMatchObject({ allowed: false, stage: 'preflight' })
    expect(verdict.message).toContain(
      'Request header field x-foo is not allowed by Access-Control-Allow-Headers in preflight response.',
    )
    expect(requestsFor('hdr').map((entry) => entry.method)).toEqual(['OPTIONS'])
  })

  test('credentials with a wildcard origin: blocked', async () => {
    const verdict = await checkCors({
      url: `${backend.origin}/cookie?cors=wildcard`,
      origin,
      credentials: true,
    })
    expect(verdict.allowed).toBe(false)
    expect(verdict.message).toContain(
      "must not be the wildcard '*' when the request's credentials mode is 'include'",
    )
  })

  test('an unreachable server: a network error, not a CORS verdict', async () => {
    const url = `${await refusedUrl()}/x`
    const verdict = await checkCors({ url, origin })
    expect(verdict.allowed).toBe(false)
    expect(verdict.networkError).toMatch(/ECONNREFUSED/)
  })

  test('a preflight answered 300 with a Location is "not ok", not a redirect; 307 with one is a redirect', async () => {
    const call = { origin, method: 'PUT', headers: { 'Content-Type': 'application/json' } }
    const notOk = await checkCors({
      ...call,
      url: `${backend.origin}/x?preflightStatus=300&header=Location:/y&tag=p300`,
    })
    expect(notOk.error).toEqual({ kind: 'preflight-invalid-status', preflight: true })
    const redirect = await checkCors({
      ...call,
      url: `${backend.origin}/x?preflightStatus=307&header=Location:/y&tag=p307`,
    })
    expect(redirect.error).toEqual({ kind: 'preflight-redirect', preflight: true })
  })

  test('words the verdict for XMLHttpRequest and lists the readable headers of an allowed answer', async () => {
    const url = `${backend.origin}/x?allowOrigin=http://example.com&tag=xhr`
    const blocked = await checkCors({ url, origin, initiator: 'XMLHttpRequest' })
    expect(blocked.message).toBe(
      `Access to XMLHttpRequest at '${url}' from origin '${origin}' has been blocked by CORS policy: The 'Access-Control-Allow-Origin' header has a value 'http://example.com' that is not equal to the supplied origin.`,
    )
    const readable = await checkCors({
      url: `${backend.origin}/x?expose=x-a,date&header=X-A:1&header=X-B:2&tag=read`,
      origin,
    })
    expect(readable.readableHeaders).toEqual(['content-length', 'content-type', 'date', 'x-a'])
  })
})

describe('checkCors reports Local Network Access', () => {
  test('a public page calling the loopback backend: the permission, in Chromium words', async () => {
    const url = `${backend.origin}/items?tag=lna`
    const page = 'https://app.example.com'
    const verdict = await checkCors({ url, origin: page, pageSpace: 'public' })
    expect(verdict.localNetworkAccess).toMatchObject({
      applies: true,
      pageSpace: 'public',
      targetSpace: 'loopback',
      permission: 'loopback-network',
      outcome: 'needs-permission',
      message: `Access to fetch at '${url}' from origin '${page}' has been blocked by CORS policy: Permission was denied for this request to access the \`loopback\` address space.`,
    })
    expect(verdict.localNetworkAccess?.fix).toContain(`corsDevProxy({ '/api': '${backend.origin}' })`)
  })

  test('a mismatching targetAddressSpace is reported even between loopback addresses', async () => {
    const verdict = await checkCors({
      url: `${backend.origin}/items?tag=lna2`,
      origin,
      targetAddressSpace: 'local',
    })
    expect(verdict.localNetworkAccess).toMatchObject({ applies: false, outcome: 'blocked' })
  })

  test('a loopback page calling a loopback backend: no Local Network Access field', async () => {
    const verdict = await checkCors({ url: `${backend.origin}/items?tag=lna3`, origin })
    expect(verdict).not.toHaveProperty('localNetworkAccess')
  })
})
