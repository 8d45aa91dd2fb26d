import type { IncomingHttpHeaders } from 'node:http'
// The module's binding, not the global: Node's global `performance` is an accessor, read per use.
import { performance } from 'node:perf_hooks'
import { answerFailure } from './forward-failures.js'
import { type HookFailure, runHooksSyncFirst } from './hook-runner.js'
import type { RawField } from './raw-headers.js'
import { type RelayExchange, RelayState } from './relay-state.js'
import { isResponseClosed } from './response-state.js'

/**
 * The answer's head arrived and is about to be relayed: the failure log, the hints, and the
 * exchange's notes (when the head came, which hop answered) for the debug line and the inspector.
 *
 * @example
 * noteAnswer(relay, 200, rawHeaders)
 */
export function noteAnswer(
  relay: RelayExchange,
  statusCode: number,
  headers: IncomingHttpHeaders | readonly RawField[],
): void {
  const { context, req, label, exchange } = relay
  if (exchange !== undefined) exchange.headAt = performance.now()
  context.failures.answered(label)
  context.hints.answered(req, { statusCode, headers }, relay.path, relay.options.path)
  // Opted-in routes show the upstream hop's protocol: what ALPN gave, not what was offered.
  if (exchange !== undefined && relay.route.http2) {
    const protocol = context.pool.protocolFor(relay.route) === 'h2' ? 'h2' : 'h1.1'
    exchange.hop = `${label}${relay.options.path} over ${protocol}`
  }
}

/**
 * http-proxy-middleware's `proxyRes(proxyRes, req, res)` on the head: what the hooks change in
 * the status and the headers is what the relay's sink gets. An async hook holds the body back
 * (undici pauses, the chunks that still come are held) until it settles; one that throws or
 * rejects is the forwarder's 502 naming it. Returns what undici's `onHeaders` returns.
 *
 * @example
 * return runProxyRes(relay, statusCode, headersFromRaw(rawHeaders))
 */
export function runProxyRes(
  relay: RelayExchange,
  statusCode: number,
  upstreamHeaders: IncomingHttpHeaders,
): boolean {
  const proxyRes = { statusCode, headers: upstreamHeaders }
  let pending: Promise<void> | undefined
  try {
    pending = runHooksSyncFirst(relay.route.hooks.proxyRes, [proxyRes, relay.req, relay.res])
  } catch (error) {
    hookFailed(relay, error)
    return false
  }
  if (pending === undefined) return afterHooks(relay, proxyRes.statusCode, proxyRes.headers)
  relay.state = RelayState.Hooking
  relay.held = []
  pending.then(
    () => {
      if (relay.state !== RelayState.Hooking) return
      relay.state = RelayState.Relaying
      if (!afterHooks(relay, proxyRes.statusCode, proxyRes.headers)) return
      relay.sink.release(relay)
    },
    (error: unknown) => {
      if (relay.state === RelayState.Hooking) hookFailed(relay, error)
    },
  )
  return false
}

/** After the `proxyRes` hooks: the head to the sink, unless a hook answered the client itself. */
function afterHooks(relay: RelayExchange, statusCode: number, headers: IncomingHttpHeaders): boolean {
  const { res } = relay
  if (res.headersSent || res.writableEnded || isResponseClosed(res)) {
    relay.finish()
    return false
  }
  return relay.sink.head(relay, statusCode, headers)
}

/** A `proxyRes` hook threw: nothing went to the client, which gets the forwarder's 502 naming it. */
function hookFailed(relay: RelayExchange, error: unknown): void {
  relay.finish()
  // runHooksSyncFirst throws and rejects with a HookFailure only.
  answerFailure(relay, error as HookFailure)
}
