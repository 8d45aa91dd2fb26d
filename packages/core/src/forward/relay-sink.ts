import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http'
import { takesFlatHead } from '../http/response-head.js'
import { headersFromRaw, type RawField } from './raw-headers.js'
import { isBodiless, isEventStream, writeUpstreamHead } from './relay-response.js'
import { type RelayExchange, type RelaySink, RelayState } from './relay-state.js'
import {
  buildClientHeaders,
  buildClientHeadList,
  type ClientConnection,
  headValue,
} from './response-headers.js'

function clientOf(relay: RelayExchange, statusCode: number): ClientConnection {
  const { req } = relay
  return {
    http2: req.httpVersionMajor === 2,
    rewriteLocation: relay.rewriteLocation,
    request: req,
    statusCode,
  }
}

/** Writes the client's head (cleaned, either shape); `false` when the body is not relayed. */
function sendHead(
  relay: RelayExchange,
  statusCode: number,
  headers: OutgoingHttpHeaders | string[],
): boolean {
  const { req, res } = relay
  if (!writeUpstreamHead(req, res, statusCode, headers, relay.route.target, relay.context.logger)) {
    relay.finish()
    return false
  }
  if (isBodiless(req.method, statusCode)) {
    // Nothing to relay. A server that sends `Content-Length: N` on a 204 or 304 makes undici
    // fail the (empty) body with a length mismatch, after the client's answer is complete.
    relay.state = RelayState.Done
    res.end()
    return true
  }
  if (isEventStream(headValue(headers, 'content-type')) && 'flushHeaders' in res) res.flushHeaders()
  return true
}

function streamHead(relay: RelayExchange, statusCode: number, upstreamHeaders: IncomingHttpHeaders): boolean {
  return sendHead(
    relay,
    statusCode,
    buildClientHeaders(upstreamHeaders, relay.route, clientOf(relay, statusCode)),
  )
}

/**
 * The answer streamed into the response: the head with one `writeHead`, each chunk with
 * `res.write`, pausing undici while the client's side is full and resuming it on `'drain'`.
 * No body stream and no promise sit between the two sockets: this is the shape of the minimal
 * `dispatch()` proxy of the benchmark, and it costs about half the CPU per request of undici's
 * `request()` with its body stream piped into the response.
 *
 * Heads are cleaned as `buildClientHeaders` does (written from undici's raw list as a flat
 * list, `buildClientHeadList`, when no `proxyRes` hook needs the object and the client speaks
 * HTTP/1.1), bodiless answers end at once, event streams get their head flushed.
 *
 * @example
 * new Relay({ ...parts, sink: streamSink }).start(pool.poolFor(route))
 */
export const streamSink: RelaySink = Object.freeze({
  head: streamHead,
  rawHead(relay: RelayExchange, statusCode: number, rawHeaders: readonly RawField[]): boolean {
    const { req, res } = relay
    // The object instead: an HTTP/2 client needs repeated fields combined into one line; and
    // over headers already on `res` (a dev server's own), Node 20's `writeHead` sets each field
    // of a flat list in turn, so a second Set-Cookie line would replace the first.
    // And a writeHead a middleware replaced may take objects only (`takesFlatHead`).
    if (req.httpVersionMajor === 2 || res.getHeaderNames().length > 0 || !takesFlatHead(res)) {
      return streamHead(relay, statusCode, headersFromRaw(rawHeaders))
    }
    return sendHead(
      relay,
      statusCode,
      buildClientHeadList(rawHeaders, relay.route, clientOf(relay, statusCode)),
    )
  },
  release(relay: RelayExchange): void {
    const held = relay.held ?? []
    relay.held = undefined
    for (const chunk of held) {
      if (relay.state !== RelayState.Relaying) return
      ;(relay.res as { write(chunk: Buffer): boolean }).write(chunk)
    }
    if (relay.heldComplete) {
      relay.onComplete()
      return
    }
    if (relay.state === RelayState.Relaying) relay.resume?.()
  },
  data(relay: RelayExchange, chunk: Buffer): boolean {
    if ((relay.res as { write(chunk: Buffer): boolean }).write(chunk)) return true
    // The client's side is full: undici pauses until it drains.
    relay.res.once('drain', relay.resume as () => void)
    return false
  },
  end(relay: RelayExchange): void {
    relay.state = RelayState.Done
    relay.res.end()
  },
})
