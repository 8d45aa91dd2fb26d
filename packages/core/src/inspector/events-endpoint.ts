import { maskUrlsIn } from '../http/mask-secrets.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import type { ExplainedCall } from './call-explainer.js'
import type { ExchangeRecord, ExchangeRing } from './exchange-ring.js'
import { viewExchange } from './exchange-view.js'

/** Bytes an event stream may hold unsent before its events are dropped (a client that does not read). */
const STREAM_BACKLOG = 1024 * 1024

/** A response both kinds (Node's, the Fetch front end's) write strings to alike; their overloads differ only in callbacks. */
type EventStream = ProxyResponse & { write(chunk: string): boolean }

/** What an event stream holds unsent. */
function backlogOf(res: ProxyResponse): number {
  return (res as { writableLength?: number }).writableLength ?? 0
}

/**
 * A new explanation, to every inspector listening (as an `explanation` event), skipping the
 * streams whose client does not read.
 *
 * @example
 * broadcastExplanation(streams, explained)
 */
export function broadcastExplanation(streams: ReadonlySet<ProxyResponse>, explained: ExplainedCall): void {
  const event = `event: explanation\ndata: ${maskUrlsIn(JSON.stringify(explained))}\n\n`
  for (const stream of streams) {
    if (backlogOf(stream) <= STREAM_BACKLOG) (stream as EventStream).write(event)
  }
}

/**
 * `GET /__cors-dev-proxy/events`: every new exchange as a server-sent event, with a heartbeat,
 * until the client goes. The stream is in `streams` while open (explanations are broadcast to
 * it, `close` ends it).
 *
 * @example
 * serveEvents(req, res, recorder.ring, streams)
 */
export function serveEvents(
  req: ProxyRequest,
  response: ProxyResponse,
  ring: ExchangeRing,
  streams: Set<ProxyResponse>,
): void {
  const res = response as EventStream
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...(req.httpVersionMajor === 1 ? { connection: 'keep-alive' } : {}),
  })
  res.write(': cors-dev-proxy inspector\n\n')
  let dropped = 0
  const unsubscribe = ring.subscribe((record: ExchangeRecord) => {
    // An inspector that does not read (a background tab, a stalled client) must not make the
    // dev server buffer without bound: past STREAM_BACKLOG bytes, events are dropped and counted.
    if (backlogOf(res) > STREAM_BACKLOG) {
      dropped += 1
      return
    }
    if (dropped > 0) {
      res.write(`event: dropped\ndata: ${dropped}\n\n`)
      dropped = 0
    }
    res.write(`event: exchange\ndata: ${JSON.stringify(viewExchange(record))}\n\n`)
  })
  // A comment now and then keeps idle-closing proxies and browsers from dropping the stream.
  const heartbeat = setInterval(() => res.write(': ping\n\n'), 15_000)
  heartbeat.unref()
  streams.add(res)
  res.once('close', () => {
    clearInterval(heartbeat)
    unsubscribe()
    streams.delete(res)
  })
}
