import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
// The module's binding, not the global: Node's global `performance` is an accessor, read per use.
import { performance } from 'node:perf_hooks'
import type { ResolvedInspectorOptions } from '../config/resolve-inspector-options.js'
import type { ResolvedRoute } from '../config/resolved-route.js'
import { tapBody } from '../http/body-taps.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { clientHost, isEncrypted } from '../http/request-origin.js'
import type { HookableResponse } from '../http/response-head.js'
import type { RequestNotes } from '../pipeline/request-notes.js'
import { createExchangeRing, type ExchangeRecord, type ExchangeRing } from './exchange-ring.js'
import { PROBE_HEADER } from './safe-probe.js'

/** A request being recorded: its record and what its end needs. */
interface Recording {
  readonly record: ExchangeRecord
  readonly ring: ExchangeRing
  readonly mock: boolean
  readonly start: number
  readonly socket: { readonly bytesWritten: number } | undefined
  readonly written: number
  hop: string | undefined
  headAt: number | undefined
}

/**
 * The recording rides on the request and the response themselves, under a symbol: no WeakMap
 * entry and no closure per request (a plain route must not pay for the inspector).
 */
const RECORDING = Symbol('cors-dev-proxy.recording')
type Carrier = { [RECORDING]?: Recording }

/** The response closed: the record is completed from what the response and the notes hold, and pushed. */
function finishRecording(this: ProxyResponse): void {
  const recording = (this as unknown as Carrier)[RECORDING]
  if (recording === undefined) return
  const { record, socket } = recording
  const [upstreamUrl, upstreamProtocol] = upstreamOf(recording.hop, recording.mock)
  record.status = this.statusCode
  record.upstreamUrl = upstreamUrl
  record.upstreamProtocol = upstreamProtocol
  record.ttfb = recording.headAt === undefined ? undefined : recording.headAt - recording.start
  record.total = performance.now() - recording.start
  // Kept as the response has it; parsed only when shown.
  const sent = (this as { _header?: unknown })._header
  record.responseHead = typeof sent === 'string' ? sent : (sentHeadList(this) ?? this.getHeaders())
  record.aborted = !this.writableFinished
  record.responseBytes =
    socket !== undefined ? socket.bytesWritten - recording.written : unsocketedBytes(this, record)
  recording.ring.push(record)
}

/**
 * The size of an answer whose response has no socket: the body bytes the Fetch front end's
 * response counted (fetch/fetch-response.ts), else its length. Not read through `getHeader`,
 * which would build that response's header map for one field.
 */
function unsocketedBytes(res: ProxyResponse, record: ExchangeRecord): number {
  const counted = (res as { bodyBytesWritten?: unknown }).bodyBytesWritten
  if (typeof counted === 'number') return counted
  return Number(res.getHeader('content-length') ?? record.responseBody?.byteLength ?? 0)
}

/**
 * The flat head list a response kept as the engine wrote it (the Fetch front end's, see
 * fetch/fetch-response.ts), which costs nothing to keep, where `getHeaders()` would build a map.
 */
function sentHeadList(res: ProxyResponse): readonly unknown[] | undefined {
  return (res as { sentHeadList?: readonly unknown[] | undefined }).sentHeadList
}

const { addListener } = EventEmitter.prototype

/** The header a replay carries to our own server, with a token only this process knows; removed on arrival. */
export const REPLAY_HEADER = 'x-cors-dev-proxy-replay'

/** Records the exchanges the routes take, into a bounded ring. */
export interface ExchangeRecorder {
  readonly ring: ExchangeRing
  /** Where the forwarder notes each request's upstream URL (`http://host:port/path[ over h2]`). */
  readonly hops: RequestNotes<string>
  /** Where the forwarder notes when the upstream's head arrived (`performance.now()`). */
  readonly heads: RequestNotes<number>
  /**
   * Starts recording a request a route took; the record is pushed when the response closes.
   * Returns, while bodies are copied, what to call right after the route's pipeline started:
   * it copies the request body as the forwarder reads it.
   */
  begin(req: ProxyRequest, res: ProxyResponse, route: ResolvedRoute): (() => void) | undefined
  /** A token for a replay of exchange `id`: the replayed request's record says so. */
  replayToken(id: number): string
}

/** The hooks a route runs, named once per route (what the inspector shows as "hooks"). */
function hooksOf(route: ResolvedRoute): readonly string[] {
  const names: string[] = []
  if (route.bypass !== undefined) names.push('bypass')
  if (route.pathFilter !== undefined) names.push('pathFilter')
  if (route.cors !== undefined) names.push('cors')
  if (route.jsonp !== undefined) names.push('jsonp')
  if (route.kind === 'forward') {
    if (route.router !== undefined) names.push('router')
    if (route.pathRewrite !== undefined && route.pathRewrite !== false) names.push('pathRewrite')
    for (const hook of route.hooks.proxyReq) names.push(`proxyReq (${hook.name})`)
    for (const hook of route.hooks.proxyRes) names.push(`proxyRes (${hook.name})`)
    if (route.transformResponse !== undefined) names.push('transformResponse')
  }
  return Object.freeze(names)
}

