import type { ExchangeView } from '@cors-dev-proxy/core/adapter'

/** Why one recorded exchange failed, as `explain_failure` gives it. */
export interface ExchangeExplanation {
  readonly id: number
  /** `GET /api/users → 502`. */
  readonly call: string
  readonly failed: boolean
  /**
   * `cors`: the browser blocks the answer; `unreachable`/`timeout`: the dev proxy answered 502/504
   * for a target it could not get an answer from; `fault`: the route's faults made it fail on
   * purpose; `no-recording`: a route with `replay` had no recording for it; `upstream`: the target
   * itself answered an error; `aborted`: the answer broke off; `ok`: nothing failed.
   */
  readonly kind: 'cors' | 'unreachable' | 'timeout' | 'fault' | 'no-recording' | 'upstream' | 'aborted' | 'ok'
  /** Chromium's console text, when the browser blocks the answer. */
  readonly message?: string
  /** The cause in plain words. */
  readonly cause: string
  /** What to change. */
  readonly fix?: string
}

/** A header of the view, by lowercase name. */
function header(headers: ExchangeView['responseHeaders'], name: string): string | undefined {
  return headers.find(([key]) => key.toLowerCase() === name)?.[1]
}

/**
 * Whether an exchange failed, as the inspector's "failed" filter says: an error status, an
 * answer the browser blocks, or one that broke off; never a request cors-dev-proxy sent itself
 * (the overlay's explanation probe), whose verdict explains a failure of the page's, not another one.
 */
export function isFailed(view: ExchangeView): boolean {
  return (
    view.ours === undefined &&
    (view.status >= 400 ||
      view.cors.outcome === 'blocked' ||
      view.cors.outcome === 'preflight-blocked' ||
      view.aborted)
  )
}

/** The first line of the answer's body (what the dev proxy wrote: `cause: hint`), when it was kept. */
function bodyLine(view: ExchangeView): string | undefined {
  const body = view.responseBody?.trim()
  if (body === undefined || body === '' || body.startsWith('(')) return undefined
  try {
    const parsed = JSON.parse(body) as { cause?: unknown; hint?: unknown; error?: unknown }
    if (typeof parsed.cause === 'string') return `${parsed.cause}: ${String(parsed.hint ?? '')}`
    if (typeof parsed.error === 'string') return parsed.error
  } catch {
    // Text: its first line.
  }
  return body
    .split('\n', 1)[0]
    ?.replace(/^cors-dev-proxy: /, '')
    .slice(0, 500)
}

/** The 502/504 the dev proxy answered itself: no upstream head ever came (no time to first byte). */
function proxyFailure(view: ExchangeView, base: { id: number; call: string }): ExchangeExplanation {
  const timeout = view.status === 504
  const target = view.upstreamUrl ?? `the target of route '${view.route}'`
  const line = bodyLine(view)
  return {
    ...base,
    failed: true,
    kind: timeout ? 'timeout' : 'unreachable',
    cause:
      line ??
      (timeout
        ? `the dev proxy got no answer in time from ${target}`
        : `the dev proxy could not get an answer from ${target} (the body that says why was not kept: it is kept while the MCP server or an inspector page is attached)`),
    fix: timeout
      ? `check that the server behind ${target} answers, or raise the route's \`timeout\``
      : `start the server behind ${target}, or point the route at a running one (its \`target\`, or switch_target when it has \`targets\`)`,
  }
}

/** What the answer of a 4xx/5xx the target sent itself says, with a hint when the prefix was removed. */
function upstreamFailure(view: ExchangeView, base: { id: number; call: string }): ExchangeExplanation {
  const line = bodyLine(view)
  // The hop of an answer a stand-in gave (`replay (target failed: …)`, `mocked by …`) is no URL.
  const upstream =
    view.upstreamUrl !== undefined && URL.canParse(view.upstreamUrl) ? new URL(view.upstreamUrl) : undefined
  const prefixRemoved =
    view.status === 404 &&
    upstream !== undefined &&
    view.route !== '/' &&
    !upstream.pathname.startsWith(`${view.route}/`) &&
    upstream.pathname !== view.route
  return {
    ...base,
    failed: true,
    kind: 'upstream',
    cause: `${view.upstreamUrl ?? 'the target'} answered ${view.status} itself${line === undefined ? '' : `: ${line}`}`,
    ...(prefixRemoved
      ? {
          fix: `the proxy removed the prefix '${view.route}' (the default pathRewrite): if the backend serves ${view.route}${upstream?.pathname ?? ''}, set \`pathRewrite: false\` on the route`,
        }
      : {}),
  }
}

/**
 * Explains one exchange from what the inspector recorded: the browser's CORS verdict in
 * Chromium's words, the cause the dev proxy wrote in its 502/504, a fault switched on, a replay
 * without a recording, or the target's own error answer.
 *
 * @example
 * explainExchange(view) // { kind: 'unreachable', cause: 'connection refused: is the server at http://127.0.0.1:3000 running?', ... }
 */
export function explainExchange(view: ExchangeView): ExchangeExplanation {
  const base = { id: view.id, call: `${view.method} ${view.url} → ${view.status}` }
  const fault = header(view.responseHeaders, 'x-cors-dev-proxy-fault')
  if (fault !== undefined) {
    return {
      ...base,
      failed: true,
      kind: 'fault',
      cause: `made to fail on purpose by the faults of route '${view.route}' (X-Cors-Dev-Proxy-Fault: ${fault})`,
      fix: `switch them off: set_faults { "route": "${view.route}", "on": false }`,
    }
  }
  if (view.cors.outcome === 'blocked' || view.cors.outcome === 'preflight-blocked') {
    return {
      ...base,
      failed: true,
      kind: 'cors',
      ...(view.cors.message === undefined ? {} : { message: view.cors.message }),
      cause: view.cors.rule,
      ...(view.cors.fix === undefined ? {} : { fix: view.cors.fix }),
    }
  }
  if (view.aborted) {
    return {
      ...base,
      failed: true,
      kind: 'aborted',
      cause:
        'the answer broke off before its end: the client left, or the target closed the connection mid-body',
    }
  }
  if (view.status < 400) {
    return {
      ...base,
      failed: false,
      kind: 'ok',
      cause: `nothing failed: ${view.status}, CORS ${view.cors.outcome} (${view.cors.rule})`,
    }
  }
  const line = bodyLine(view)
  if (line?.includes('no recording matches') === true) {
    return { ...base, failed: true, kind: 'no-recording', cause: line }
  }
  const answeredHere =
    view.ttfb === undefined && view.upstreamProtocol !== 'mock' && view.replayedFrom === undefined
  if (answeredHere && (view.status === 502 || view.status === 504)) return proxyFailure(view, base)
  return upstreamFailure(view, base)
}
