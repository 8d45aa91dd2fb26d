import type { ResolvedForwardRoute } from '../../config/resolved-route.js'
import { tapChunks } from '../../http/body-taps.js'
import type { ProxyRequest, ProxyResponse } from '../../http/proxy-types.js'
import type { HookableResponse } from '../../http/response-head.js'
import type { Logger } from '../../log/logger.js'
import type { Exchange } from '../../pipeline/exchange.js'
import { type MaskRules, REPLAYED_HEADER } from '../file-masking.js'
import { recordedAnswer } from './recorded-answer.js'
import type { RecordedAnswer } from './recording-format.js'
import type { RecordingStore } from './recording-store.js'
import { copyRequestBody } from './request-body-copy.js'
import { createResendFilter, type ResendFilter } from './resend-filter.js'
import { isWrite } from './route-index.js'
import { routeKey } from './route-key.js'

/*
 * The record tap of a route with `record: true`: the answer streams through to the client as it
 * comes (each chunk copied on its way, never held), and when the response closes the exchange
 * goes to the store, after the client has it. An answer larger than `maxBodyBytes` is not
 * recorded; neither is one the proxy made itself (a 502 for a target that is down, a replay),
 * which its exchange says (`notFromTarget`), nor a request a client re-sent on a fresh connection (resend-filter.ts).
 */

/** The head that went out: Node's own text of it (HTTP/1.1), else the response's header object. */
function sentHeaders(res: ProxyResponse): [string, string][] {
  const sent = (res as { _header?: unknown })._header
  if (typeof sent === 'string') {
    const pairs: [string, string][] = []
    for (const line of sent.split('\r\n').slice(1)) {
      const colon = line.indexOf(':')
      if (colon > 0) pairs.push([line.slice(0, colon), line.slice(colon + 1).trim()])
    }
    return pairs
  }
  const pairs: [string, string][] = []
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value === undefined) continue
    for (const one of Array.isArray(value) ? value : [value]) pairs.push([name, String(one)])
  }
  return pairs
}

/** A route's record tap: `begin` for each request the route takes, with the request's exchange. */
export interface RecordTap {
  begin(req: ProxyRequest, res: ProxyResponse, path: string, exchange: Exchange): void
}

/** What a route's tap keeps across its exchanges. */
interface TapContext {
  readonly route: ResolvedForwardRoute
  readonly store: RecordingStore
  readonly logger: Logger
  readonly resends: ResendFilter
}

/** Appends one exchange to its file, unless it is a request re-sent on a fresh connection. */
function recordExchange(
  tap: TapContext,
  req: ProxyRequest,
  path: string,
  requestBody: Buffer,
  answer: RecordedAnswer,
  order: number,
): void {
  const { route, store, logger } = tap
  const method = req.method ?? 'GET'
  const key = routeKey(route, store.options, req, path, requestBody)
  const secret = key.secret === undefined ? '' : key.secret.kind === 'value' ? key.secret.material : 'masked'
  const resend = tap.resends.isResend({
    key: `${key.fileName}\n${secret}`,
    write: isWrite(method),
    connection: req.socket as { destroyed: boolean } | undefined,
    keepAlive: req.httpVersionMajor >= 2 || !/\bclose\b/i.test(String(req.headers.connection ?? '')),
    answer,
  })
  if (resend) logger.debug(`${method} ${path}: a request re-sent on a fresh connection, recorded once`)
  else store.append(route.prefix, key, method, answer, order)
}

/**
 * Creates the record tap of a route.
 *
 * @example
 * const tap = createRecordTap(route, store, logger)
 * tap.begin(req, res, '/api/users', exchange)
 */
export function createRecordTap(
  route: ResolvedForwardRoute,
  store: RecordingStore,
  logger: Logger,
): RecordTap {
  const { maxBodyBytes } = store.options
  const rules: MaskRules = store.options
  const tooLarge = (): void =>
    logger.limited(
      'warn',
      `record ${route.prefix} too large`,
      () =>
        `route '${route.prefix}': a body larger than recordings.maxBodyBytes (${maxBodyBytes} bytes) was not recorded`,
    )
  const tap: TapContext = { route, store, logger, resends: createResendFilter() }
  return {
    begin(req, res, path, exchange) {
      const body = copyRequestBody(req, maxBodyBytes, exchange)
      const chunks: [Buffer, number][] = []
      let size = 0
      let headAt = 0
      tapChunks(res as unknown as HookableResponse, (chunk) => {
        if (chunks.length === 0) headAt = performance.now()
        size += chunk.byteLength
        if (size > maxBodyBytes) return false
        chunks.push([chunk, performance.now()])
        return true
      })
      res.once('close', () => {
        if (exchange.notFromTarget || res.getHeader(REPLAYED_HEADER) !== undefined) return
        if (!res.headersSent) return
        const headers = sentHeaders(res)
        const stream = headers.some(
          ([name, value]) => name.toLowerCase() === 'content-type' && value.includes('text/event-stream'),
        )
        // A cut-off answer is not the target's answer; an event stream ends when the client leaves.
        if (!res.writableFinished && !stream) return
        if (size > maxBodyBytes) {
          tooLarge()
          return
        }
        const seen = { status: res.statusCode, headers, chunks, headAt: headAt || performance.now() }
        // Its place in the session: the order the exchanges ended in, taken now (the body copy resolves later).
        const order = store.index(route.prefix).order()
        const work = body().then((requestBody) => {
          if (requestBody === undefined) tooLarge()
          else recordExchange(tap, req, path, requestBody, recordedAnswer(seen, rules), order)
        })
        store.track(work)
      })
    },
  }
}
