// The Node limit: the two smallest proxies on undici that still forward correctly (prefix removed,
// hop-by-hop headers dropped both ways, the body streamed both ways with back-pressure, a failure
// answered 502). No routing, no CORS, no hooks, no logging, no WebSocket: what is left is the cost
// of Node's HTTP server plus undici's client, which no dev proxy on Node can go below.
//
//   createRequestProxy   undici's `request()`: the answer's body is a Readable, piped into the response
//   createDispatchProxy  undici's `dispatch()`: a handler that writes the head and each chunk straight
//                        into the response, with no body stream in between; with `forwarded`, it
//                        also writes the five forwarding headers cors-dev-proxy writes by default
//                        (`xfwd`), and with `http2`, it speaks HTTP/2 to an https target
import http from 'node:http'
import { pipeline } from 'node:stream'
import { Pool } from 'undici'

/**
 * RFC 9110 §7.6.1: headers that belong to one connection; undici refuses most of them in a
 * request, and HTTP/1.1 framing towards the client is Node's to choose.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'host',
])

/** The request's headers without hop-by-hop ones (and without `host`: undici sets the target's). */
function requestHeaders(rawHeaders) {
  const out = []
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (!HOP_BY_HOP.has(rawHeaders[i].toLowerCase())) out.push(rawHeaders[i], rawHeaders[i + 1])
  }
  return out
}

/** The port in a Host value (`[::1]:5173`, `localhost:5173`), or `undefined` when it has none. */
function hostPort(host) {
  const colon = host.lastIndexOf(':')
  if (colon === -1 || host.indexOf(']', colon) !== -1) return undefined
  const port = host.slice(colon + 1)
  return port === '' ? undefined : port
}

/**
 * The request's headers as `requestHeaders` gives them, with the forwarding headers added as
 * cors-dev-proxy's `xfwd` (its default) writes them: `X-Forwarded-For` appended to, the other
 * four kept when present. An object, as undici takes the headers ours builds.
 */
function forwardedHeaders(req) {
  const headers = {}
  const raw = req.rawHeaders
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase()
    if (!HOP_BY_HOP.has(name)) headers[name] = raw[i + 1]
  }
  const address = req.socket.remoteAddress
  const proto = req.socket.encrypted ? 'https' : 'http'
  const host = req.headers.host
  const previous = req.headers['x-forwarded-for']
  headers['x-forwarded-for'] = previous ? `${previous}, ${address}` : address
  headers['x-real-ip'] ??= address
  headers['x-forwarded-proto'] ??= proto
  if (host !== undefined) {
    headers['x-forwarded-host'] ??= host
    headers['x-forwarded-port'] ??= hostPort(host) ?? (proto === 'https' ? '443' : '80')
  }
  return headers
}

/** `/api/items?x` → `/items?x`; the bench only sends paths under `prefix`. */
function upstreamPath(url, prefix) {
  const rest = url.slice(prefix.length)
  return rest === '' || rest[0] === '?' ? `/${rest}` : rest
}

function hasBody(req) {
  return req.method !== 'GET' && req.method !== 'HEAD'
}

function badGateway(res, error) {
  if (res.headersSent) res.destroy(error)
  else res.writeHead(502, { 'content-type': 'text/plain' }).end(`bad gateway: ${error.message}`)
}

/**
 * A proxy on undici's `request()`.
 * @param {string} target e.g. `http://127.0.0.1:3000`
 * @param {string} prefix removed from the path, e.g. `/api`
 */
export function createRequestProxy(target, prefix) {
  const pool = new Pool(target)
  return http.createServer(function requestProxy(req, res) {
    const abort = new AbortController()
    res.on('close', () => {
      if (!res.writableFinished) abort.abort()
    })
    pool
      .request({
        method: req.method,
        path: upstreamPath(req.url, prefix),
        headers: requestHeaders(req.rawHeaders),
        body: hasBody(req) ? req : null,
        signal: abort.signal,
      })
      .then(
        ({ statusCode, headers, body }) => {
          for (const name of HOP_BY_HOP) delete headers[name]
          res.writeHead(statusCode, headers)
          pipeline(body, res, () => {})
        },
        (error) => badGateway(res, error),
      )
  })
}

/**
 * A proxy on undici's `dispatch()` with a handler in undici's own (native) callback form, so
 * nothing wraps it: the head is written with `writeHead` from the raw header list, each chunk
 * with `res.write`, pausing undici while the client's socket is full.
 * - `forwarded`: the request also carries the forwarding headers (see `forwardedHeaders`), the
 *   fair floor for a proxy that writes them, as ours does by default.
 * - `http2`: HTTP/2 to an https target (ALPN, certificate not verified, as a route's
 *   `secure: false`), one connection carrying every request in flight as streams: the floor for a route
 *   with `http2: true`.
 * @param {string} target e.g. `http://127.0.0.1:3000`
 * @param {string} prefix removed from the path, e.g. `/api`
 * @param {{ forwarded?: boolean, http2?: boolean }} [options]
 */
export function createDispatchProxy(target, prefix, { forwarded = false, http2 = false } = {}) {
  const pool = http2
    ? // pipelining 100: an undici client takes one request at a time unless told otherwise, which
      // over one HTTP/2 connection would send one stream at a time instead of multiplexing.
      new Pool(target, {
        allowH2: true,
        connections: 1,
        pipelining: 100,
        connect: { rejectUnauthorized: false },
      })
    : new Pool(target)
  const headersOf = forwarded ? forwardedHeaders : (req) => requestHeaders(req.rawHeaders)
  return http.createServer(function dispatchProxy(req, res) {
    let abortUpstream
    res.on('close', () => {
      if (!res.writableFinished) abortUpstream?.(new Error('client closed the connection'))
    })
    pool.dispatch(
      {
        method: req.method,
        path: upstreamPath(req.url, prefix),
        headers: headersOf(req),
        body: hasBody(req) ? req : null,
      },
      {
        onConnect(abort) {
          abortUpstream = abort
        },
        onHeaders(statusCode, rawHeaders, resume) {
          const headers = []
          let length = false
          for (let i = 0; i < rawHeaders.length; i += 2) {
            const name = rawHeaders[i].toString('latin1')
            const lower = name.toLowerCase()
            if (HOP_BY_HOP.has(lower)) continue
            if (lower === 'content-length') length = true
            headers.push(name, rawHeaders[i + 1].toString('latin1'))
          }
          res.writeHead(statusCode, headers)
          // A streamed answer (no length): send the head now, as the target did, so an event
          // stream's client sees it before the first event. With a length, Node sends head and
          // body in one write.
          if (!length) res.flushHeaders()
          res.on('drain', resume)
          return true
        },
        onData(chunk) {
          return res.write(chunk)
        },
        onComplete() {
          res.end()
        },
        onError(error) {
          badGateway(res, error)
        },
      },
    )
  })
}
