import type { ExchangeView } from '@cors-dev-proxy/core/adapter'
import { isFailed } from './explain-exchange.js'

/** One exchange in a list, as `list_exchanges` gives it in its structured result. */
export interface ExchangeSummary {
  readonly id: number
  readonly startedAt: string
  readonly method: string
  readonly url: string
  readonly route: string
  readonly upstreamUrl: string | null
  readonly status: number
  /** Milliseconds to the end of the answer, when it ended. */
  readonly total: number | null
  /** The browser's CORS verdict: `same-origin`, `allowed`, `blocked`, `preflight-allowed`, `preflight-blocked`. */
  readonly cors: string
  readonly failed: boolean
  readonly aborted: boolean
  /** The recording a route with `replay` answered from. */
  readonly replayedFrom: string | null
  /** The exchange this one replays. */
  readonly replayOf: number | null
  /** `probe`: sent by cors-dev-proxy itself (the overlay's explanation probe), not by the page. */
  readonly ours: string | null
}

/**
 * The fields of an exchange a list needs.
 *
 * @example
 * summarizeExchange(view) // { id: 3, method: 'GET', url: '/api/users', status: 502, failed: true, ... }
 */
export function summarizeExchange(view: ExchangeView): ExchangeSummary {
  return {
    id: view.id,
    startedAt: view.startedAt,
    method: view.method,
    url: view.url,
    route: view.route,
    upstreamUrl: view.upstreamUrl ?? null,
    status: view.status,
    total: view.total ?? null,
    cors: view.cors.outcome,
    failed: isFailed(view),
    aborted: view.aborted,
    replayedFrom: view.replayedFrom ?? null,
    replayOf: view.replayOf ?? null,
    ours: view.ours ?? null,
  }
}

/**
 * One line per exchange: `#3 GET /api/users → http://127.0.0.1:3000/users 502 4 ms [CORS same-origin] FAILED`.
 *
 * @example
 * exchangeLine(summarizeExchange(view))
 */
export function exchangeLine(summary: ExchangeSummary): string {
  const upstream = summary.upstreamUrl === null ? '' : ` → ${summary.upstreamUrl}`
  const time = summary.total === null ? '' : ` ${summary.total} ms`
  const notes = [
    summary.aborted ? 'aborted' : '',
    summary.replayedFrom === null ? '' : `replayed from ${summary.replayedFrom}`,
    summary.replayOf === null ? '' : `replay of #${summary.replayOf}`,
    summary.ours === 'probe' ? "ours: the overlay's explanation probe, not the page's call" : '',
  ].filter(Boolean)
  return `#${summary.id} ${summary.method} ${summary.url}${upstream} ${summary.status}${time} [CORS ${summary.cors}]${notes.length > 0 ? ` (${notes.join(', ')})` : ''}${summary.failed ? ' FAILED' : ''}`
}

/** A body cut to `limit` characters, saying so. */
export function bodyPreview(body: string | undefined, limit: number): string | null {
  if (body === undefined) return null
  return body.length <= limit ? body : `${body.slice(0, limit)}… (${body.length - limit} more characters)`
}

/**
 * One exchange in full, as text: the call, both hops, timing, CORS verdict, headers and bodies
 * (masked by the dev server; bodies cut to `limit` characters).
 *
 * @example
 * exchangeDetail(view, 2000)
 */
export function exchangeDetail(view: ExchangeView, limit: number): string {
  const headers = (pairs: ExchangeView['requestHeaders']) =>
    pairs.length === 0 ? '  (none)' : pairs.map(([name, value]) => `  ${name}: ${value}`).join('\n')
  const body = (text: string | undefined) =>
    (text === '' ? '(empty)' : bodyPreview(text, limit)) ??
    '(not kept: bodies are copied while the MCP server or an inspector page is attached; make the call again)'
  const lines = [
    `#${view.id} ${view.method} ${view.url} → ${view.status}${view.aborted ? ' (aborted)' : ''}`,
    `route: ${view.route}`,
    `upstream: ${view.upstreamUrl ?? (view.upstreamProtocol === 'mock' ? 'the mock backend' : '(none: answered by the dev proxy)')}`,
    `protocols: browser → dev server ${view.clientProtocol}, dev server → upstream ${view.upstreamProtocol ?? '–'}`,
    `time: ${view.ttfb ?? '–'} ms to the upstream's head, ${view.total ?? '–'} ms in all; ${view.requestBytes} bytes up, ${view.responseBytes} down`,
    `CORS: ${view.cors.outcome}: ${view.cors.rule}`,
  ]
  if (view.cors.message !== undefined) lines.push(`console: ${view.cors.message}`)
  if (view.cors.fix !== undefined) lines.push(`fix: ${view.cors.fix}`)
  if (view.hooks.length > 0) lines.push(`hooks: ${view.hooks.join(', ')}`)
  if (view.ours === 'probe')
    lines.push("sent by: cors-dev-proxy, the overlay's explanation probe of a failed call (not the page)")
  if (view.replayOf !== undefined) lines.push(`replay of: #${view.replayOf}`)
  if (view.replayedFrom !== undefined) lines.push(`replayed from: ${view.replayedFrom}`)
  if (view.mockedFrom !== undefined)
    lines.push(`mocked by: ${view.mockedFrom} (the route's mocks, not the target)`)
  lines.push(
    'request headers:',
    headers(view.requestHeaders),
    'response headers:',
    headers(view.responseHeaders),
  )
  lines.push('request body:', body(view.requestBody), 'response body:', body(view.responseBody))
  if (view.bodiesTruncated)
    lines.push('(the dev server kept only the start of the bodies: inspector.bodyLimit)')
  return lines.join('\n')
}
