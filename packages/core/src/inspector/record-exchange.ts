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
import type { Exchange } from '../pipeline/exchange.js'
import { createExchangeRing, type ExchangeRecord, type ExchangeRing } from './exchange-ring.js'
import { PROBE_HEADER } from './safe-probe.js'

/**
 * A request being recorded: the request's exchange (pipeline/exchange.ts), where the route's
 * steps note what answered and when the head came, with its record and what its end needs. One
 * object: an inspected request's exchange costs nothing beside its recording.
 */
export interface Recording extends Exchange {
  readonly record: ExchangeRecord
  readonly ring: ExchangeRing
  readonly mock: boolean
  readonly start: number
  readonly socket: { readonly bytesWritten: number } | undefined
  readonly written: number
  /** The bytes of each body copied (an inspector listens), else 0. */
  readonly bodyLimit: number
}

/** The response closed: the record is completed from what the response and the exchange hold, and pushed. */
function finishRecording(recording: Recording, res: ProxyResponse): void {
  const { record, socket } = recording
  const [upstreamUrl, upstreamProtocol] = upstreamOf(recording.hop, recording.mock)
  record.status = res.statusCode
  record.upstreamUrl = upstreamUrl
  record.upstreamProtocol = upstreamProtocol
  record.ttfb = recording.headAt === undefined ? undefined : recording.headAt - recording.start
  record.total = performance.now() - recording.start
  // Kept as the response has it; parsed only when shown.
  const sent = (res as { _header?: unknown })._header
  record.responseHead = typeof sent === 'string' ? sent : (sentHeadList(res) ?? res.getHeaders())
  record.aborted = !res.writableFinished
  // The check's own object: filled in after the close, read when the exchange is shown.
  record.contract = recording.contract
  // The check ends after the close (contract/contract-route.ts): the live stream then gets the exchange again, checked.
  if (recording.contract !== undefined && !recording.contract.done)
    recording.contract.onDone = () => recording.ring.update(record)
  record.responseBytes =
    socket !== undefined ? socket.bytesWritten - recording.written : unsocketedBytes(res, record)
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
  /**
   * Starts recording a request a route took; the record is pushed when the response closes.
   * Returns the recording, which is the request's exchange: the route's steps note in it what
   * answered (`http://host:port/path[ over h2]`, `mocked by …`) and when the head came.
   */
  begin(req: ProxyRequest, res: ProxyResponse, route: ResolvedRoute): Recording
  /**
   * Called right after the route's pipeline started: while an inspector listens, copies the
   * request body as the forwarder reads it.
   */
  started(req: ProxyRequest, recording: Recording): void
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
 * object, the recording (the request's exchange, where the upstream URL and head time are
 * noted) and one `close` listener per request; bodies are copied only while a client listens to the ring (an open
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
  function begin(req: ProxyRequest, res: ProxyResponse, route: ResolvedRoute): Recording {
    return beginRecording(ctx, req, res, route)
  }
  return {
    ring: ctx.ring,
    begin,
    started(req, recording) {
      if (recording.bodyLimit > 0) tapRequest(req, recording.record, recording.bodyLimit)
    },
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
 * Starts recording one request: its marks (replay, probe) taken off, its record made, the
 * response's body tapped while an inspector listens, and its end awaited.
 */
function beginRecording(
  ctx: RecorderContext,
  req: ProxyRequest,
  res: ProxyResponse,
  route: ResolvedRoute,
): Recording {
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
    bodyLimit: limit,
    hop: undefined,
    headAt: undefined,
    uploadPace: undefined,
    bodyCopy: undefined,
    notFromTarget: false,
    upstreamPath: undefined,
    upstreamHeaders: undefined,
    contract: undefined,
  }
  // EventEmitter's own `on`, not `res.on`: a dev server's compression (Storybook's
  // @polka/compression) replaces `res.on` and moves listeners to its gzip stream, which would
  // close at another time than the response. One closure per request, in place of the
  // properties the recording used to add to `req` and `res` (which reshaped Node's objects).
  addListener.call(res, 'close', () => finishRecording(recording, res))
  return recording
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
