import { evaluateCors } from '../browser/evaluate-cors.js'
import { getHeader, type HeaderEntry } from '../http/header-list.js'
import { maskBody, maskHeaderLines, maskUrl } from '../http/mask-secrets.js'
import type { ExchangeViolation } from '../pipeline/exchange.js'
import {
  readUnmatchedNote,
  UNMATCHED_DIFF_HEADER,
  type UnmatchedNote,
} from '../stand-ins/recordings/unmatched-note.js'
import { type ExchangeRecord, originOf, responseHeaderLines } from './exchange-ring.js'

/** The CORS verdict of one exchange, as the browser that made it judged (or would judge) it. */
export interface ExchangeCorsVerdict {
  /** `same-origin` (no CORS check), `allowed`, `blocked`, or `preflight` (an answered preflight, judged as such). */
  readonly outcome: 'same-origin' | 'allowed' | 'blocked' | 'preflight-allowed' | 'preflight-blocked'
  /** Which rule decided it, in a few words. */
  readonly rule: string
  /** Chromium's console text when blocked. */
  readonly message?: string
  /** What to change, when blocked. */
  readonly fix?: string
}

/** An exchange as the inspector's page and `GET /__cors-dev-proxy/exchanges` show it: secrets masked. */
export interface ExchangeView {
  readonly id: number
  readonly startedAt: string
  readonly method: string
  /** Masked. */
  readonly url: string
  readonly route: string
  /** Masked. */
  readonly upstreamUrl: string | undefined
  readonly clientProtocol: string
  readonly upstreamProtocol: string | undefined
  readonly status: number
  readonly ttfb: number | undefined
  readonly total: number | undefined
  readonly requestHeaders: readonly HeaderEntry[]
  readonly responseHeaders: readonly HeaderEntry[]
  readonly requestBytes: number
  readonly responseBytes: number
  readonly hooks: readonly string[]
  readonly cors: ExchangeCorsVerdict
  /** Bodies as text when copied (while an inspector was open), else `undefined`. */
  readonly requestBody: string | undefined
  readonly responseBody: string | undefined
  readonly bodiesTruncated: boolean
  readonly aborted: boolean
  readonly replayOf: number | undefined
  /** `probe`: a request cors-dev-proxy sent itself (the overlay's explanation probe), not the page's call. */
  readonly ours?: 'probe'
  /** The recording a route with `replay` answered from (its `X-Cors-Dev-Proxy-Replayed`), else `undefined`. */
  readonly replayedFrom: string | undefined
  /** The mock file or key that answered (its `X-Cors-Dev-Proxy-Mocked`), else `undefined`. */
  readonly mockedFrom: string | undefined
  /**
   * Under `replay: 'only'`, the proxy's 404 for a request no recording matches: the closest
   * recording and how the request differs from it (its `X-Cors-Dev-Proxy-Unmatched`); absent otherwise.
   */
  readonly unmatched?: string
  /**
   * The same as data, for the page's "No recording matched" section: the closest recording, each
   * part that differs (what the request had, what the recording has) and the fixes; absent otherwise.
   */
  readonly unmatchedDiff?: UnmatchedNote
  /**
   * On a route with `openapi`: where the exchange breaks the document (empty when it keeps it),
   * as the check found them once the response closed; absent on other routes.
   */
  readonly violations?: readonly ExchangeViolation[]
  /** On a route with `openapi`: why a part of the exchange was not checked, when one was not. */
  readonly contractSkipped?: string
  /** On a route with `openapi`: the check has not ended yet (it runs once the response closed); then no `violations`. */
  readonly contractPending?: true
}

/** `{ violations, contractSkipped }` of an exchange on a route with `openapi`, else nothing; `{ contractPending }` while its check runs. */
function contractOf(record: ExchangeRecord): {
  violations?: readonly ExchangeViolation[]
  contractSkipped?: string
  contractPending?: true
} {
  const check = record.contract
  if (check === undefined) return {}
  if (!check.done) return { contractPending: true }
  return check.skipped === undefined
    ? { violations: check.violations }
    : { violations: check.violations, contractSkipped: check.skipped }
}

/**
 * `{ unmatched, unmatchedDiff }` when the recordings answered that nothing matches (UNMATCHED_HEADER
 * and UNMATCHED_DIFF_HEADER, stand-ins/recordings/unmatched-answer.ts).
 */
function unmatchedOf(headers: readonly HeaderEntry[]): { unmatched?: string; unmatchedDiff?: UnmatchedNote } {
  const unmatched = getHeader(headers, 'x-cors-dev-proxy-unmatched')
  if (unmatched === undefined) return {}
  const note = readUnmatchedNote(getHeader(headers, UNMATCHED_DIFF_HEADER))
  return note === undefined ? { unmatched } : { unmatched, unmatchedDiff: note }
}

/**
 * The CORS verdict of a recorded exchange: a request without `Origin`, or from the dev
 * server's own origin, is same-origin (the browser checks nothing); an answered preflight is
 * judged as a preflight answer; any other request from another origin is judged on the head
 * the browser got.
 */
