// Next's own checks, run after the shared ones of lib/checks.mjs: what `rewrites` in
// next.config get wrong and the proxy must get right (measured on Next 16.4 with rewrites: an
// event stream held back until it ends, a Set-Cookie for the backend's domain). The third,
// a slow answer that rewrites cut at 30 s as a 500 "socket hang up", is the shared 40 s answer
// (lib/backend-checks.mjs), run beside the others in apps/next and apps/next-proxy-ts.

import { firstEventsGap } from '../../lib/page-calls.mjs'

/** Throws with `message` unless `condition`. */
function expect(condition, message) {
  if (!condition) throw new Error(message)
}

/** Milliseconds between the event stream's two events. */
const EVENT_GAP_MS = 4000

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
]
