import type { FrontEndName } from './front-ends.js'
import { rawRequest } from './raw-http1.js'

/** What a case needs to build its bytes. */
export interface CaseContext {
  /** `127.0.0.1:<port>` of the front end: a Host every front end accepts. */
  readonly host: string
  /** `127.0.0.1:<port>` of the canary, a server no route points at. */
  readonly canary: string
  readonly port: number
}

/**
 * What a case must produce on one front end.
 * - `status`: the first response's status; `'closed'` (no answer, connection closed) or `'open'`
 *   (no answer, still open when the case's time limit passed).
 * - `target`: every request the target received, as `METHOD url`, in order (default none).
 * - `upgrades`: every WebSocket upgrade the target received, by URL (default none).
 * - `acao`: the `Access-Control-Allow-Origin` answered (`null`: none).
 * - `body`: a string the response must contain.
 */
export interface Expectation {
  readonly status: number | 'closed' | 'open'
  readonly target?: readonly string[] | ((ctx: CaseContext) => readonly string[])
  readonly upgrades?: readonly string[]
  readonly acao?: string | null
  readonly body?: string
}

/** One hostile request, and what every front end must do with it. */
export interface Http1Case {
  readonly group: string
  readonly name: string
  readonly bytes: (ctx: CaseContext) => string
  readonly expect: Expectation
  /** What differs on some front ends (their own answers, their own checks). */
  readonly on?: Partial<Record<FrontEndName, Partial<Expectation>>>
  /** Complete responses to wait for (pipelined requests). @default 1 */
  readonly responses?: number
  /** @default 2000 */
  readonly timeoutMs?: number
}

const get =
  (path: string, extra: readonly string[] = []) =>
  (ctx: CaseContext) =>
    rawRequest(`GET ${path} HTTP/1.1`, [`Host: ${ctx.host}`, ...extra])

const WEBSOCKET = [
  'Connection: Upgrade',
  'Upgrade: websocket',
  'Sec-WebSocket-Version: 13',
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
]

const upgrade =
  (path: string, host: (ctx: CaseContext) => string, extra: readonly string[] = []) =>
  (ctx: CaseContext) =>
    rawRequest(`GET ${path} HTTP/1.1`, [`Host: ${host(ctx)}`, ...WEBSOCKET, ...extra])

/**
 * The dev servers' own answer to a path no route claims: Vite answers GETs of unknown paths with
 * its `index.html` (200), the others 404. Never the target's.
 */
const NOT_PROXIED: Pick<Http1Case, 'expect' | 'on'> = {
  expect: { status: 404 },
  on: { vite: { status: 200 } },
}

/** Refused by the front end's host check (403); the bare core has none and forwards. */
const HOST_REFUSED = (target: string): Pick<Http1Case, 'expect' | 'on'> => ({
  expect: { status: 403 },
  on: { core: { status: 200, target: [target] } },
})

const traversal: Http1Case[] = [
  ['..', '/api/../secret'],
  ['%2e%2e', '/api/%2e%2e/secret'],
  ['%2E%2E', '/api/%2E%2E/secret'],
  ['.%2e', '/api/.%2e/secret'],
  ['%2e.', '/api/%2e./secret'],
  ['two levels', '/api/x/../../secret'],
  ['backslashes', '/api\\..\\secret'],
  ['backslash and %2e', '/api\\%2e%2e\\secret'],
  ['..; (Java path parameter)', '/api/..;/secret'],
  ['%2e%2e;jsessionid', '/api/%2e%2e;jsessionid=1/secret'],
  ['prefix then ;', '/api;/secret'],
  ['%2f after the prefix', '/api%2f..%2fsecret'],
].map(([name, path]) => ({
  group: 'path traversal',
  name: `${name}: ${path}`,
  bytes: get(path as string),
  ...NOT_PROXIED,
}))

