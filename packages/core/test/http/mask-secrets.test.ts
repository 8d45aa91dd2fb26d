import { describe, expect, it } from 'vitest'
import {
  MASK,
  maskBody,
  maskHeaderLines,
  maskHeaderValue,
  maskUrl,
  maskUrlsIn,
} from '../../src/http/mask-secrets.js'

describe('maskHeaderValue', () => {
  it.each([
    ['authorization', 'Bearer abc.def', `Bearer ${MASK}`],
    ['Authorization', 'Basic dXNlcjpwYXNz', `Basic ${MASK}`],
    ['authorization', 'opaque-token', MASK],
    ['proxy-authorization', 'Basic eA==', `Basic ${MASK}`],
    ['cookie', 'sid=123; theme=dark', `sid=${MASK}; theme=${MASK}`],
    ['set-cookie', 'sid=123; Path=/; HttpOnly; SameSite=Lax', `sid=${MASK}; Path=/; HttpOnly; SameSite=Lax`],
    ['x-api-key', 'k-123', MASK],
    ['x-auth-token', 't', MASK],
    ['x-csrf-token', 't', MASK],
    ['api-key', 'k', MASK],
    // Public values stay.
    ['access-control-allow-headers', 'authorization, x-api-key', 'authorization, x-api-key'],
    ['sec-websocket-key', 'dGhlIHNhbXBsZSBub25jZQ==', 'dGhlIHNhbXBsZSBub25jZQ=='],
    ['keep-alive', 'timeout=5', 'timeout=5'],
    ['content-type', 'application/json', 'application/json'],
  ])('%s: %s → %s', (name, value, masked) => {
    expect(maskHeaderValue(name, value)).toBe(masked)
  })

  it('masks flat header lines, names lowercased', () => {
    expect(maskHeaderLines(['Authorization', 'Bearer x', 'Accept', '*/*'])).toEqual([
      ['authorization', `Bearer ${MASK}`],
      ['accept', '*/*'],
    ])
  })
})

describe('maskUrl', () => {
  it.each([
    ['/api/items', '/api/items'],
    ['/api/items?page=2', '/api/items?page=2'],
    ['/api/items?token=abc&page=2', `/api/items?token=${MASK}&page=2`],
    [
      '/a?access_token=1&id_token=2&refresh-token=3',
      `/a?access_token=${MASK}&id_token=${MASK}&refresh-token=${MASK}`,
    ],
    [
      '/a?api_key=1&apikey=2&key=3&sig=4&signature=5',
      `/a?api_key=${MASK}&apikey=${MASK}&key=${MASK}&sig=${MASK}&signature=${MASK}`,
    ],
    ['/a?password=x&code=y#frag', `/a?password=${MASK}&code=${MASK}#frag`],
    ['http://h:1/a?Token=x', `http://h:1/a?Token=${MASK}`],
    ['/a?monkey=1&keyboard=2', '/a?monkey=1&keyboard=2'],
    ['/a?%74oken=x', `/a?%74oken=${MASK}`],
  ])('%s → %s', (url, masked) => {
    expect(maskUrl(url)).toBe(masked)
  })
})

describe('maskUrlsIn', () => {
  it('masks secret query values of every URL inside a text, JSON or a message', () => {
    const text = `{"url":"http://api.test/a?token=abc&page=2","message":"Access to fetch at 'http://api.test/a?token=abc&page=2' from origin","call":"fetch('/api/a?api_key=k1')"}`
    expect(maskUrlsIn(text)).toBe(
      `{"url":"http://api.test/a?token=${MASK}&page=2","message":"Access to fetch at 'http://api.test/a?token=${MASK}&page=2' from origin","call":"fetch('/api/a?api_key=${MASK}')"}`,
    )
    expect(maskUrlsIn('no URL, a=b & token=c')).toBe('no URL, a=b & token=c')
  })
})

describe('maskBody', () => {
  it.each([
    [
      '{"user":"ada","password":"hunter2","profile":{"accessToken":"t1","tokenType":"Bearer","code":"E42"}}',
      'application/json',
      `{"user":"ada","password":"${MASK}","profile":{"accessToken":"${MASK}","tokenType":"Bearer","code":"E42"}}`,
    ],
    // Arrays, snake case, and a JSON body sent without a JSON type.
    ['[{"client_secret":"s","id":1}]', 'text/plain', `[{"client_secret":"${MASK}","id":1}]`],
    // Cut at the size limit: no longer JSON, masked field by field.
    ['{"refresh_token":"abc","name":"ad', 'application/json', `{"refresh_token":"${MASK}","name":"ad`],
    ['{"name":"x","password":"hunt', 'application/json', `{"name":"x","password":"${MASK}`],
    [
      'user=ada&password=hunter2&api_key=k',
      'application/x-www-form-urlencoded; charset=UTF-8',
      'user=ada&password=%5Bmasked%5D&api_key=%5Bmasked%5D',
    ],
    // Nothing to mask: the text as it was, spacing included.
    ['{ "user": "ada" }', 'application/json', '{ "user": "ada" }'],
    ['user=ada', 'application/x-www-form-urlencoded', 'user=ada'],
    ['<p>password: hunter2</p>', 'text/html', '<p>password: hunter2</p>'],
  ])('%s (%s)', (text, type, masked) => {
    expect(maskBody(text, type)).toBe(masked)
  })
})
