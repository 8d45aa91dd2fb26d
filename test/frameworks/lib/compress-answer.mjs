// The suite backend's compression, as the backends users run do it: json-server and any Express
// app with `compression` send an answer of a compressible type over 1 kB gzip- or br-encoded, by
// the request's Accept-Encoding (q-values honoured, the server's preference, br then gzip,
// deciding ties), with `Vary: Accept-Encoding`, streamed through node:zlib as it is written.
// The size is the answer's Content-Length, or without one its first write (compression's own
// rule): an event stream, whose first event is small, goes out as it is, event by event.
import { constants, createBrotliCompress, createGzip } from 'node:zlib'

/** Answers smaller than this go out as they are (compression's default `threshold`). */
export const COMPRESSION_THRESHOLD = 1024
/** The codings the backend knows, its preference first. */
export const CODINGS = Object.freeze(['br', 'gzip'])
/** Types compressed (compression's filter, via mime-db's `compressible`). */
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml)|[^;]*\+(json|xml))/i
/** Statuses that carry no body (RFC 9110 §6.4.1). */
const BODILESS = new Set([204, 205, 304])

/**
 * The coding to answer with, from an `Accept-Encoding` value: the highest q-value among
 * `supported` (`*` standing for any coding not named), ties going to the earlier one of
 * `supported`; undefined when none is acceptable (identity then, as compression does).
 * @param {string | undefined} header
 * @param {readonly string[]} [supported]
 * @returns {string | undefined}
 * @example
 * chooseCoding('gzip, deflate, br, zstd') // 'br'
 * chooseCoding('br;q=0.5, gzip') // 'gzip'
 */
export function chooseCoding(header, supported = CODINGS) {
  const weights = new Map()
  for (const part of String(header ?? '').split(',')) {
    const [token = '', ...params] = part.split(';')
    const name = token.trim().toLowerCase()
    if (name === '') continue
    const q = params.map((param) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(param)).find(Boolean)
    weights.set(name, q ? Number(q[1]) : 1)
  }
  let best
  let bestWeight = 0
  for (const coding of supported) {
    const weight = weights.get(coding) ?? weights.get('*') ?? 0
    if (weight > bestWeight) {
      best = coding
      bestWeight = weight
    }
  }
  return best
}

/** `vary` with Accept-Encoding added once. */
function withVary(vary) {
  const names = String(vary ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  if (names.some((name) => name === '*' || name.toLowerCase() === 'accept-encoding')) return names.join(', ')
  return [...names, 'Accept-Encoding'].join(', ')
}

/**
 * A response for the mock backend's handlers (the part of ServerResponse they use: status,
 * headers, write, end) that compresses what they write, decided at the first write or end.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {{ supported?: readonly string[], onCoding?: (coding: string) => void }} [options]
 *   `supported`: the codings this answer may use (a gzip-only backend: `['gzip']`);
 *   `onCoding`: told the coding of each answer it compressed
 * @example
 * mock(req, compressingResponse(req, res))
 */
export function compressingResponse(req, res, options = {}) {
  /** The zlib stream once the answer is compressed; null once it was decided it is not. */
  let stream
  let ended = false
  const decide = (chunk) => {
    stream = null
    if (res.headersSent || req.method === 'HEAD' || BODILESS.has(res.statusCode)) return
    if (res.getHeader('content-encoding') !== undefined) return
    if (!COMPRESSIBLE.test(String(res.getHeader('content-type') ?? ''))) return
    res.setHeader('vary', withVary(res.getHeader('vary')))
    const declared = res.getHeader('content-length')
    const size = declared !== undefined ? Number(declared) : chunk == null ? 0 : Buffer.byteLength(chunk)
    if (size < COMPRESSION_THRESHOLD) return
    const coding = chooseCoding(req.headers['accept-encoding'], options.supported ?? CODINGS)
    if (coding === undefined) return
    res.removeHeader('content-length')
    res.setHeader('content-encoding', coding)
    stream =
      coding === 'br'
        ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_SIZE_HINT]: size } })
        : createGzip()
    stream.pipe(res)
    options.onCoding?.(coding)
  }
  return {
    get statusCode() {
      return res.statusCode
    },
    set statusCode(status) {
      res.statusCode = status
    },
    get headersSent() {
      return res.headersSent
    },
    get writableEnded() {
      return ended || res.writableEnded
    },
    get destroyed() {
      return res.destroyed
    },
    setHeader: (name, value) => res.setHeader(name, value),
    getHeader: (name) => res.getHeader(name),
    getHeaders: () => res.getHeaders(),
    removeHeader: (name) => res.removeHeader(name),
    on(event, listener) {
      res.on(event, listener)
      return this
    },
    write(chunk) {
      if (stream === undefined) decide(chunk)
      return stream ? stream.write(chunk) : res.write(chunk)
    },
    end(chunk) {
      if (ended) return this
      ended = true
      if (stream === undefined) decide(chunk)
      if (stream) stream.end(chunk ?? undefined)
      else res.end(chunk)
      return this
    },
  }
}
