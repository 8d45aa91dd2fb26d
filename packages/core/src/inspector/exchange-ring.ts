import type { ExchangeContract } from '../pipeline/exchange.js'
/**
 * One exchange as the proxy saw it. What the inspector and the HAR show is derived from it
 * when they ask (masking, the CORS verdict), so recording costs a few field writes.
 */
export interface ExchangeRecord {
  /** Increasing number, unique per proxy. */
  readonly id: number
  /** When the request arrived (ms since the epoch). */
  readonly startedAt: number
  readonly method: string
  /** The request target as the client sent it (path and query). */
  readonly url: string
  /** The host the client addressed (`Host`, `:authority`), and whether over TLS: the dev server's origin as the page sees it (see `originOf`). */
  readonly host: string | undefined
  readonly tls: boolean
  /** The route's prefix. */
  readonly route: string
  /** `h2` or `http/1.1`, the client's hop. */
  readonly clientProtocol: string
  /** The request's header lines, as received (never sent anywhere but back to the upstream on replay). */
  readonly requestHeaders: readonly string[]
  /** Set once the response is done. */
  status: number
  /** The upstream URL (`undefined` for the mock backend and answers made here). */
  upstreamUrl: string | undefined
  /** `h2`, `http/1.1`, or `mock`. */
  upstreamProtocol: string | undefined
  /** Milliseconds from the request to the upstream's response head. */
  ttfb: number | undefined
  /** Milliseconds from the request to the end of the response. */
  total: number | undefined
  /**
   * The response head as sent to the client, kept as the response has it (HTTP/1.1: the head's
   * text; HTTP/2: the header object; the Fetch front end: the flat `[name, value, …]` list the
   * engine wrote) and parsed only when shown (see `responseHeaderLines`).
   */
  responseHead: string | readonly unknown[] | Readonly<Record<string, unknown>> | undefined
  requestBytes: number
  responseBytes: number
  /** The route's hooks that ran on it (`proxyReq`, `proxyRes`, `transformResponse`...). */
  readonly hooks: readonly string[]
  /** Bodies, copied only while an inspector was connected. */
  requestBody: Buffer | undefined
  responseBody: Buffer | undefined
  bodiesTruncated: boolean
  /** The response ended before it was complete (client gone, upstream reset). */
  aborted: boolean
  /** The exchange this one replays. */
  readonly replayOf: number | undefined
  /**
   * A request cors-dev-proxy sent itself, not the page: `probe`, the overlay's explanation
   * probe (it carried `X-Cors-Dev-Proxy-Probe`). Absent for the page's calls.
   */
  readonly ours?: 'probe' | undefined
  /** The route's `openapi` check (pipeline/exchange.ts), completed after the close; absent on a route without `openapi`. */
  contract?: ExchangeContract | undefined
}

/** Called with each finished exchange. */
export type ExchangeListener = (record: ExchangeRecord) => void

/** The bounded list of recent exchanges and who listens to new ones. */
export interface ExchangeRing {
  /** Adds a finished exchange, dropping the oldest beyond the capacity, and tells the listeners. */
  push(record: ExchangeRecord): void
  /** The exchanges, oldest first. */
  list(): readonly ExchangeRecord[]
  /** One exchange by id, while the ring still holds it. */
  get(id: number): ExchangeRecord | undefined
  /**
   * Tells the listeners again about an exchange the ring still holds whose record changed after
   * its push (its OpenAPI check ends after the response closed); nothing once it was dropped.
   */
  update(record: ExchangeRecord): void
  /** Listens to new exchanges (and updated ones, see `update`); returns the unsubscribe function. */
  subscribe(listener: ExchangeListener): () => void
  /** How many listeners are connected: bodies are copied only when there is one. */
  readonly listeners: number
  /** The next exchange's id. */
  nextId(): number
}

/** Calls each listener with the record. */
function tell(listeners: ReadonlySet<ExchangeListener>, record: ExchangeRecord): void {
  for (const listener of listeners) {
    try {
      listener(record)
    } catch {
      // A listener's failure (a closed event stream) must not reach the request.
    }
  }
}

/**
 * A ring of at most `capacity` exchanges: memory stays flat whatever the traffic (a fixed
 * array, overwritten in place).
 *
 * @example
 * const ring = createExchangeRing(200)
 * ring.subscribe((record) => console.log(record.method, record.url, record.status))
 */
export function createExchangeRing(capacity: number): ExchangeRing {
  const slots: (ExchangeRecord | undefined)[] = new Array(capacity)
  let written = 0
  let ids = 0
  const listeners = new Set<ExchangeListener>()
  return {
    push(record) {
      slots[written % capacity] = record
      written += 1
      tell(listeners, record)
    },
    update(record) {
      // Every checked exchange is updated: without a listener there is nobody to tell.
      if (listeners.size > 0 && this.get(record.id) === record) tell(listeners, record)
    },
    list() {
      const count = Math.min(written, capacity)
      const out: ExchangeRecord[] = []
      for (let index = written - count; index < written; index += 1) {
        const record = slots[index % capacity]
        if (record !== undefined) out.push(record)
      }
      return out
    },
    get(id) {
      const count = Math.min(written, capacity)
      for (let index = written - count; index < written; index += 1) {
        const record = slots[index % capacity]
        if (record?.id === id) return record
      }
      return undefined
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    get listeners() {
      return listeners.size
    },
    nextId() {
      ids += 1
      return ids
    },
  }
}

/**
 * The origin the page addressed, from a record.
 *
 * @example
 * originOf(record) // 'http://localhost:5173'
 */
export function originOf(record: ExchangeRecord): string {
  return `${record.tls ? 'https' : 'http'}://${record.host ?? 'localhost'}`
}

const parsedHeads = new WeakMap<ExchangeRecord, readonly string[]>()

/**
 * The response head's header lines (`[name, value, …]`, names lowercased), parsed from what
 * was recorded the first time they are asked for, so recording costs nothing.
 *
 * @example
 * responseHeaderLines(record) // ['content-type', 'application/json', …]
 */
export function responseHeaderLines(record: ExchangeRecord): readonly string[] {
  const known = parsedHeads.get(record)
  if (known !== undefined) return known
  const head = record.responseHead
  const lines: string[] = []
  if (typeof head === 'string') {
    for (const line of head.split('\r\n').slice(1)) {
      const colon = line.indexOf(':')
      if (colon > 0) lines.push(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim())
    }
  } else if (Array.isArray(head)) {
    for (let index = 0; index + 1 < head.length; index += 2)
      lines.push(String(head[index]).toLowerCase(), String(head[index + 1]))
  } else if (head !== undefined) {
    for (const [name, value] of Object.entries(head)) {
      if (value === undefined || value === null) continue
      for (const item of Array.isArray(value) ? value : [value]) lines.push(name, String(item))
    }
  }
  if (record.total !== undefined) parsedHeads.set(record, lines)
  return lines
}