function upstreamOf(hop: string | undefined, mock: boolean): [string | undefined, string | undefined] {
  if (mock) return [undefined, 'mock']
  if (hop === undefined) return [undefined, undefined]
  // What stand-ins/route-mocks/ notes for an answer a mock made: no upstream hop, shown as the mock's.
  if (hop.startsWith('mocked by ')) return [hop, 'mock']
  // What stand-ins/recordings/ notes for an answer the recordings gave: shown, over no upstream protocol.
  if (hop === 'replay' || hop.startsWith('replay (')) return [hop, undefined]
  const over = hop.lastIndexOf(' over ')
  if (over > 0) return [hop.slice(0, over), hop.slice(over + 6) === 'h2' ? 'h2' : 'http/1.1']
  return [hop, 'http/1.1']
}

/** Removes one of our headers (from `headers` and the raw lines) and returns its value. */
function takeHeader(req: ProxyRequest, name: string): string | undefined {
  const value = req.headers[name]
  if (value === undefined) return undefined
  delete req.headers[name]
  const raw = req.rawHeaders
  for (let index = raw.length - 2; index >= 0; index -= 2) {
    if (raw[index]?.toLowerCase() === name) raw.splice(index, 2)
  }
  return Array.isArray(value) ? value.join(', ') : value
}

/**
 * Creates the recorder the proxy calls for each request a route takes. Recording is a record
 * object and one `close` listener per request (the upstream URL and head time are noted by the
 * forwarder in two WeakMaps); bodies are copied only while a client listens to the ring (an open
 * inspector), up to `bodyLimit` bytes each, the request body only as the forwarder reads it
 * (listening earlier would start the flow before the forwarder listens).
 *
 * @example
 * const recorder = createExchangeRecorder({ exchanges: 200, bodyLimit: 65536 })
 * recorder.begin(req, res, route) // when the route takes the request
 */
export function createExchangeRecorder(options: ResolvedInspectorOptions): ExchangeRecorder {
  const ctx: RecorderContext = {
    bodyLimit: options.bodyLimit,
    ring: createExchangeRing(options.exchanges),
    hookNames: new Map(),
    replays: new Map(),
  }
  // Named, so a stack trace through a route's request shows `begin`.
  function begin(req: ProxyRequest, res: ProxyResponse, route: ResolvedRoute): (() => void) | undefined {
    return beginRecording(ctx, req, res, route)
  }
  return {
    ring: ctx.ring,
    hops: HOP_NOTES,
    heads: HEAD_NOTES,
    begin,
    replayToken(id) {
      const token = randomUUID()
      ctx.replays.set(token, id)
      // Forgotten after a minute whatever happens (a replay that never reached us).
      setTimeout(() => ctx.replays.delete(token), 60_000).unref()
      return token
    },
  }
}

/** What one recorder keeps across requests. */
interface RecorderContext {
  /** Bytes of each body copied while an inspector listens. */
  readonly bodyLimit: number
  readonly ring: ExchangeRing
  /** Each route's hook names, worked out on its first request. */
  readonly hookNames: Map<ResolvedRoute, readonly string[]>
  /** Replay tokens handed out and not yet seen, to the exchange each replays. */
  readonly replays: Map<string, number>
}

/**
 * Where the forwarder notes a request's upstream URL: on the recording the request carries, so
 * one object serves every recorder (nothing of its own to keep).
 */
const HOP_NOTES: RequestNotes<string> = Object.freeze({
  set(req: ProxyRequest, value: string) {
    const recording = (req as Carrier)[RECORDING]
    if (recording !== undefined) recording.hop = value
  },
  get: (req: ProxyRequest) => (req as Carrier)[RECORDING]?.hop,
})

/** Where the forwarder notes when the upstream's head arrived, on the recording as above. */
const HEAD_NOTES: RequestNotes<number> = Object.freeze({
  set(req: ProxyRequest, value: number) {
    const recording = (req as Carrier)[RECORDING]
    if (recording !== undefined) recording.headAt = value
  },
  get: (req: ProxyRequest) => (req as Carrier)[RECORDING]?.headAt,
})

/**
 * Starts recording one request: its marks (replay, probe) taken off, its record made, the
 * response's body tapped while an inspector listens, and the recording put on both objects.
 */
