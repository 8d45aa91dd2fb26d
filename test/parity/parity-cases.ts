import { type Ask, echoOverWebSocket, readEvents, send } from './parity-client.js'
import { answerFields, type Observation } from './parity-fields.js'

export type { Observation } from './parity-fields.js'

/** Where a check sends its requests, and what the backend saw. */
export interface ParityContext {
  /** The origin of the server under test (dev proxy, nginx or Caddy). */
  readonly proxy: string
  /** The mock backend's origin, the target of every route. */
  readonly backend: string
  /** How many requests the backend has received so far. */
  received(): number
}

/** One request (or exchange) sent through every server, and what is compared of its answer. */
export interface ParityCheck {
  readonly name: string
  observe(context: ParityContext): Promise<Observation>
  /**
   * Fields the dev proxy's observation must have, so that a mistake all three servers share
   * fails too: parity alone would call it equal.
   */
  readonly expected: Observation
}

/** A page on the loopback default policy's side, a page the `/api/v2` RegExp admits, and a stranger. */
export const PAGE = 'http://localhost:5173'
export const LISTED_PAGE = 'http://app.example.test'
export const FOREIGN_PAGE = 'http://evil.test'

/** A request, compared whole: status, compared headers, body, and whether the backend received it. */
function check(name: string, ask: Ask, expected: Observation, extra?: readonly string[]): ParityCheck {
  return {
    name,
    expected,
    async observe({ proxy, received }) {
      const before = received()
      const answer = await send(proxy, ask)
      // A preflight answered by the proxy never reaches the backend; everything else does.
      return { ...answerFields(answer, extra), 'reached backend': received() > before }
    },
  }
}

const ws = (proxy: string, route = '/live') => `${proxy.replace(/^http/, 'ws')}${route}/ws`

/** Origins around the edges of the loopback default and of `/api/v2`'s list and RegExp. */
const ORIGINS = [
  PAGE,
  'https://localhost',
  'http://LOCALHOST:3000',
  'http://app.localhost:8080',
  'http://a.b.localhost',
  'http://127.0.0.1:9',
  'http://127.255.255.254',
  'http://[::1]:5173',
  'http://localhost:65535',
  'http://localhost:65536',
  'http://localhost:5173/',
  'http://localhost.evil.test',
  'http://127.0.0.1.evil.test',
  'http://256.0.0.1',
  'ws://localhost:5173',
  'null',
  FOREIGN_PAGE,
  'http://app.test',
  'http://app.test:80',
  LISTED_PAGE,
  'HTTP://X.EXAMPLE.TEST',
  'http://example.test',
]

/** The origins each policy admits: the `Access-Control-Allow-Origin` of a GET from each. */
const ALLOWED_ORIGINS: ParityCheck = {
  name: 'the origins each policy admits, one by one',
  expected: {
    '/api http://localhost:5173': PAGE,
    '/api http://LOCALHOST:3000': 'http://LOCALHOST:3000',
    '/api http://[::1]:5173': 'http://[::1]:5173',
    '/api http://localhost:65536': null,
    '/api http://localhost.evil.test': null,
    '/api null': null,
    '/api/v2 http://app.test': 'http://app.test',
    '/api/v2 http://app.test:80': null,
    '/api/v2 http://app.example.test': LISTED_PAGE,
    '/api/v2 HTTP://X.EXAMPLE.TEST': null,
    '/api/v2 http://localhost:5173': null,
  },
  async observe({ proxy }) {
    const allowed: Observation = {}
    for (const route of ['/api', '/api/v2']) {
      for (const origin of ORIGINS) {
        const answer = await send(proxy, { path: `${route}/x`, headers: { origin } })
        allowed[`${route} ${origin}`] = answer.headers['access-control-allow-origin']?.join(' | ') ?? null
      }
    }
    return allowed
  },
}

/**
 * The checks, against the routes of parity.test.ts (`/api`, `/api/v2`, `/plain`, `/keep`,
 * `/live`, `/slow`, `/dead`). Each is sent through the dev proxy, nginx and Caddy.
 */
