import { createHash } from 'node:crypto'
import type { RecordedAnswer } from './recording-format.js'

/*
 * One logical exchange, one recorded answer. A request the proxy itself sends again (the
 * keep-alive race, forward/retry-policy.ts) already gives one answer to the client and so one
 * recording. A client that re-sends a request on a fresh connection because its kept-alive one
 * died before it read the answer makes two exchanges of the proxy: the second is the same call,
 * not a second call of the session, and recording it would replay the list twice. It is told by
 * all of: the same key (and secret), the same answer, the earlier request kept its connection
 * alive and that connection is closed now (a kept-alive connection closes on its idle timeout,
 * seconds later, not right after an answer), the new one came on another connection, within
 * `RESEND_WINDOW_MS`, and no write of the route was recorded in between (for a write: nothing
 * at all). A client polling on one connection, or calls with `Connection: close`, are recorded
 * as they come.
 */

/** How long after an exchange a re-sent copy of it is still taken for one. */
export const RESEND_WINDOW_MS = 2000

/** At most this many keys are remembered (the oldest forgotten first). */
const REMEMBERED = 1000

/** An exchange about to be recorded, as the filter compares it. */
export interface TappedExchange {
  /** The request's key (file name, and its secret's material when it has one). */
  readonly key: string
  readonly write: boolean
  /** The connection it came on. */
  readonly connection: { readonly destroyed: boolean } | undefined
  /** Whether it asked to keep the connection alive (HTTP/1.1 without `Connection: close`, or HTTP/2). */
  readonly keepAlive: boolean
  readonly answer: RecordedAnswer
}

interface Remembered {
  readonly connection: { readonly destroyed: boolean } | undefined
  readonly keepAlive: boolean
  readonly fingerprint: string
  readonly at: number
  readonly recorded: number
  readonly writes: number
}

/** A route's filter of re-sent requests. */
export interface ResendFilter {
  /** Whether `exchange` repeats the previous one of its key (then it is not recorded); notes it otherwise. */
  isResend(exchange: TappedExchange): boolean
}

/** What the client got, whatever the time it was recorded or the gaps of a stream. */
function fingerprintOf(answer: RecordedAnswer): string {
  const { status, headers, body, chunks } = answer
  const text = JSON.stringify([status, headers, body, chunks?.map((chunk) => chunk.text)])
  return createHash('sha256').update(text).digest('base64')
}

/**
 * A route's filter (one per record tap).
 *
 * @example
 * const filter = createResendFilter()
 * if (!filter.isResend(exchange)) store.append(prefix, key, method, answer, order)
 */
export function createResendFilter(): ResendFilter {
  const last = new Map<string, Remembered>()
  let recorded = 0
  let writes = 0
  return {
    isResend(exchange) {
      const fingerprint = fingerprintOf(exchange.answer)
      const now = performance.now()
      const previous = last.get(exchange.key)
      const resend =
        previous?.keepAlive === true &&
        previous.connection?.destroyed === true &&
        previous.connection !== exchange.connection &&
        previous.fingerprint === fingerprint &&
        now - previous.at <= RESEND_WINDOW_MS &&
        (exchange.write ? previous.recorded === recorded : previous.writes === writes)
      if (resend) return true
      recorded += 1
      if (exchange.write) writes += 1
      last.delete(exchange.key)
      last.set(exchange.key, {
        connection: exchange.connection,
        keepAlive: exchange.keepAlive,
        fingerprint,
        at: now,
        recorded,
        writes,
      })
      if (last.size > REMEMBERED) last.delete(last.keys().next().value as string)
      return false
    },
  }
}