function beginRecording(
  ctx: RecorderContext,
  req: ProxyRequest,
  res: ProxyResponse,
  route: ResolvedRoute,
): (() => void) | undefined {
  const start = performance.now()
  const replayToken = ctx.replays.size > 0 ? takeHeader(req, REPLAY_HEADER) : undefined
  // An explanation probe (this dev server's, or another's that reached it): listed as ours, and
  // its mark not forwarded.
  const probe = req.headers[PROBE_HEADER] === undefined ? undefined : takeHeader(req, PROBE_HEADER)
  const replayOf = replayToken === undefined ? undefined : ctx.replays.get(replayToken)
  if (replayToken !== undefined) ctx.replays.delete(replayToken)
  const socket = responseSocketOf(req, res)
  const written = socket?.bytesWritten ?? 0
  const record = newRecord(ctx, req, route, replayOf, probe)
  const limit = ctx.ring.listeners > 0 ? ctx.bodyLimit : 0
  if (limit > 0) {
    tapBody(res as unknown as HookableResponse, limit, (body, truncated) => {
      record.responseBody = body
      if (truncated) record.bodiesTruncated = true
    })
  }
  const recording: Recording = {
    record,
    ring: ctx.ring,
    mock: route.kind === 'mock',
    start,
    socket,
    written,
    hop: undefined,
    headAt: undefined,
  }
  ;(req as Carrier)[RECORDING] = recording
  ;(res as unknown as Carrier)[RECORDING] = recording
  // EventEmitter's own `on`, not `res.on`: a dev server's compression (Storybook's
  // @polka/compression) replaces `res.on` and moves listeners to its gzip stream, where
  // `finishRecording` would run with that stream as `this` and record nothing.
  addListener.call(res, 'close', finishRecording)
  return limit > 0 ? () => tapRequest(req, record, limit) : undefined
}

/**
 * The bytes the response's own socket took. The Fetch front end's response has none (the
 * runtime writes its answer after the engine is done, even over node:http's socket): the
 * length then.
 */
function responseSocketOf(
  req: ProxyRequest,
  res: ProxyResponse,
): { readonly bytesWritten: number } | undefined {
  const responseSocket = (res as { socket?: { bytesWritten?: unknown } | null }).socket
  return req.httpVersionMajor === 1 && typeof responseSocket?.bytesWritten === 'number'
    ? (responseSocket as { bytesWritten: number })
    : undefined
}

/** The record of a request as it arrives; the response's fields are filled in when it closes. */
function newRecord(
  ctx: RecorderContext,
  req: ProxyRequest,
  route: ResolvedRoute,
  replayOf: number | undefined,
  probe: string | undefined,
): ExchangeRecord {
  let hooks = ctx.hookNames.get(route)
  if (hooks === undefined) {
    hooks = hooksOf(route)
    ctx.hookNames.set(route, hooks)
  }
  const ring = ctx.ring
  return {
    id: ring.nextId(),
    startedAt: Date.now(),
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    host: clientHost(req),
    tls: isEncrypted(req),
    route: route.prefix,
    clientProtocol: req.httpVersionMajor === 2 ? 'h2' : 'http/1.1',
    requestHeaders: req.rawHeaders,
    status: 0,
    upstreamUrl: undefined,
    upstreamProtocol: undefined,
    ttfb: undefined,
    total: undefined,
    responseHead: undefined,
    requestBytes: Number(req.headers['content-length'] ?? 0) || 0,
    responseBytes: 0,
    hooks,
    requestBody: undefined,
    responseBody: undefined,
    bodiesTruncated: false,
    aborted: false,
    replayOf,
    ours: probe === undefined ? undefined : 'probe',
  }
}

/** Copies the request body as the forwarder reads it (see below); a parsed `req.body` as it is. */
function tapRequest(req: ProxyRequest, record: ExchangeRecord, limit: number): void {
  const body = (req as { body?: unknown }).body
  if (Buffer.isBuffer(body) || typeof body === 'string') {
    record.requestBody = Buffer.from(body).subarray(0, limit)
    return
  }
  if (body !== undefined && body !== null && typeof body === 'object') {
    record.requestBody = Buffer.from(JSON.stringify(body)).subarray(0, limit)
    return
  }
  if (req.readableEnded) return
  const attach = (): void => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      if (size >= limit) {
        record.bodiesTruncated = true
        return
      }
      chunks.push(Buffer.from(chunk.subarray(0, limit - size)))
      size += Math.min(chunk.byteLength, limit - size)
    })
    req.once('end', () => {
      record.requestBody = Buffer.concat(chunks)
      record.requestBytes = Math.max(record.requestBytes, size)
    })
  }
  // Listening to 'data' starts the flow, so the copy waits until the forwarder starts it:
  // Node emits 'resume' just before the first chunk flows, so no chunk is missed, and a body
  // the forwarder never reads is never started by us.
  if (req.readableFlowing === true) attach()
  else req.once('resume', attach)
}
