import { connect as connectTcp, type Socket } from 'node:net'
import { connect as connectTls } from 'node:tls'

/** One HTTP/1.x response head read off the wire. */
export interface RawHead {
  readonly status: number
  /** Header names lowercased; a repeated header keeps its last value. */
  readonly headers: Readonly<Record<string, string>>
}

/** What came back on one connection. */
export interface RawExchange {
  /** Every response head found in what the server sent, in order (pipelined answers included). */
  readonly heads: readonly RawHead[]
  /** The first status, or `0` when nothing parsable came back. */
  readonly status: number
  /** Everything the server sent, as latin1 text. */
  readonly text: string
  /** The server closed (or reset) the connection before the time limit. */
  readonly closed: boolean
  /** The time limit passed with the connection still open. */
  readonly timedOut: boolean
  /** Milliseconds from sending to the end of the exchange. */
  readonly ms: number
}

/** Options of {@link rawExchange}. */
export interface RawExchangeOptions {
  /**
   * Milliseconds before the exchange ends with `timedOut` and the socket is destroyed.
   * @default 3000
   */
  readonly timeoutMs?: number
  /**
   * Half-close right after sending. Node's servers then abort the requests in flight (they do
   * not allow half-open connections) and close, so use it only to force an answer or a close
   * out of a request that waits for more bytes.
   * @default false
   */
  readonly end?: boolean
  /**
   * The exchange ends once this many complete responses arrived (a `101` counts as complete at
   * the end of its head), or earlier when the server closes.
   * @default 1
   */
  readonly responses?: number
  /** Connect over TLS (self-signed accepted), offering only HTTP/1.1. */
  readonly tls?: boolean
  /** Stop reading once this many bytes arrived. @default 1 MiB */
  readonly maxBytes?: number
  /**
   * Half-close this many milliseconds after sending when the exchange is still going: a request
   * that waits for bytes that never come is then answered or closed by the server.
   * @default never
   */
  readonly endAfterMs?: number
}

/**
 * How many complete responses `data` holds: each head, then its body framed by
 * `Content-Length` or chunked encoding (a response without either ends with the connection).
 */
export function completeResponses(data: Buffer): number {
  let count = 0
  let offset = 0
  while (offset < data.length) {
    const headEnd = data.indexOf('\r\n\r\n', offset)
    if (headEnd === -1) return count
    const head = data.subarray(offset, headEnd).toString('latin1')
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0)
    let next = headEnd + 4
    if (status === 101) return count + 1
    if (status >= 100 && status < 200) {
      offset = next
      continue
    }
    const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1]
    if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
      const end = data.indexOf('\r\n0\r\n\r\n', headEnd)
      const empty = data.subarray(next, next + 5).toString('latin1') === '0\r\n\r\n'
      if (empty) next += 5
      else if (end === -1) return count
      else next = end + 7
    } else if (length !== undefined) {
      next += Number(length)
      if (next > data.length) return count
    } else if (status !== 204 && status !== 304) return count
    count++
    offset = next
  }
  return count
}

const STATUS_LINE = /(?:^|\r?\n)HTTP\/1\.[01] (\d{3})[^\r\n]*\r?\n/g

/** Parses every response head in `text` (a head ends at the first empty line after it). */
export function parseHeads(text: string): RawHead[] {
  const heads: RawHead[] = []
  for (const match of text.matchAll(STATUS_LINE)) {
    const start = (match.index ?? 0) + match[0].length
    const end = text.indexOf('\r\n\r\n', start)
    const block = text.slice(start, end === -1 ? undefined : end)
    const headers: Record<string, string> = {}
    for (const line of block.split('\r\n')) {
      const colon = line.indexOf(':')
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
    }
    heads.push({ status: Number(match[1]), headers })
  }
  return heads
}

/**
 * Sends `bytes` exactly as given on a fresh connection to 127.0.0.1 and collects what comes
 * back until `responses` complete answers arrived, the server closes, `maxBytes` arrive or
 * `timeoutMs` passes (bounded either way).
 * An HTTP client would normalise the input (the request line, the framing headers, CR/LF),
 * which is what these tests must not let it do.
 *
 * @example
 * const answer = await rawExchange(port, 'GET /api/../x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
 */
export function rawExchange(
  port: number,
  bytes: string | Buffer,
  options: RawExchangeOptions = {},
): Promise<RawExchange> {
  const timeoutMs = options.timeoutMs ?? 3000
  const maxBytes = options.maxBytes ?? 1024 * 1024
  const wanted = options.responses ?? 1
  const started = performance.now()
  return new Promise((resolve) => {
    const socket: Socket = options.tls
      ? connectTls({ host: '127.0.0.1', port, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] })
      : connectTcp({ host: '127.0.0.1', port })
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    const finish = (closed: boolean, timedOut: boolean): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      clearTimeout(ender)
      socket.destroy()
      const text = Buffer.concat(chunks).toString('latin1')
      const heads = parseHeads(text)
      resolve({
        heads,
        status: heads[0]?.status ?? 0,
        text,
        closed,
        timedOut,
        ms: performance.now() - started,
      })
    }
    const timer = setTimeout(() => finish(false, true), timeoutMs)
    const ender =
      options.endAfterMs === undefined
        ? undefined
        : setTimeout(() => {
            if (!settled && !socket.destroyed) socket.end()
          }, options.endAfterMs)
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      size += chunk.byteLength
      if (size >= maxBytes || completeResponses(Buffer.concat(chunks)) >= wanted) finish(false, false)
    })
    socket.on('error', () => finish(true, false))
    socket.on('close', () => finish(true, false))
    socket.once(options.tls ? 'secureConnect' : 'connect', () => {
      socket.write(bytes)
      if (options.end ?? false) socket.end()
    })
  })
}

/**
 * A request as bytes: the request line, then each header line as given (no validation, no
 * added headers), then the body.
 *
 * @example
 * rawRequest('GET /api HTTP/1.1', ['Host: 127.0.0.1'])
 */
export function rawRequest(requestLine: string, headerLines: readonly string[], body = ''): string {
  return `${requestLine}\r\n${headerLines.map((line) => `${line}\r\n`).join('')}\r\n${body}`
}