export function corsVerdictOf(
  record: ExchangeRecord,
  requestHeaders: readonly HeaderEntry[],
): ExchangeCorsVerdict {
  const origin = getHeader(requestHeaders, 'origin')
  const own = originOf(record)
  const responseHeaders = pairs(responseHeaderLines(record))
  if (origin === undefined || origin === own) {
    return {
      outcome: 'same-origin',
      rule:
        origin === undefined
          ? 'no Origin header: a same-origin GET/HEAD or a non-browser client, CORS does not apply'
          : 'same origin (scheme, host and port equal): CORS does not apply',
    }
  }
  const url = `${own}${record.url}`
  const requestMethod = getHeader(requestHeaders, 'access-control-request-method')
  if (record.method === 'OPTIONS' && requestMethod !== undefined) {
    const names = getHeader(requestHeaders, 'access-control-request-headers')
    const headers = (names ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '')
      .map((name) => [name, 'x'] as const)
    const verdict = evaluateCors(
      { url, origin, method: requestMethod, headers },
      {
        status: record.status,
        headers: responseHeaders,
      },
    )
    return verdict.allowed
      ? {
          outcome: 'preflight-allowed',
          rule: `preflight answer ${record.status} lets ${requestMethod} through`,
        }
      : {
          outcome: 'preflight-blocked',
          rule: `preflight answer fails: ${verdict.error?.kind ?? 'check'}`,
          ...(verdict.message === undefined ? {} : { message: verdict.message }),
          ...(verdict.fix === undefined ? {} : { fix: verdict.fix }),
        }
  }
  const credentials = getHeader(requestHeaders, 'cookie') !== undefined ? 'include' : 'same-origin'
  // The answer alone is judged: the preflight (if any) was its own exchange.
  const verdict = evaluateCors({ url, origin, method: 'GET', credentials }, undefined, {
    status: record.status,
    headers: responseHeaders,
  })
  return verdict.allowed
    ? {
        outcome: 'allowed',
        rule: `Access-Control-Allow-Origin: ${getHeader(responseHeaders, 'access-control-allow-origin') ?? '?'} matches ${origin}`,
      }
    : {
        outcome: 'blocked',
        rule: `response fails the CORS check: ${verdict.error?.kind ?? 'check'}`,
        ...(verdict.message === undefined
          ? {}
          : { message: verdict.message.replace(`at '${url}'`, `at '${maskUrl(url)}'`) }),
        ...(verdict.fix === undefined ? {} : { fix: verdict.fix }),
      }
}

function pairs(lines: readonly string[]): HeaderEntry[] {
  const out: HeaderEntry[] = []
  for (let index = 0; index + 1 < lines.length; index += 2) {
    out.push([(lines[index] as string).toLowerCase(), lines[index + 1] as string])
  }
  return out
}

/** Bodies are shown as UTF-8 text with their credentials masked (see `maskBody`); a binary body as its size. */
function bodyText(body: Buffer | undefined, contentType: string | undefined): string | undefined {
  if (body === undefined) return undefined
  const text = body.toString('utf8')
  return text.includes('\uFFFD') ? `(${body.byteLength} bytes of binary data)` : maskBody(text, contentType)
}

/**
 * Masks and shapes one record for the inspector; nothing unmasked goes out.
 *
 * @example
 * viewExchange(record).requestHeaders // [['authorization', 'Bearer [masked]'], ...]
 */
export function viewExchange(record: ExchangeRecord): ExchangeView {
  const requestHeaders = pairs(record.requestHeaders)
  const responseLines = responseHeaderLines(record)
  return {
    id: record.id,
    startedAt: new Date(record.startedAt).toISOString(),
    method: record.method,
    url: maskUrl(record.url),
    route: record.route,
    upstreamUrl: record.upstreamUrl === undefined ? undefined : maskUrl(record.upstreamUrl),
    clientProtocol: record.clientProtocol,
    upstreamProtocol: record.upstreamProtocol,
    status: record.status,
    ttfb: record.ttfb === undefined ? undefined : Math.round(record.ttfb * 10) / 10,
    total: record.total === undefined ? undefined : Math.round(record.total * 10) / 10,
    requestHeaders: maskHeaderLines(record.requestHeaders),
    responseHeaders: maskHeaderLines(responseLines),
    requestBytes: record.requestBytes,
    responseBytes: record.responseBytes,
    hooks: record.hooks,
    cors: corsVerdictOf(record, requestHeaders),
    requestBody: bodyText(record.requestBody, getHeader(requestHeaders, 'content-type')),
    responseBody: bodyText(record.responseBody, getHeader(pairs(responseLines), 'content-type')),
    bodiesTruncated: record.bodiesTruncated,
    aborted: record.aborted,
    replayOf: record.replayOf,
    ...(record.ours === undefined ? {} : { ours: record.ours }),
    // The header the recordings set on a replayed answer (REPLAYED_HEADER, stand-ins/file-masking.ts).
    replayedFrom: getHeader(pairs(responseLines), 'x-cors-dev-proxy-replayed'),
    // And the one a route's mocks set (MOCKED_HEADER, stand-ins/route-mocks/mock-answer-writer.ts).
    mockedFrom: getHeader(pairs(responseLines), 'x-cors-dev-proxy-mocked'),
    ...unmatchedOf(pairs(responseLines)),
    ...contractOf(record),
  }
}
