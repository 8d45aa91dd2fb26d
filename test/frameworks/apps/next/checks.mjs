// Next's own checks, run after the shared ones of lib/checks.mjs: what `rewrites` in
// next.config get wrong and the proxy must get right (measured on Next 16.4 with rewrites: an
// event stream held back until it ends, a Set-Cookie for the backend's domain, a slow answer cut
// at 30 s as a 500 "socket hang up").

/** Throws with `message` unless `condition`. */
function expect(condition, message) {
  if (!condition) throw new Error(message)
}

/** Milliseconds between the event stream's two events. */
const EVENT_GAP_MS = 4000
/** How long the slow answer takes: longer than the 30 s Next's rewrites allow. */
const SLOW_MS = 60_000

/** @type {Array<{ name: string, run(ctx: any): Promise<void | string> }>} */
export const CHECKS = [
  {
    name: "an event stream's first event reaches the page before the stream ends",
    async run({ page }) {
      const seen = await page.evaluate(
        (gap) =>
          new Promise((resolve, reject) => {
            const source = new EventSource(`/api/events?count=2&interval=${gap}`)
            const times = []
            const timer = setTimeout(() => {
              source.close()
              reject(new Error(`${times.length} events in 30 s`))
            }, 30_000)
            source.onmessage = () => {
              times.push(performance.now())
              if (times.length < 2) return
              clearTimeout(timer)
              source.close()
              resolve(times)
            }
          }),
        EVENT_GAP_MS,
      )
      // A stream held back (gzip, a buffering proxy) delivers both events together at its end.
      expect(
        seen[1] - seen[0] >= EVENT_GAP_MS / 2,
        `the first event came ${Math.round(seen[1] - seen[0])} ms before the end`,
      )
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
  {
    name: 'a 60 s slow answer is not cut at 30 s',
    async run({ page }) {
      const answer = await page.evaluate(async (ms) => {
        const res = await fetch(`/api/slow?ms=${ms}`)
        return { status: res.status, text: await res.text() }
      }, SLOW_MS)
      expect(answer.status === 200, `status ${answer.status}: ${answer.text.slice(0, 200)}`)
      expect(JSON.parse(answer.text).waited === SLOW_MS, `body ${answer.text.slice(0, 200)}`)
    },
  },
]
