import pc from 'picocolors'
import type { Logger } from '../log/logger.js'
import type { UpstreamFailure } from './proxy-error.js'

/** How often, at most, a failure that goes on is summarised. */
export const FAILURE_SUMMARY_INTERVAL_MS = 10_000

/** Paths a summary names at most. */
const MAX_PATHS = 5

/** Reports upstream failures per target: the first at once, then summaries, then the recovery. */
export interface FailureLog {
  /** A request to `label` failed with `failure`. */
  failed(
    failure: UpstreamFailure,
    label: string,
    request: { method?: string | undefined; url?: string | undefined },
  ): void
  /** `label` answered: if it was failing, say it is back. */
  answered(label: string): void
  /** Prints what is still counted (on close). */
  flush(): void
}

interface Outage {
  readonly since: number
  cause: string
  lastPrinted: number
  /** Failures since the last line printed. */
  pending: number
  total: number
  readonly paths: Set<string>
}

/**
 * Creates the failure log. A target that fails is reported at once, with the cause and the hint
 * (`502 GET /api/x → http://127.0.0.1:3000: connection refused (is the server ... running?)`);
 * while it keeps failing, a summary at most every 10 s counts the failures and names the paths;
 * the first answer afterwards prints one line saying it is back, and a later outage is reported
 * at once again. A new cause (refused, then timing out) is reported at once too. `now` is for tests.
 *
 * @example
 * const failures = createFailureLog(logger)
 * failures.failed(failure, 'http://127.0.0.1:3000', req)
 */
export function createFailureLog(logger: Logger, now: () => number = Date.now): FailureLog {
  const outages = new Map<string, Outage>()

  function summarise(label: string, outage: Outage, time: number): void {
    const paths = [...outage.paths].join(', ')
    const seconds = Math.max(1, Math.round((time - outage.lastPrinted) / 1000))
    logger.error(
      `${label} still failing: ${outage.pending} more ${outage.pending === 1 ? 'request' : 'requests'} in ${seconds} s (${outage.cause}; ${paths})`,
    )
    outage.pending = 0
    outage.paths.clear()
    outage.lastPrinted = time
  }

  return {
    failed(failure, label, request) {
      const time = now()
      const outage = outages.get(label)
      if (outage === undefined || outage.cause !== failure.cause) {
        if (outage !== undefined && outage.pending > 0) summarise(label, outage, time)
        outages.set(label, {
          since: outage?.since ?? time,
          cause: failure.cause,
          lastPrinted: time,
          pending: 0,
          total: (outage?.total ?? 0) + 1,
          paths: new Set(),
        })
        logger.error(
          `${pc.red(pc.bold(String(failure.status)))} ${request.method ?? ''} ${request.url ?? ''} → ${label}: ${pc.red(failure.cause)} (${failure.hint})`,
        )
        return
      }
      outage.pending++
      outage.total++
      if (outage.paths.size < MAX_PATHS && request.url !== undefined) outage.paths.add(request.url)
      if (time - outage.lastPrinted >= FAILURE_SUMMARY_INTERVAL_MS) summarise(label, outage, time)
    },
    answered(label) {
      const outage = outages.get(label)
      if (outage === undefined) return
      outages.delete(label)
      const seconds = Math.round((now() - outage.since) / 1000)
      logger.info(
        `${label} answers again, after ${outage.total} failed ${outage.total === 1 ? 'request' : 'requests'} in ${seconds} s`,
      )
    },
    flush() {
      const time = now()
      for (const [label, outage] of outages) if (outage.pending > 0) summarise(label, outage, time)
    },
  }
}
