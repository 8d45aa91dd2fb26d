import {
  NO_ALLOW_ORIGIN,
  preflightOk,
  reflect,
  route,
  type SequenceCall,
  type SequenceCase,
} from './sequence-kit.js'

/**
 * Streaming uploads (`body: ReadableStream`, `duplex: 'half'`), measured in Chromium 156: the
 * stream forces a preflight (Fetch §4.1 "main fetch"), a cached one included, and the request
 * itself needs HTTP/2, which Chromium speaks only over TLS and only with a server that agrees on
 * `h2` by ALPN. To an `http:` URL or an https server that speaks only HTTP/1.1 (S), the preflight
 * goes out and the request never does (`net::ERR_ALPN_NEGOTIATION_FAILED`), same-origin too;
 * an https server with HTTP/2 (H) gets it.
 */

const ALPN_FAILED = {
  readable: false,
  network: true,
  console: 'Failed to load resource: net::ERR_ALPN_NEGOTIATION_FAILED',
} as const

/** A streamed POST to `url`. */
const stream = (url: string, rest: Omit<SequenceCall, 'url' | 'body'>): SequenceCall => ({
  url,
  method: 'POST',
  body: 'stream',
  ...rest,
})

const FETCH_ONLY = 'XMLHttpRequest cannot send a stream'

/** A streamed POST to `server`, whose preflight answer has no Access-Control-Allow-Origin. */
function refusedPreflight(name: string, server: 'A' | 'S'): SequenceCase {
  return {
    name,
    fetchOnly: FETCH_ONLY,
    // A preflight answer without Access-Control-Allow-Origin.
    routes: { [`${server} /x`]: route(reflect, () => ({ status: 204 })) },
    calls: [
      stream(`{${server}}/x`, {
        expected: {
          readable: false,
          at: `{${server}}/x`,
          text: `Response to preflight request doesn't pass access control check: ${NO_ALLOW_ORIGIN}`,
        },
        sent: [`OPTIONS ${server}/x {PAGE}`],
      }),
    ],
  }
}

export const STREAM_CASES: readonly SequenceCase[] = [
  {
    name: 'stream: over http: the repeated call uses the cached preflight and fails again, nothing sent',
    fetchOnly: FETCH_ONLY,
    routes: { 'A /x': route(reflect, preflightOk()) },
    calls: [
      stream('{A}/x', { expected: ALPN_FAILED, sent: ['OPTIONS A/x {PAGE}'] }),
      stream('{A}/x', { expected: ALPN_FAILED, sent: [] }),
    ],
  },
  refusedPreflight('stream: over http: a refused preflight is the CORS error, not the ALPN one', 'A'),
  {
    name: 'stream: over http: PUT with a header and credentials, preflight passed, the request never sent',
    fetchOnly: FETCH_ONLY,
    routes: {
      'A /x': route(reflect, preflightOk({ 'access-control-allow-credentials': 'true' })),
    },
    calls: [
      stream('{A}/x', {
        method: 'PUT',
        headers: { 'X-Foo': '1' },
        credentials: true,
        expected: ALPN_FAILED,
        sent: ['OPTIONS A/x {PAGE}'],
      }),
    ],
  },
  {
    name: 'stream: an https server that speaks only HTTP/1.1 gets the preflight, then the ALPN failure, cached or not',
    fetchOnly: FETCH_ONLY,
    routes: { 'S /x': route(reflect, preflightOk()) },
    calls: [
      stream('{S}/x', { expected: ALPN_FAILED, sent: ['OPTIONS S/x {PAGE}'] }),
      stream('{S}/x', { expected: ALPN_FAILED, sent: [] }),
    ],
  },
  {
    name: 'stream: an https HTTP/1.1 server after a plain POST on a kept-alive connection: still the ALPN failure',
    fetchOnly: FETCH_ONLY,
    routes: { 'S /x': route(reflect, preflightOk()) },
    calls: [
      {
        url: '{S}/x',
        method: 'POST',
        body: 'string',
        expected: { readable: true },
        sent: ['POST S/x {PAGE}'],
      },
      stream('{S}/x', { expected: ALPN_FAILED, sent: ['OPTIONS S/x {PAGE}'] }),
    ],
  },
  refusedPreflight('stream: an https HTTP/1.1 server refusing the preflight: the CORS error', 'S'),
  {
    name: 'stream: an https server with HTTP/2 takes it, the second time on the cached preflight',
    fetchOnly: FETCH_ONLY,
    routes: { 'H /x': route(reflect, preflightOk()) },
    calls: [
      stream('{H}/x', {
        expected: { readable: true, status: 200 },
        sent: ['OPTIONS H/x {PAGE}', 'POST H/x {PAGE}'],
      }),
      stream('{H}/x', { expected: { readable: true, status: 200 }, sent: ['POST H/x {PAGE}'] }),
    ],
  },
  {
    name: 'stream: same-origin on an https page that speaks only HTTP/1.1: no preflight, nothing sent',
    fetchOnly: FETCH_ONLY,
    routes: { 'S /x': route({}) },
    calls: [stream('{S}/x', { page: 'S', expected: ALPN_FAILED, sent: [] })],
  },
  {
    name: 'stream: same-origin on an https page with HTTP/2: sent without a preflight',
    fetchOnly: FETCH_ONLY,
    routes: { 'H /x': route({}) },
    calls: [
      stream('{H}/x', { page: 'H', expected: { readable: true, status: 200 }, sent: ['POST H/x {PAGE_H}'] }),
    ],
  },
]
