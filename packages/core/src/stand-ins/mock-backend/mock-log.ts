import type { OutgoingHttpHeaders } from 'node:http'
import type { ProxyRequest } from '../../http/proxy-types.js'
import { type MockProtocol, type MockResponse, plainRequestHeaders, requestProtocol } from './mock-http.js'

/**
 * One request the mock backend received. The browser enforces CORS on the response, not the
 * request: a blocked call still arrives here and is answered, which this log makes visible.
 * `status`, `handled` and `responseHeaders` are filled in when the answer is done.
 */
export interface MockRequestLog {
  /** Arrival order, from 1. */
  readonly id: number
  /** When it arrived (milliseconds since the epoch). */
  readonly time: number
  readonly method: string
  /** Path and query as received. */
  readonly path: string
  /** The `Origin` header, or `null`. */
  readonly origin: string | null
  /** Whether it was a CORS preflight (OPTIONS with Origin and Access-Control-Request-Method). */
  readonly preflight: boolean
  readonly protocol: MockProtocol
  /** Request headers, names lowercased, pseudo-headers left out. */
  readonly requestHeaders: Readonly<Record<string, string | string[]>>
  /** Status sent, once the answer's headers went out. */
  status: number | undefined
  /** Whether the backend answered (headers sent) before the exchange ended. */
  handled: boolean
  /** Response headers as sent (names lowercased, values as strings), once answered. */
  responseHeaders: Record<string, string | string[]> | undefined
}

/** The bounded request log of one mock backend. */
export interface MockLog {
  /** Entries, oldest first; the same array for the backend's whole life. */
  readonly entries: MockRequestLog[]
  /** Appends an entry for `req` (at `path`, its target as the backend sees it) and completes it when `res` is done. */
  record(req: ProxyRequest, res: MockResponse, path: string, preflight: boolean): MockRequestLog
}

function plainHeaders(headers: OutgoingHttpHeaders): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    result[name.toLowerCase()] = Array.isArray(value) ? value.map(String) : String(value)
  }
  return result
}

/**
 * The response headers as they went out. HTTP/1.x: read from the head Node wrote, because Node
 * adds `Date`, `Connection`, `Keep-Alive` and `Transfer-Encoding` itself, outside `getHeaders()`,
 * and a browser sees them (which headers a script may read depends on them). `_header` is
 * Node's undocumented but long-stable copy of that head; without it (HTTP/2), `getHeaders()`.
 */
function sentHeaders(res: MockResponse): Record<string, string | string[]> {
  const head = (res as { _header?: unknown })._header
  if (typeof head !== 'string') return plainHeaders(res.getHeaders())
  const result: Record<string, string | string[]> = {}
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const name = line.slice(0, colon).toLowerCase()
    const value = line.slice(colon + 1).trim()
    const previous = result[name]
    result[name] =
      previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value]
  }
  return result
}

/** Creates a log that keeps the last `limit` requests. */
export function createMockLog(limit: number): MockLog {
  const entries: MockRequestLog[] = []
  let nextId = 1
  return {
    entries,
    record(req, res, path, preflight) {
      const entry: MockRequestLog = {
        id: nextId++,
        time: Date.now(),
        method: req.method ?? 'GET',
        path,
        origin: req.headers.origin ?? null,
        preflight,
        protocol: requestProtocol(req),
        requestHeaders: plainRequestHeaders(req),
        status: undefined,
        handled: false,
        responseHeaders: undefined,
      }
      entries.push(entry)
      if (entries.length > limit) entries.splice(0, entries.length - limit)
      let done = false
      const complete = (): void => {
        if (done) return
        done = true
        entry.handled = res.headersSent
        if (!res.headersSent) return
        entry.status = res.statusCode
        entry.responseHeaders = sentHeaders(res)
      }
      res.on('finish', complete)
      res.on('close', complete)
      return entry
    },
  }
}
