import type { OutgoingHttpHeaders } from 'node:http'
import { describe, expect, it } from 'vitest'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { createLocationRewrite } from '../../src/forward/location-rewrite.js'
import { headersFromRaw } from '../../src/forward/raw-headers.js'
import {
  buildClientHeaders,
  buildClientHeadList,
  type ClientConnection,
  headValue,
} from '../../src/forward/response-headers.js'
import type { ProxyRequest } from '../../src/http/proxy-types.js'
import type { RouteOptions } from '../../src/index.js'
import { forwardRoute } from '../support/resolved.js'

function routeWith(options: RouteOptions = {}) {
  const route = resolveOptions({ '/api': { target: 'http://127.0.0.1:3000', ...options } }).routes[0]
  return forwardRoute(route)
}

/** A raw list as undici hands it over HTTP/1.1: names and values as bytes, UTF-8 values as sent. */
const raw = (...fields: string[]): Buffer[] => fields.map((field) => Buffer.from(field, 'utf8'))

/** The same head as a browser's request sees it: `Host` is the dev server's. */
const request = { headers: { host: 'localhost:5173' }, socket: {} } as unknown as ProxyRequest

/** What the object path gives for the same raw list: the flat list must say exactly the same. */
function asObject(list: readonly string[]): OutgoingHttpHeaders {
  const headers: Record<string, string | string[]> = {}
  for (let index = 0; index < list.length; index += 2) {
    const name = list[index] as string
    const value = list[index + 1] as string
    const known = headers[name]
    if (known === undefined) headers[name] = name === 'set-cookie' ? [value] : value
    else headers[name] = [...(Array.isArray(known) ? known : [known]), value]
  }
  return headers
}

describe('buildClientHeadList', () => {
  const cases: Array<{
    name: string
    raw: Buffer[]
    route?: RouteOptions
    statusCode?: number
    expected: string[]
  }> = [
    {
      name: 'lowercases names and keeps the order the fields came in',
      raw: raw('Content-Type', 'text/plain', 'X-Id', '7', 'ETag', '"1"'),
      expected: ['content-type', 'text/plain', 'x-id', '7', 'etag', '"1"'],
    },
    {
      name: 'drops hop-by-hop fields and the fields Connection names, wherever Connection comes',
      raw: raw(
        'X-Hop',
        '1',
        'Connection',
        'keep-alive, X-Hop',
        'Keep-Alive',
        'timeout=5',
        'Transfer-Encoding',
        'chunked',
        'Proxy-Connection',
        'keep-alive',
        'Content-Type',
        'text/plain',
        'Connection',
        'X-Other',
        'X-Other',
        '2',
      ),
      expected: ['content-type', 'text/plain'],
    },
    {
      name: 'rewrites each repeated Set-Cookie line on its own and keeps them separate',
      raw: raw(
        'Set-Cookie',
        'a=1; Domain=api.example; Path=/',
        'X-Id',
        '7',
        'set-cookie',
        'b=2; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Domain=.example',
      ),
      expected: [
        'set-cookie',
        'a=1; Path=/',
        'x-id',
        '7',
        'set-cookie',
        'b=2; Expires=Wed, 21 Oct 2037 07:28:00 GMT',
      ],
    },
    {
      name: 'keeps Set-Cookie untouched when both rewrites are off',
      raw: raw('Set-Cookie', 'a=1; Domain=api.example'),
      route: { cookieDomainRewrite: false },
      expected: ['set-cookie', 'a=1; Domain=api.example'],
    },
    {
      name: 'points an absolute Location at the target back at the dev server',
      raw: raw('Location', 'http://127.0.0.1:3000/posts?page=2', 'Content-Location', '/posts/1'),
      expected: ['location', 'http://localhost:5173/api/posts?page=2', 'content-location', '/api/posts/1'],
    },
    {
      name: 'reads a UTF-8 Location as text to rewrite it, and passes one that is not the target’s byte for byte',
      raw: raw('Location', '/café', 'Content-Location', 'https://other.example/thé'),
      expected: [
        'location',
        '/api/caf%C3%A9',
        'content-location',
        Buffer.from('https://other.example/thé').toString('latin1'),
      ],
    },
    {
      name: 'passes a repeated (invalid) Location as it came',
      raw: raw('Location', '/a', 'Location', '/b'),
      expected: ['location', '/a', 'location', '/b'],
    },
    {
      name: 'leaves Location alone with rewriteLocation off',
      raw: raw('Location', '/posts'),
      route: { rewriteLocation: false },
      expected: ['location', '/posts'],
    },
    {
      name: 'puts Content-Length after Content-Disposition',
      raw: raw(
        'Content-Length',
        '2',
        'Content-Disposition',
        'attachment; filename="résumé.txt"',
        'X-Id',
        '7',
      ),
      expected: [
        'content-disposition',
        Buffer.from('attachment; filename="résumé.txt"').toString('latin1'),
        'x-id',
        '7',
        'content-length',
        '2',
      ],
    },
    {
      name: 'drops Content-Length on a 204',
      raw: raw('Content-Length', '0', 'X-Id', '7'),
      statusCode: 204,
      expected: ['x-id', '7'],
    },
    {
      name: 'keeps a repeated field as separate lines for an HTTP/1.1 client',
      raw: raw('X-Multi', 'a', 'X-Multi', 'b'),
      expected: ['x-multi', 'a', 'x-multi', 'b'],
    },
  ]

  it.each(cases)('$name', ({ raw: list, route: options, statusCode, expected }) => {
    const route = routeWith(options)
    const location = createLocationRewrite(route)
    const client: ClientConnection = {
      http2: false,
      rewriteLocation: location.kind === 'rewrite' ? location.rewrite : undefined,
      request,
      statusCode,
    }
    const flat = buildClientHeadList(list, route, client)
    expect(flat).toEqual(expected)
    // The same rules as the object the hooks get, field for field.
    expect(asObject(flat)).toEqual(buildClientHeaders(headersFromRaw(list), route, client))
  })

  it('accepts names and values undici hands over as strings', () => {
    expect(
      buildClientHeadList(['Content-Type', 'text/plain', 'Keep-Alive', 'timeout=5'], routeWith(), {
        http2: false,
      }),
    ).toEqual(['content-type', 'text/plain'])
  })
})

describe('buildClientHeaders on a 204', () => {
  it('drops Content-Length as the flat list does', () => {
    expect(
      buildClientHeaders({ 'content-length': '0', 'x-id': '7' }, routeWith(), {
        http2: true,
        statusCode: 204,
      }),
    ).toEqual({ 'x-id': '7' })
  })
})

describe('headValue', () => {
  it.each([
    {
      head: ['content-type', 'text/event-stream', 'x-id', '7'],
      name: 'content-type',
      expected: 'text/event-stream',
    },
    { head: ['x-id', '7'], name: 'content-type', expected: undefined },
    { head: { 'content-type': 'text/html' }, name: 'content-type', expected: 'text/html' },
  ])('finds $name in $head', ({ head, name, expected }) => {
    expect(headValue(head, name)).toBe(expected)
  })
})