traversal.push(
  {
    group: 'path traversal',
    name: 'dot-segments inside the route stay inside: /api/x/../y',
    bytes: get('/api/x/../y'),
    expect: { status: 200, target: ['GET /base/y'] },
  },
  {
    group: 'path traversal',
    name: 'double-encoded dots are data, forwarded as sent: /api/%252e%252e/secret',
    bytes: get('/api/%252e%252e/secret'),
    expect: { status: 200, target: ['GET /base/%252e%252e/secret'] },
  },
  {
    group: 'path traversal',
    name: 'an encoded slash is data, forwarded as sent: /api/..%2fsecret',
    bytes: get('/api/..%2fsecret'),
    expect: { status: 200, target: ['GET /base/..%2fsecret'] },
  },
  {
    group: 'path traversal',
    name: 'encoded dots and slash are data: /api/%2e%2e%2fsecret',
    bytes: get('/api/%2e%2e%2fsecret'),
    expect: { status: 200, target: ['GET /base/%2e%2e%2fsecret'] },
  },
)

const otherHosts: Http1Case[] = [
  {
    group: '//host paths',
    name: '//canary/x',
    bytes: (ctx) => get(`//${ctx.canary}/x`)(ctx),
    ...NOT_PROXIED,
  },
  {
    group: '//host paths',
    name: '///canary/x',
    bytes: (ctx) => get(`///${ctx.canary}/x`)(ctx),
    ...NOT_PROXIED,
  },
  {
    group: '//host paths',
    name: '/api//canary/x reaches the target under its base, never the canary',
    bytes: (ctx) => get(`/api//${ctx.canary}/x`)(ctx),
    expect: { status: 200, target: (ctx) => [`GET /base//${ctx.canary}/x`] },
  },
  {
    group: 'absolute-form and CONNECT',
    name: 'GET http://canary/api/x',
    bytes: (ctx) => rawRequest(`GET http://${ctx.canary}/api/x HTTP/1.1`, [`Host: ${ctx.host}`]),
    expect: { status: 400 },
  },
  {
    group: 'absolute-form and CONNECT',
    name: 'GET http://canary/x with Host: canary',
    bytes: (ctx) => rawRequest(`GET http://${ctx.canary}/x HTTP/1.1`, [`Host: ${ctx.canary}`]),
    expect: { status: 400 },
  },
  {
    group: 'absolute-form and CONNECT',
    name: 'POST https://canary/api/x',
    bytes: (ctx) =>
      rawRequest(
        `POST https://${ctx.canary}/api/x HTTP/1.1`,
        [`Host: ${ctx.host}`, 'Content-Length: 2'],
        'hi',
      ),
    expect: { status: 400 },
  },
  {
    group: 'absolute-form and CONNECT',
    name: 'CONNECT canary',
    bytes: (ctx) => rawRequest(`CONNECT ${ctx.canary} HTTP/1.1`, [`Host: ${ctx.canary}`]),
    expect: { status: 400 },
  },
  {
    group: 'absolute-form and CONNECT',
    name: 'CONNECT canary with our Host',
    bytes: (ctx) => rawRequest(`CONNECT ${ctx.canary} HTTP/1.1`, [`Host: ${ctx.host}`]),
    expect: { status: 400 },
  },
  {
    group: 'absolute-form and CONNECT',
    name: 'authority-form on GET',
    bytes: (ctx) => rawRequest(`GET ${ctx.canary} HTTP/1.1`, [`Host: ${ctx.host}`]),
    expect: { status: 400 },
  },
  {
    group: 'absolute-form and CONNECT',
    name: 'OPTIONS * (Vite answers it itself)',
    bytes: (ctx) => rawRequest('OPTIONS * HTTP/1.1', [`Host: ${ctx.host}`]),
    expect: { status: 400 },
    on: { vite: { status: 404 } },
  },
]