export const PARITY_CHECKS: readonly ParityCheck[] = [
  check(
    'prefix removed, query kept',
    { path: '/api/users/7?x=1&y=a%20b&y=c' },
    { 'echo path': '/users/7', 'echo query': { x: '1', y: ['a b', 'c'] } },
  ),
  check('the prefix alone becomes /', { path: '/api?q=1' }, { 'echo path': '/', 'echo query': { q: '1' } }),
  check(
    'longest prefix wins, target base path joined',
    { path: '/api/v2/items?page=2' },
    { 'echo path': '/v2/items', 'echo header x-token': 'fixed' },
  ),
  check(
    'percent-encoded characters stay encoded',
    { path: '/api/a%2Fb%20c%7E?q=%2F' },
    { 'echo path': '/a%2Fb%20c%7E', 'echo query': { q: '/' } },
  ),
  check('repeated slashes after the prefix', { path: '/api//x//y' }, { 'echo path': '/x//y' }),
  check('pathRewrite: false keeps the path', { path: '/keep/a/b?c=d' }, { 'echo path': '/keep/a/b' }),
  {
    name: '/api does not take /api2',
    expected: { 'reached backend': false },
    async observe({ proxy, received }) {
      const before = received()
      // No route takes it: what answers then is each server's own business (the app's files).
      await send(proxy, { path: '/api2/x' })
      return { 'reached backend': received() > before }
    },
  },
  check(
    'forwarding headers and the client’s own headers',
    { path: '/plain/h', headers: { 'x-custom': 'kept' } },
    {
      'echo header host': '<backend>',
      'echo header x-custom': 'kept',
      'echo header x-forwarded-for': '127.0.0.1',
      'echo header x-real-ip': '127.0.0.1',
      'echo header x-forwarded-proto': 'http',
      'echo header x-forwarded-host': '<proxy>',
      'echo header x-forwarded-port': '<proxy port>',
    },
  ),
  check(
    'forwarding headers the client already sent',
    {
      path: '/plain/h',
      headers: {
        'x-forwarded-for': '203.0.113.9',
        'x-real-ip': '203.0.113.9',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'outer.example',
        'x-forwarded-port': '444',
      },
    },
    { 'echo header x-forwarded-for': '203.0.113.9, 127.0.0.1' },
  ),
  check(
    'a body streams up',
    {
      method: 'PUT',
      path: '/plain/items/1',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(2000) }),
    },
    { 'echo method': 'PUT', 'echo body': { name: 'x'.repeat(2000) }, 'echo header content-length': '2011' },
  ),
  {
    name: 'a same-origin Origin is sent as the target’s',
    expected: { 'echo header origin': 'http://<backend>' },
    async observe({ proxy }) {
      return answerFields(await send(proxy, { path: '/plain/o', headers: { origin: proxy } }))
    },
  },
  check(
    'a cross-origin Origin goes up unchanged',
    { path: '/plain/o', headers: { origin: FOREIGN_PAGE } },
    { 'echo header origin': FOREIGN_PAGE },
  ),
  check(
    'preflight answered by the route’s policy',
    {
      method: 'OPTIONS',
      path: '/api/items',
      headers: {
        origin: PAGE,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type,x-b',
      },
    },
    {
      status: 204,
      'reached backend': false,
      'header access-control-allow-origin': PAGE,
      'header access-control-allow-credentials': 'true',
      'header access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
      'header access-control-allow-headers': 'content-type,x-b',
      'header access-control-max-age': '600',
      'header access-control-expose-headers': 'x-total',
      'header vary': 'access-control-request-headers, origin',
      // RFC 9110 §8.6: none of the three sends a Content-Length with a 204.
      'header content-length': null,
    },
    ['content-length'],
  ),
  check(
    'preflight from an origin the policy refuses',
    {
      method: 'OPTIONS',
      path: '/api/items',
      headers: { origin: FOREIGN_PAGE, 'access-control-request-method': 'PUT' },
    },
    { status: 204, 'reached backend': false, 'header access-control-allow-origin': null },
  ),
  check(
    'preflight with listed headers and a RegExp origin',
    {
      method: 'OPTIONS',
      path: '/api/v2/items',
      headers: { origin: LISTED_PAGE, 'access-control-request-method': 'PUT' },
    },
    {
      status: 204,
      'header access-control-allow-origin': LISTED_PAGE,
      'header access-control-allow-headers': 'content-type,x-token',
      'header vary': 'origin',
    },
  ),
  check(
    'preflight on a route without cors reaches the backend',
    {
      method: 'OPTIONS',
      path: '/plain/items?cors=reflect',
      headers: { origin: PAGE, 'access-control-request-method': 'PUT' },
    },
    { status: 204, 'reached backend': true, 'header access-control-allow-origin': PAGE },
  ),
  check(
    'OPTIONS that is not a preflight is forwarded',
    { method: 'OPTIONS', path: '/api/items', headers: { origin: PAGE } },
    { status: 200, 'echo method': 'OPTIONS', 'header access-control-allow-origin': PAGE },
  ),
  check(
    'CORS headers on a 200, replacing the backend’s',
    { path: '/api/x?cors=wildcard', headers: { origin: PAGE } },
    {
      status: 200,
      'header access-control-allow-origin': PAGE,
      'header access-control-allow-credentials': 'true',
      'header access-control-expose-headers': 'x-total',
      'header access-control-allow-methods': null,
      'header vary': 'origin',
    },
  ),
  check(
    'CORS headers on a 404',
    { path: '/api/missing?status=404', headers: { origin: PAGE } },
    { status: 404, 'header access-control-allow-origin': PAGE, 'header vary': 'origin' },
  ),
  check(
    'no allow-origin for an origin the policy refuses',
    { path: '/api/x', headers: { origin: FOREIGN_PAGE } },
    { status: 200, 'header access-control-allow-origin': null, 'header vary': 'origin' },
  ),
  check(
    'an origin listed exactly',
    { path: '/api/v2/x', headers: { origin: 'http://app.test' } },
    { 'header access-control-allow-origin': 'http://app.test' },
  ),
  ALLOWED_ORIGINS,
  check(
    'a route without cors passes the backend’s CORS headers',
    { path: '/plain/x?cors=reflect', headers: { origin: PAGE } },
    { 'header access-control-allow-origin': PAGE, 'header access-control-allow-credentials': 'true' },
  ),
  check(
    'a path-absolute redirect gets the prefix back',
    { path: '/api/login?redirect=/home%3Fa%3D1' },
    { status: 302, 'header location': '/api/home?a=1' },
  ),
  {
    name: 'an absolute redirect points back at the proxy',
    expected: { status: 302, 'header location': 'http://<proxy>/api/home?a=1' },
    async observe({ proxy, backend }) {
      const location = encodeURIComponent(`${backend}/home?a=1`)
      return answerFields(await send(proxy, { path: `/api/login?redirect=${location}` }))
    },
  },
  check(
    'a redirect under the target base path',
    { path: '/api/v2/login?redirect=/v2/next' },
    { 'header location': '/api/v2/next' },
  ),
  check(
    'a redirect outside the target base path is left alone',
    { path: '/api/v2/login?redirect=/other' },
    { 'header location': '/other' },
  ),
  check(
    'Set-Cookie loses its Domain',
    { path: '/api/cookie?set=a=1&set=b=2&domain=api.example' },
    { 'header set-cookie': 'a=1; Path=/; HttpOnly; SameSite=Lax | b=2; Path=/; HttpOnly; SameSite=Lax' },
  ),
  {
    name: 'server-sent events arrive one by one',
    expected: { 'event ids': ['1', '2', '3'], 'every gap at least 100 ms': true },
    async observe({ proxy }) {
      // Held back and flushed at the end, the gaps are about 0 ms, not about 150, on every try. A
      // client stalled by a loaded machine reads events together too, but not three times in a row.
      let observed: Record<string, unknown> = {}
      for (let attempt = 0; attempt < 3; attempt++) {
        const { answer, events } = await readEvents(proxy, '/live/events?count=3&interval=150')
        const gaps = events.slice(1).map((event, index) => event.at - (events[index]?.at ?? 0))
        observed = {
          ...answerFields({ ...answer, body: '' }, ['x-accel-buffering']),
          'event ids': events.map((event) => event.id),
          'every gap at least 100 ms': gaps.length === 2 && gaps.every((gap) => gap >= 100),
        }
        if (observed['every gap at least 100 ms'] === true) break
      }
      return observed
    },
  },
  {
    // What the body of an error says is each server's own (the dev proxy names the target and
    // the cause; nginx and Caddy send their own page): the status is what is compared.
    name: 'a target slower than timeout is answered 504',
    expected: { status: 504 },
    observe: async ({ proxy }) => ({ status: (await send(proxy, { path: '/slow/x?delay=1500' })).status }),
  },
  {
    name: 'a stream silent longer than timeout',
    expected: { 'event ids': ['1', '2'], complete: true },
    async observe({ proxy }) {
      const { events, complete } = await readEvents(proxy, '/slow/events?count=2&interval=600')
      return { 'event ids': events.map((event) => event.id), complete }
    },
  },
  {
    name: 'a target that refuses the connection is answered 502',
    expected: { status: 502 },
    observe: async ({ proxy }) => ({ status: (await send(proxy, { path: '/dead/x' })).status }),
  },
  {
    name: 'WebSocket echo',
    expected: { outcome: { echo: 'ping' } },
    observe: async ({ proxy }) => ({ outcome: await echoOverWebSocket(ws(proxy), PAGE, 'ping') }),
  },
  {
    name: 'a WebSocket handshake on a route without ws',
    // `serve` answers an upgrade no route takes 404 rather than leave the socket hanging.
    expected: { outcome: { refused: 404 } },
    observe: async ({ proxy }) => ({ outcome: await echoOverWebSocket(ws(proxy, '/plain'), PAGE, 'ping') }),
  },
  {
    name: 'WebSocket from an origin the policy refuses',
    expected: { outcome: { refused: 403 } },
    observe: async ({ proxy }) => ({ outcome: await echoOverWebSocket(ws(proxy), FOREIGN_PAGE, 'ping') }),
  },
]
