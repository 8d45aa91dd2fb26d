/*
 * Next passes the body of a Response that `proxy.ts` (or `middleware.ts`) returns on as it is, but
 * drops its `Content-Encoding` and `Content-Length` (`ipcForbiddenHeaders` in Next's
 * server-ipc/utils.ts, `FORBIDDEN_HEADERS` in send-response.ts and web/sandbox/sandbox.ts: it
 * takes the body for one `fetch()` already decoded), then compresses it again itself. A target's
 * br or gzip answer handed over as it came reached the browser as gzip around br, with one
 * `Content-Encoding: gzip`. So an answer leaves `createNextProxy` decoded, as a stream, whoever
 * wrote it: the target, a mock, a replayed recording.
 */
import { pipeline, Readable, type Transform } from 'node:stream'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import * as zlib from 'node:zlib'

// As undici decodes for fetch(): a body cut short ends with what arrived, each chunk decoded as
// it comes (an event stream stays event by event).
const ZLIB_OPTIONS = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH }
const BROTLI_OPTIONS = {
  flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
}

/** Zstandard from Node 22.15 and 23.8; read from the namespace so the module loads on Node 20. */
const createZstdDecompress = (zlib as unknown as { createZstdDecompress?: () => Transform })
  .createZstdDecompress

/**
 * A streaming decoder per content coding (RFC 9110 section 8.4.1). `deflate` is the zlib format
 * the RFC names, what express's `compression` and json-server send.
 */
const DECODERS: ReadonlyMap<string, () => Transform> = new Map([
  ['gzip', () => zlib.createGunzip(ZLIB_OPTIONS)],
  ['x-gzip', () => zlib.createGunzip(ZLIB_OPTIONS)],
  ['deflate', () => zlib.createInflate(ZLIB_OPTIONS)],
  ['br', () => zlib.createBrotliDecompress(BROTLI_OPTIONS)],
  ...(createZstdDecompress === undefined ? [] : [['zstd', () => createZstdDecompress()] as const]),
])

/** The codings of a `Content-Encoding` or `Accept-Encoding` list, lower case, parameters dropped. */
function codingOf(part: string): string {
  return (part.split(';')[0] ?? '').trim().toLowerCase()
}

/** A coding the answer can come back in: one decoded here, or none. */
function decodable(coding: string): boolean {
  return coding === 'identity' || DECODERS.has(coding)
}

/**
 * The request with only the codings this Node decodes left in `Accept-Encoding` (Chromium asks
 * for zstd, which Node 20 cannot decode), so that a target that honours the list never answers
 * in one; the request itself when nothing is dropped.
 *
 * @example
 * acceptingDecodable(new Request(url, { headers: { 'accept-encoding': 'gzip, br, zstd' } }))
 */
export function acceptingDecodable(request: Request): Request {
  const accept = request.headers.get('accept-encoding')
  if (accept === null) return request
  const parts = accept.split(',')
  const kept = parts.filter((part) => decodable(codingOf(part)))
  if (kept.length === parts.length) return request
  const headers = new Headers(request.headers)
  headers.set('accept-encoding', kept.length === 0 ? 'identity' : kept.map((part) => part.trim()).join(', '))
  return new Request(request, { headers, duplex: 'half' } as RequestInit)
}

/** A 502 for an answer in a coding this Node cannot decode: Next would send its bytes unlabelled. */
function undecodable(encoding: string): Response {
  return new Response(
    `cors-dev-proxy: the target answered with Content-Encoding: ${encoding}, which this Node cannot decode; Next's proxy.ts passes a body on without its Content-Encoding, so the answer is decoded before Next gets it (${[...DECODERS.keys()].join(', ')})\n`,
    { status: 502, headers: { 'content-type': 'text/plain; charset=utf-8' } },
  )
}

/**
 * The answer with its body decoded as it streams and without `Content-Encoding` and
 * `Content-Length`, for Next to pass on (and compress) as the plain body it takes it for; the
 * answer itself when it has no body or no coding. A stacked list (`gzip, br`) is undone in
 * reverse; a coding this Node cannot decode is a 502 that says so.
 *
 * @example
 * decodedForNext(await handler(request))
 */
export function decodedForNext(response: Response): Response {
  const encoding = response.headers.get('content-encoding')
  if (encoding === null || response.body === null) return response
  const codings = encoding
    .split(',')
    .map(codingOf)
    .filter((coding) => coding !== '' && coding !== 'identity')
  if (codings.length === 0) return response
  const decoders: Transform[] = []
  for (const coding of codings.reverse()) {
    const decoder = DECODERS.get(coding)
    if (decoder === undefined) {
      void response.body.cancel()
      return undecodable(encoding)
    }
    decoders.push(decoder())
  }
  const source = Readable.fromWeb(response.body as NodeReadableStream)
  // A body that breaks off or fails to decode errors the stream Next reads, which ends the
  // browser's answer short; Next cancelling it (the page left) destroys each stream back to the engine.
  const decoded = pipeline([source, ...decoders], () => {}) as unknown as Readable
  const headers = new Headers(response.headers)
  headers.delete('content-encoding')
  headers.delete('content-length')
  return new Response(Readable.toWeb(decoded) as ReadableStream, {
    status: response.status,
    statusText: response.statusText,
    headers,
  })
}
