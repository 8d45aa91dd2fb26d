// Next's own checks, run after the shared ones of lib/checks.mjs: what `rewrites` in
// next.config get wrong and the proxy must get right (measured on Next 16.4 with rewrites: an
// event stream held back until it ends, a Set-Cookie for the backend's domain, a slow answer cut
// at 30 s as a 500 "socket hang up").

import { firstEventsGap } from '../../lib/page-calls.mjs'

/** Throws with `message` unless `condition`. */
function expect(condition, message) {
  if (!condition) throw new Error(message)
}

/** Milliseconds between the event stream's two events. */
const EVENT_GAP_MS = 4000
/** How long the slow answer takes: longer than the 30 s Next's rewrites allow. */
const SLOW_MS = 60_000

/**
 * The slow answer: a minute of waiting, run in one app only (apps/next, Next 16 with Turbopack);
 * the others declare it not applicable with `withoutSlowAnswer`.
 * @type {{ name: string, run(ctx: any): Promise<void | string> }}
 */
const SLOW_ANSWER = {
  name: 'a 60 s slow answer is not cut at 30 s',
  async run({ page }) {
    const answer = await page.evaluate(async (ms) => {
      const res = await fetch(`/api/slow?ms=${ms}`)
      return { status: res.status, text: await res.text() }
    }, SLOW_MS)
    expect(answer.status === 200, `status ${answer.status}: ${answer.text.slice(0, 200)}`)
    expect(JSON.parse(answer.text).waited === SLOW_MS, `body ${answer.text.slice(0, 200)}`)
  },
}

/** @type {Array<{ name: string, run(ctx: any): Promise<void | string> }>} */
export const CHECKS = [
  {
    name: "an event stream's first event reaches the page before the stream ends",
    async run({ page }) {
      const gap = await firstEventsGap(page, `/api/events?count=2&interval=${EVENT_GAP_MS}`, 30_000)
      // A stream held back (gzip, a buffering proxy) delivers both events together at its end.
      expect(gap >= EVENT_GAP_MS / 2, `the first event came ${Math.round(gap)} ms before the end`)
    },
  },
  {
    name: "a Set-Cookie with the backend's Domain is usable by the page",
    async run({ page }) {
      const cookies = await page.evaluate(async () => {
        const set = await fetch('/api/cookie?set=scoped=on-the-backend&domain=api.backend.example')
        await set.arrayBuffer()
        return (await (await fetch('/api/cookie')).json()).cookies
      })
      expect(
        cookies.scoped === 'on-the-backend',
        `the browser did not send the cookie back: ${JSON.stringify(cookies)}`,
      )
    },
  },
  SLOW_ANSWER,
]

/**
 * Next's checks with the 60 s slow answer printed as not applicable, for `reason` (an app's
 * own, written in its app.mjs).
 * @param {string} reason
 */
export function withoutSlowAnswer(reason) {
  return CHECKS.map((check) =>
    check === SLOW_ANSWER ? { name: check.name, run: async () => `not applicable: ${reason}` } : check,
  )
}
