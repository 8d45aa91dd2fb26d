import type { ResolvedRoute } from '../config/resolved-route.js'
import type { CallExplanation, FailedCall } from './call-explanation.js'
import { explainCall } from './explain-call.js'
import type { WebSocketCarrier } from './explain-websocket.js'
import { createProbeBudget } from './probe-budget.js'
import { createProbeMemo } from './probe-memo.js'

/** Options of {@link createCallExplainer}. */
export interface CallExplainerOptions {
  readonly routes: readonly ResolvedRoute[]
  /** The clock of the memo and the budget, in milliseconds. @default Date.now */
  readonly now?: () => number
  /** Milliseconds an explanation is reused for the same call. @default 30000 */
  readonly memoMs?: number
  /** Probe requests per host and minute. @default 10 */
  readonly perHostPerMinute?: number
  /** Explanations probing at once; the next ones wait for one to end. @default 4 */
  readonly atOnce?: number
  /**
   * Explanations waiting for a turn; past them, `busy`. A page's client asks once per distinct
   * failure, so a wait (not a refusal, which the page's Network panel would show as failed) is
   * the usual answer. @default 32
   */
  readonly waiting?: number
  /** Milliseconds each probe request may take. @default 5000 */
  readonly timeout?: number
  /** Called with each new explanation (not with those reused from the memo). */
  readonly onExplained?: (explained: ExplainedCall) => void
  /** How the front end carries WebSockets, for a failed one's fix. @default 'upgrade' */
  readonly webSockets?: WebSocketCarrier
}

/** An explanation and the call it explains, as the inspector lists them. */
export interface ExplainedCall {
  /** When it was made (ISO 8601). */
  readonly at: string
  readonly method: string
  readonly url: string
  readonly initiator: FailedCall['initiator']
  readonly explanation: CallExplanation
}

/** The page the call failed in. */
export interface FailedCallPage {
  /** Its origin (the `Origin` of the request to `explain`). */
  readonly origin: string
  /** Its URL, when known (the mixed-content text names it). */
  readonly pageUrl?: string
}

/** Explains failed calls, each probed at most once in a while, within each host's budget. */
export interface CallExplainer {
  /** The explanation, or `busy` when `atOnce` explanations are probing and `waiting` more wait. */
  explain(call: FailedCall, page: FailedCallPage): Promise<CallExplanation | 'busy'>
  /** The explanations remembered, newest first. */
  recent(): ExplainedCall[]
}

/** A call's identity for the memo: what the browser's requests depend on, header values aside. */
function callKey(call: FailedCall, page: FailedCallPage): string {
  const names = [...new Set(call.headers.map(([name]) => name.toLowerCase()))].sort()
  return JSON.stringify([page.origin, call.initiator, call.credentials, call.method, call.url, names])
}

/** Thrown inside the memo so a refused explanation is not remembered. */
class Busy extends Error {}

/**
 * Creates the overlay's explainer, one per proxy: the same call (page origin, URL, method,
 * header names, credentials, initiator) is probed at most once per `memoMs`, its repeats and the
 * calls asked about while it runs get the same explanation (`probe.fromMemo`), and the probe
 * sends at most `perHostPerMinute` requests to one host a minute; past that, the explanation
 * still names the route, with `probed: false`.
 *
 * @example
 * const explainer = createCallExplainer({ routes })
 * const answer = await explainer.explain(call, { origin: 'http://localhost:5173' })
 */
export function createCallExplainer(options: CallExplainerOptions): CallExplainer {
  const now = options.now ?? Date.now
  const atOnce = options.atOnce ?? 4
  const memo = createProbeMemo<ExplainedCall>({ ttlMs: options.memoMs ?? 30_000, now })
  const budget = createProbeBudget({ limit: options.perHostPerMinute ?? 10, windowMs: 60_000, now })
  const maxWaiting = options.waiting ?? 32
  let probing = 0
  const queue: (() => void)[] = []

  /** A turn to probe: at once while fewer than `atOnce` probe, else when one ends. */
  async function turn(): Promise<void> {
    if (probing < atOnce) {
      probing += 1
      return
    }
    if (queue.length >= maxWaiting) throw new Busy()
    // The slot is handed over by the one that ends (`probing` stays counted).
    await new Promise<void>((resolve) => queue.push(resolve))
  }

  function endTurn(): void {
    const next = queue.shift()
    if (next === undefined) probing -= 1
    else next()
  }

  async function make(call: FailedCall, page: FailedCallPage) {
    await turn()
    try {
      const explanation = await explainCall(call, {
        ...page,
        routes: options.routes,
        budget,
        ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
        ...(options.webSockets === undefined ? {} : { webSockets: options.webSockets }),
      })
      const { method, url, initiator } = call
      const explained = { at: new Date(now()).toISOString(), method, url, initiator, explanation }
      // Only what was probed is remembered: a call refused by the budget is probed once it allows.
      if (explanation.probed) options.onExplained?.(explained)
      return { value: explained, keep: explanation.probed }
    } finally {
      endTurn()
    }
  }

  /** A remembered explanation, marked as such on its probe line. */
  function remembered(value: ExplainedCall, at: number, why: string): CallExplanation {
    const { probe } = value.explanation
    const ago = Math.round((now() - at) / 1000)
    const text = `the same call was explained ${ago} s ago, ${why}; then: ${probe.text}`
    return { ...value.explanation, probe: { ...probe, fromMemo: true, text } }
  }

  return {
    async explain(call, page) {
      const key = callKey(call, page)
      try {
        const { value, reused, at } = await memo.get(key, () => make(call, page))
        if (reused) return remembered(value, at, 'nothing sent again')
        // Past the budget, a call explained before (longer ago than the memo keeps) gets that explanation.
        const earlier = value.explanation.kind === 'not-probed' ? memo.last(key) : undefined
        return earlier === undefined
          ? value.explanation
          : remembered(earlier.value, earlier.at, 'not probed again: the budget for its host is spent')
      } catch (error) {
        if (error instanceof Busy) return 'busy'
        throw error
      }
    },
    recent: () => memo.list().map((entry) => entry.value),
  }
}
