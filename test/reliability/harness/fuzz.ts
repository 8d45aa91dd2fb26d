/**
 * A seeded generator of malformed HTTP/1.1 requests: valid requests of every kind the routes
 * take (GET, POST with a length or chunked, CORS, preflight, JSONP, WebSocket, HEAD, a path no
 * route claims), each mutated one to three times with byte flips, insertions from a dictionary
 * of hostile tokens, deletions, duplications, truncations, other methods, request targets and
 * headers, pipelining and other line endings. The same seed gives the same requests.
 */

/** mulberry32: a small PRNG whose sequence depends only on its seed. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0
  return function random() {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** What the generated requests name: the front end's Host and the canary's authority. */
export interface FuzzContext {
  readonly host: string
  readonly canary: string
}

const WEBSOCKET =
  'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n'

function seeds(ctx: FuzzContext): string[] {
  const host = `Host: ${ctx.host}\r\n`
  return [
    `GET /api/ok HTTP/1.1\r\n${host}\r\n`,
    `POST /api/echo HTTP/1.1\r\n${host}Content-Type: text/plain\r\nContent-Length: 11\r\n\r\nhello world`,
    `POST /api/chunked HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n`,
    `GET /cors/x HTTP/1.1\r\n${host}Origin: http://localhost:5173\r\n\r\n`,
    `OPTIONS /cors/x HTTP/1.1\r\n${host}Origin: http://localhost:5173\r\nAccess-Control-Request-Method: PUT\r\nAccess-Control-Request-Headers: x-a\r\n\r\n`,
    `GET /jsonp/x?callback=cb HTTP/1.1\r\n${host}\r\n`,
    `GET /api/socket HTTP/1.1\r\n${host}${WEBSOCKET}\r\n`,
    `HEAD /api/x HTTP/1.1\r\n${host}\r\n`,
    `GET /elsewhere HTTP/1.1\r\n${host}\r\n`,
  ]
}

function tokens(ctx: FuzzContext): string[] {
  return [
    '\r\n',
    '\n',
    '\r',
    '\0',
    ' ',
    '\t',
    ':',
    '/../',
    '/%2e%2e/',
    '%252e',
    '\\',
    ';',
    '..;/',
    '%0d%0a',
    '%00',
    '?',
    '#',
    '@',
    `//${ctx.canary}/`,
    `http://${ctx.canary}`,
    'Transfer-Encoding: chunked\r\n',
    'Transfer-Encoding: xchunked\r\n',
    'Content-Length: 5\r\n',
    'Content-Length: 99\r\n',
    'Content-Length: -1\r\n',
    'Host: evil.com\r\n',
    `Host: ${ctx.host}\r\n`,
    'Upgrade: h2c\r\n',
    'Connection: upgrade\r\n',
    'Expect: 100-continue\r\n',
    'Origin: null\r\n',
    ' folded\r\n',
    '0\r\n\r\n',
    'ffffffffffffffff\r\n',
    'é',
    '\u00ff',
  ]
}

const METHODS = ['GET', 'POST', 'CONNECT', 'TRACE', 'PRI', 'get', 'G\0T', 'PROPFIND', 'M'.repeat(40), '']

function targets(ctx: FuzzContext): string[] {
  return [
    `http://${ctx.canary}/api/x`,
    `//${ctx.canary}/x`,
    '*',
    `${ctx.canary}`,
    '/api/../../x',
    '/api/%2e%2e/x',
    '/api\\..\\x',
    '/api/..;/x',
    '/api/%252e%252e/x',
    `/api/${'a'.repeat(9000)}`,
    '/jsonp/x?callback=alert(1)//',
    '/cors/socket',
    '',
  ]
}

/** Mutates `request` once with the generator's next choices. */
function mutate(request: string, random: () => number, ctx: FuzzContext): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
  const at = () => Math.floor(random() * (request.length + 1))
  switch (Math.floor(random() * 11)) {
    case 0: {
      const index = Math.min(at(), request.length - 1)
      const byte = pick([
        0x00,
        0x0d,
        0x0a,
        0x20,
        0x09,
        0x3a,
        0x2f,
        0x25,
        0x5c,
        0x7f,
        0xff,
        Math.floor(random() * 256),
      ])
      return request.slice(0, index) + String.fromCharCode(byte) + request.slice(index + 1)
    }
    case 1: {
      const index = at()
      return request.slice(0, index) + pick(tokens(ctx)) + request.slice(index)
    }
    case 2: {
      const index = at()
      return request.slice(0, index) + request.slice(index + 1 + Math.floor(random() * 16))
    }
    case 3: {
      const index = at()
      const length = 1 + Math.floor(random() * 24)
      return (
        request.slice(0, index + length) +
        request.slice(index, index + length) +
        request.slice(index + length)
      )
    }
    case 4:
      return request.slice(0, at())
    case 5:
      return request.replace(/^[^ ]*/, pick(METHODS))
    case 6:
      return request.replace(/^([^ ]* )[^ ]*/, `$1${pick(targets(ctx))}`)
    case 7: {
      const end = request.indexOf('\r\n')
      const line =
        random() < 0.2 ? `X-Big: ${'a'.repeat(Math.floor(random() * 20_000))}\r\n` : pick(tokens(ctx))
      return end === -1 ? request : `${request.slice(0, end + 2)}${line}${request.slice(end + 2)}`
    }
    case 8:
      return request + request
    case 9:
      return request.replaceAll('\r\n', pick(['\n', '\r', '\r\r\n', '\n\r']))
    default: {
      const lines = request.split('\r\n')
      const index = 1 + Math.floor(random() * Math.max(1, lines.length - 2))
      lines.splice(index, 0, ` ${pick(['chunked', 'x', 'Host: evil.com', ''])}`)
      return lines.join('\r\n')
    }
  }
}

/**
 * `count` malformed requests from `seed`, as latin1 bytes (every character one byte, so a
 * flipped byte stays one byte).
 *
 * @example
 * const requests = fuzzRequests(0x5eed, 500, { host: '127.0.0.1:5173', canary: '127.0.0.1:9' })
 */
export function fuzzRequests(seed: number, count: number, ctx: FuzzContext): Buffer[] {
  const random = createRandom(seed)
  const all = seeds(ctx)
  return Array.from({ length: count }, () => {
    let request = all[Math.floor(random() * all.length)] as string
    const mutations = 1 + Math.floor(random() * 3)
    for (let index = 0; index < mutations; index++) request = mutate(request, random, ctx)
    return Buffer.from(request, 'latin1')
  })
}
