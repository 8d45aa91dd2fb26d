import { isJsonMimeType, mimeEssence } from '../../http/mime.js'
import type { ProxyRequest } from '../../http/proxy-types.js'
import { isEncrypted } from '../../http/request-origin.js'
import { parseCookieHeader } from './mock-cookies.js'
import { type MockProtocol, plainRequestHeaders, requestProtocol } from './mock-http.js'

/** What the mock backend answers to any request on a path it does not reserve. */
export interface MockEcho {
  /** The method exactly as received (Node's HTTP/1.1 parser refuses a lowercase `patch` with 400 before any handler runs). */
  method: string
  /** The path without the query, as the backend received it (after any proxy rewrite). */
  path: string
  /** Query parameters; a repeated one becomes an array. */
  query: Record<string, string | string[]>
  /** Request headers, names lowercased; HTTP/2 pseudo-headers are left out (see `protocol`). */
  headers: Record<string, string | string[]>
  /** The `Origin` header, or `null` when the request had none (same-origin GET, curl). */
  origin: string | null
  /** Cookies from the `Cookie` header. */
  cookies: Record<string, string>
  /** JSON and urlencoded bodies parsed, anything else as text; `null` when empty. */
  body: unknown
  /** Size of the body in bytes, as received. */
  bodyBytes: number
  /** Protocol the request arrived on. */
  protocol: MockProtocol
  /** Whether it arrived over TLS. */
  secure: boolean
}

/** The outcome of {@link readRequestBody}. */
export type RequestBodyResult =
  | { readonly ok: true; readonly bytes: Buffer }
  | { readonly ok: false; readonly reason: 'too-large' | 'aborted' }

/**
 * Streams the request body in, keeping at most `limit` bytes in memory. A body announced or
 * found to be larger resolves `too-large` at once; the rest is drained and dropped so the
 * client can still read the 413 (RFC 9110 §15.5.14). Never rejects.
 */
export function readRequestBody(req: ProxyRequest, limit: number): Promise<RequestBodyResult> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length'])
    if (Number.isFinite(declared) && declared > limit) {
      req.resume()
      resolve({ ok: false, reason: 'too-large' })
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    const cleanup = (): void => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onAbort)
      req.off('close', onAbort)
    }
    const onData = (chunk: Buffer): void => {
      size += chunk.byteLength
      if (size > limit) {
        cleanup()
        chunks.length = 0
        req.resume()
        resolve({ ok: false, reason: 'too-large' })
        return
      }
      chunks.push(chunk)
    }
    const onEnd = (): void => {
      cleanup()
      resolve({ ok: true, bytes: Buffer.concat(chunks, size) })
    }
    const onAbort = (): void => {
      cleanup()
      resolve({ ok: false, reason: 'aborted' })
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onAbort)
    req.on('close', onAbort)
  })
}

/** Parses a body by its Content-Type: JSON (also `+json`) and urlencoded; text otherwise, and when JSON is malformed. */
export function parseBody(contentType: string | undefined, bytes: Buffer): unknown {
  if (bytes.byteLength === 0) return null
  const text = bytes.toString('utf8')
  if (isJsonMimeType(contentType)) {
    try {
      return JSON.parse(text)
    } catch {
      return text
    }
  }
  if (mimeEssence(contentType) === 'application/x-www-form-urlencoded')
    return searchParamsToObject(new URLSearchParams(text))
  return text
}

/** Query or form parameters as an object; a repeated name becomes an array. */
export function searchParamsToObject(params: URLSearchParams): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {}
  for (const [name, value] of params) {
    const current = result[name]
    if (current === undefined) result[name] = value
    else if (Array.isArray(current)) current.push(value)
    else result[name] = [current, value]
  }
  return result
}

/** Builds the echo of a request whose body has been read. */
export function buildEcho(req: ProxyRequest, url: URL, body: Buffer): MockEcho {
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: searchParamsToObject(url.searchParams),
    headers: plainRequestHeaders(req),
    origin: req.headers.origin ?? null,
    cookies: parseCookieHeader(req.headers.cookie),
    body: parseBody(req.headers['content-type'], body),
    bodyBytes: body.byteLength,
    protocol: requestProtocol(req),
    secure: isEncrypted(req),
  }
}