const hosts: Http1Case[] = [
  {
    group: 'Host and DNS rebinding',
    name: 'Host: evil.com',
    bytes: () => rawRequest('GET /api/x HTTP/1.1', ['Host: evil.com']),
    ...HOST_REFUSED('GET /base/x'),
  },
  {
    group: 'Host and DNS rebinding',
    name: 'Host: evil.com:<port>',
    bytes: (ctx) => rawRequest('GET /api/x HTTP/1.1', [`Host: evil.com:${ctx.port}`]),
    ...HOST_REFUSED('GET /base/x'),
  },
  {
    group: 'Host and DNS rebinding',
    name: 'Host: localhost.evil.com',
    bytes: (ctx) => rawRequest('GET /api/x HTTP/1.1', [`Host: localhost.evil.com:${ctx.port}`]),
    ...HOST_REFUSED('GET /base/x'),
  },
  {
    group: 'Host and DNS rebinding',
    name: 'Host: 127.0.0.1.nip.io',
    bytes: (ctx) => rawRequest('GET /api/x HTTP/1.1', [`Host: 127.0.0.1.nip.io:${ctx.port}`]),
    ...HOST_REFUSED('GET /base/x'),
  },
  {
    group: 'Host and DNS rebinding',
    name: 'Host: evil.com@127.0.0.1',
    bytes: (ctx) => rawRequest('GET /api/x HTTP/1.1', [`Host: evil.com@${ctx.host}`]),
    ...HOST_REFUSED('GET /base/x'),
  },
  {
    group: 'Host and DNS rebinding',
    name: 'two Host lines, ours first',
    bytes: (ctx) => rawRequest('GET /api/x HTTP/1.1', [`Host: ${ctx.host}`, 'Host: evil.com']),
    expect: { status: 400 },
  },
  {
    group: 'Host and DNS rebinding',
    name: 'two Host lines, evil.com first',
    bytes: (ctx) => rawRequest('GET /api/x HTTP/1.1', ['Host: evil.com', `Host: ${ctx.host}`]),
    expect: { status: 403 },
    on: { core: { status: 400 } },
  },
  {
    group: 'Host and DNS rebinding',
    name: 'no Host on HTTP/1.1',
    bytes: () => rawRequest('GET /api/x HTTP/1.1', []),
    expect: { status: 400 },
  },
  {
    group: 'Host and DNS rebinding',
    name: 'no Host on HTTP/1.0 (no browser sends one; webpack-dev-server refuses it)',
    bytes: () => rawRequest('GET /api/x HTTP/1.0', []),
    expect: { status: 200, target: ['GET /base/x'] },
    on: { webpack: { status: 403, target: [] } },
  },
  {
    group: 'Host and DNS rebinding',
    name: 'Host: LOCALHOST (case) is loopback (Vite compares names case-sensitively)',
    bytes: (ctx) => rawRequest('GET /api/x HTTP/1.1', [`Host: LOCALHOST:${ctx.port}`]),
    expect: { status: 200, target: ['GET /base/x'] },
    on: { vite: { status: 403, target: [] } },
  },
  {
    group: 'WebSocket host check',
    name: 'upgrade with Host: evil.com',
    bytes: upgrade('/api/socket', () => 'evil.com'),
    expect: { status: 403 },
    on: { core: { status: 101, upgrades: ['/base/socket'] } },
  },
  {
    group: 'WebSocket host check',
    name: 'upgrade with Host: localhost.evil.com',
    bytes: upgrade('/api/socket', (ctx) => `localhost.evil.com:${ctx.port}`),
    expect: { status: 403 },
    on: { core: { status: 101, upgrades: ['/base/socket'] } },
  },
  {
    group: 'WebSocket host check',
    name: 'upgrade with Host: 127.0.0.1.nip.io',
    bytes: upgrade('/api/socket', (ctx) => `127.0.0.1.nip.io:${ctx.port}`),
    expect: { status: 403 },
    on: { core: { status: 101, upgrades: ['/base/socket'] } },
  },
  {
    group: 'WebSocket host check',
    name: 'upgrade with Host: evil.com on a cors route, from a loopback page',
    bytes: upgrade('/cors/socket', () => 'evil.com', ['Origin: http://localhost:5173']),
    expect: { status: 403 },
    on: { core: { status: 101, upgrades: ['/cors/socket'] } },
  },
  {
    group: 'WebSocket host check',
    name: 'upgrade with our Host is forwarded (control)',
    bytes: upgrade('/api/socket', (ctx) => ctx.host),
    expect: { status: 101, upgrades: ['/base/socket'] },
  },
  {
    group: 'WebSocket origin check',
    name: 'upgrade on a cors route from http://localhost.evil.com',
    bytes: upgrade('/cors/socket', (ctx) => ctx.host, ['Origin: http://localhost.evil.com']),
    expect: { status: 403 },
  },
  {
    group: 'WebSocket origin check',
    name: 'upgrade on a cors route from Origin: null',
    bytes: upgrade('/cors/socket', (ctx) => ctx.host, ['Origin: null']),
    expect: { status: 403 },
  },
  {
    group: 'WebSocket origin check',
    name: 'upgrade on a cors route from http://localhost:5173 (control)',
    bytes: upgrade('/cors/socket', (ctx) => ctx.host, ['Origin: http://localhost:5173']),
    expect: { status: 101, upgrades: ['/cors/socket'] },
  },
]

const upgrades: Http1Case[] = [
  {
    group: 'other upgrades',
    name: 'h2c upgrade on a ws route',
    bytes: get('/api/x', [
      'Connection: Upgrade, HTTP2-Settings',
      'Upgrade: h2c',
      'HTTP2-Settings: AAMAAABkAAQAAP__',
    ]),
    expect: { status: 400 },
  },
  {
    group: 'other upgrades',
    name: 'h2c upgrade on a route without ws',
    bytes: get('/jsonp/x', [
      'Connection: Upgrade, HTTP2-Settings',
      'Upgrade: h2c',
      'HTTP2-Settings: AAMAAABkAAQAAP__',
    ]),
    expect: { status: 400 },
  },
  {
    group: 'other upgrades',
    name: 'made-up protocol upgrade',
    bytes: get('/api/x', ['Connection: Upgrade', 'Upgrade: foo/1']),
    expect: { status: 400 },
  },
  {
    group: 'other upgrades',
    name: 'h2c upgrade with a foreign Host',
    bytes: () => rawRequest('GET /api/x HTTP/1.1', ['Host: evil.com', 'Connection: Upgrade', 'Upgrade: h2c']),
    expect: { status: 403 },
    on: { core: { status: 400 } },
  },
  {
    // The route does not take WebSockets and another listener of the dev server might: the
    // socket is theirs. Vite and webpack-dev-server leave one nobody takes open.
    group: 'other upgrades',
    name: 'WebSocket upgrade on a route without ws is left to the dev server',
    bytes: upgrade('/jsonp/socket', (ctx) => ctx.host),
    expect: { status: 'open' },
    on: { core: { status: 'closed' }, serve: { status: 404 } },
    timeoutMs: 300,
  },
]

const body = (ctx: CaseContext) => `0\r\n\r\nGET /api/smuggled HTTP/1.1\r\nHost: ${ctx.host}\r\n\r\n`
const post = (headers: readonly string[], content: (ctx: CaseContext) => string) => (ctx: CaseContext) =>
  rawRequest('POST /api/x HTTP/1.1', [`Host: ${ctx.host}`, ...headers], content(ctx))

const smuggling: Http1Case[] = [
  ['Content-Length and Transfer-Encoding', ['Content-Length: 4', 'Transfer-Encoding: chunked']],
  ['Transfer-Encoding and Content-Length', ['Transfer-Encoding: chunked', 'Content-Length: 4']],
  ['two different Content-Length', ['Content-Length: 4', 'Content-Length: 60']],
  ['two equal Content-Length', ['Content-Length: 5', 'Content-Length: 5']],
  ['Content-Length: 5, 5', ['Content-Length: 5, 5']],
  ['Content-Length: +5', ['Content-Length: +5']],
  ['Content-Length: 0x5', ['Content-Length: 0x5']],
  ['Content-Length: -1', ['Content-Length: -1']],
  ['obs-fold in Transfer-Encoding', ['Transfer-Encoding:', ' chunked']],
  ['obs-fold in another header', ['X-Folded: a', ' b', 'Content-Length: 5']],
  ['Transfer-Encoding: xchunked', ['Transfer-Encoding: xchunked']],
  ['Transfer-Encoding: chunked, identity', ['Transfer-Encoding: chunked, identity']],
  ['Transfer-Encoding twice', ['Transfer-Encoding: chunked', 'Transfer-Encoding: x']],
  ['space before the colon', ['Transfer-Encoding : chunked']],
].map(([name, headers]) => ({
  group: 'request smuggling',
  name: name as string,
  bytes: post(headers as string[], body),
  expect: { status: 400 },
}))

smuggling.push(
  {
    group: 'request smuggling',
    name: 'bare LF line endings',
    bytes: (ctx) => `GET /api/x HTTP/1.1\nHost: ${ctx.host}\n\n`,
    expect: { status: 400 },
  },
  {
    group: 'request smuggling',
    name: 'bare LF after one header',
    bytes: (ctx) => `GET /api/x HTTP/1.1\r\nHost: ${ctx.host}\nX-A: b\r\n\r\n`,
    expect: { status: 400 },
  },
  {
    group: 'request smuggling',
    name: 'bare CR in the head',
    bytes: (ctx) => `GET /api/x HTTP/1.1\r\nHost: ${ctx.host}\rX-A: b\r\n\r\n`,
    expect: { status: 400 },
  },
  {
    group: 'request smuggling',
    name: 'chunk size overflow',
    bytes: post(['Transfer-Encoding: chunked'], () => 'fffffffffffffffff1\r\nx\r\n0\r\n\r\n'),
    expect: { status: 400 },
  },
  {
    group: 'request smuggling',
    name: 'chunk size that is not hex',
    bytes: post(['Transfer-Encoding: chunked'], () => 'zz\r\nx\r\n0\r\n\r\n'),
    expect: { status: 400 },
  },
  {
    group: 'request smuggling',
    name: 'two pipelined requests are two requests (control)',
    bytes: (ctx) => `${get('/api/one')(ctx)}${get('/api/two')(ctx)}`,
    expect: { status: 200, target: ['GET /base/one', 'GET /base/two'] },
    responses: 2,
  },
)

const controls: Http1Case[] = [
  ['CR in the path', 'GET /api/x\rInjected: yes HTTP/1.1'],
  // Node parses this one as an HTTP/0.9 request line, then headers: the core refuses HTTP/0.9.
  ['LF in the path', 'GET /api/x\nInjected: yes HTTP/1.1'],
  ['NUL in the path', 'GET /api/x\0y HTTP/1.1'],
  ['space in the path', 'GET /api/x y HTTP/1.1'],
].map(([name, line]) => ({
  group: 'CR, LF and NUL',
  name: name as string,
  bytes: (ctx: CaseContext) => rawRequest(line as string, [`Host: ${ctx.host}`]),
  expect: { status: 400 },
}))

controls.push(
  ...[
    ['NUL in a header value', 'X-Foo: a\0b'],
    ['CR in a header value', 'X-Foo: a\rInjected: b'],
    ['space in a header name', 'X Foo: a'],
    ['control byte in a header name', 'X\u0001Foo: a'],
  ].map(([name, header]) => ({
    group: 'CR, LF and NUL',
    name: name as string,
    bytes: get('/api/x', [header as string]),
    expect: { status: 400 },
  })),
  {
    group: 'CR, LF and NUL',
    name: 'encoded CR LF in the path stays encoded',
    bytes: get('/api/x%0d%0aInjected:%20yes'),
    expect: { status: 200, target: ['GET /base/x%0d%0aInjected:%20yes'] },
  },
  {
    group: 'CR, LF and NUL',
    name: 'encoded NUL in the path stays encoded',
    bytes: get('/api/x%00y'),
    expect: { status: 200, target: ['GET /base/x%00y'] },
  },
)

const sizes: Http1Case[] = [
  {
    group: 'oversized',
    name: 'a 20 kB header',
    bytes: get('/api/x', [`X-Big: ${'a'.repeat(20_000)}`]),
    expect: { status: 431 },
  },
  {
    group: 'oversized',
    name: 'a 20 kB URL',
    bytes: get(`/api/${'a'.repeat(20_000)}`),
    expect: { status: 431 },
  },
  {
    group: 'oversized',
    name: 'a thousand small headers (under the size limit) are forwarded',
    bytes: get(
      '/api/many',
      Array.from({ length: 1000 }, (_, index) => `x-${index}: v`),
    ),
    expect: { status: 200, target: ['GET /base/many'] },
  },
]

const jsonp: Http1Case[] = [
  ['alert(1)//', 'alert(1)//'],
  ['a;alert(1)', 'a;alert(1)'],
  ['a%0aalert(1)', 'a%0aalert(1)'],
  ['%3Cscript%3E', '%3Cscript%3E'],
  ['a name over 128 characters', 'a'.repeat(129)],
  ['full-width letters', '%EF%BD%83%EF%BD%82'],
  ['a..b', 'a..b'],
  ['empty', ''],
].map(([name, callback]) => ({
  group: 'JSONP callback injection',
  name: name as string,
  bytes: get(`/jsonp/x?callback=${callback}`),
  expect: { status: 400, body: 'invalid JSONP callback' },
}))

jsonp.push(
  {
    group: 'JSONP callback injection',
    name: 'a POST with a callback',
    bytes: (ctx) =>
      rawRequest('POST /jsonp/x?callback=cb HTTP/1.1', [`Host: ${ctx.host}`, 'Content-Length: 0']),
    expect: { status: 405 },
  },
  {
    group: 'JSONP callback injection',
    name: 'the first of two callbacks is the one checked and used',
    bytes: get('/jsonp/x?callback=cb&callback=alert(1)'),
    expect: {
      status: 200,
      target: ['GET /jsonp/x?callback=cb&callback=alert(1)'],
      body: "/**/ typeof cb === 'function' && cb(",
    },
  },
  {
    group: 'JSONP callback injection',
    name: 'a dotted name is wrapped (control)',
    bytes: get('/jsonp/x?callback=app.handlers.done'),
    expect: {
      status: 200,
      target: ['GET /jsonp/x?callback=app.handlers.done'],
      body: "/**/ typeof app.handlers.done === 'function' && app.handlers.done(",
    },
  },
)

/** Origins a loose check would take for this machine's; the default policy allows none of them. */
export const LOOKALIKE_ORIGINS: readonly string[] = [
  'null',
  'http://localhost.evil.com',
  'http://127.0.0.1.nip.io',
  'http://evil.com:5173@localhost',
  'http://localhost.:5173',
  'http://localhost:5173/',
  'http://localhost%2eevil.com',
  'https://localhost.evil.com:443',
  'http://localhost:5173.evil.com',
  'http://evil.com#.localhost',
  'file://',
  'http://localhost:5173, http://evil.com',
]

const cors: Http1Case[] = LOOKALIKE_ORIGINS.flatMap((origin): Http1Case[] => [
  {
    group: 'CORS origin lookalikes',
    name: `GET from ${origin}`,
    bytes: get('/cors/x', [`Origin: ${origin}`]),
    // The browser enforces CORS on the answer: the request is proxied, the answer is not shared.
    expect: { status: 200, target: ['GET /cors/x'], acao: null },
  },
  {
    group: 'CORS origin lookalikes',
    name: `preflight from ${origin}`,
    bytes: (ctx) =>
      rawRequest('OPTIONS /cors/x HTTP/1.1', [
        `Host: ${ctx.host}`,
        `Origin: ${origin}`,
        'Access-Control-Request-Method: PUT',
      ]),
    expect: { status: 204, acao: null },
  },
])

cors.push(
  {
    group: 'CORS origin lookalikes',
    name: 'GET from HTTP://LOCALHOST:5173 (case): loopback, reflected as sent',
    bytes: get('/cors/x', ['Origin: HTTP://LOCALHOST:5173']),
    expect: { status: 200, target: ['GET /cors/x'], acao: 'HTTP://LOCALHOST:5173' },
  },
  {
    group: 'CORS origin lookalikes',
    name: 'GET from http://localhost:5173 (control)',
    bytes: get('/cors/x', ['Origin: http://localhost:5173']),
    expect: { status: 200, target: ['GET /cors/x'], acao: 'http://localhost:5173' },
  },
  {
    group: 'CORS origin lookalikes',
    name: 'GET from http://[::1]:5173 (control)',
    bytes: get('/cors/x', ['Origin: http://[::1]:5173']),
    expect: { status: 200, target: ['GET /cors/x'], acao: 'http://[::1]:5173' },
  },
)

/** Every HTTP/1.1 case, in the order the suite runs them. */
export const HTTP1_CASES: readonly Http1Case[] = [
  ...traversal,
  ...otherHosts,
  ...hosts,
  ...upgrades,
  ...smuggling,
  ...controls,
  ...sizes,
  ...jsonp,
  ...cors,
]

/** A case's expectation on one front end. */
export function expectationOn(testCase: Http1Case, front: FrontEndName): Expectation {
  return { ...testCase.expect, ...testCase.on?.[front] }
}
