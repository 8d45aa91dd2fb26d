// Angular's own checks, run after the shared ones of lib/checks.mjs: a proxy.conf.json moved to
// angularProxy unchanged (legacy-proxy-conf.mjs) behaves as ng serve's own proxy did with it
// (the prefix removed by `pathRewrite`, `Host` the target's by `changeOrigin`; without them the
// path kept and ng serve's `Host`), and its WebSocket routes (with and without `pathRewrite`) and
// an event stream work through it; and a misspelt option ends `ng serve` with exit code 1, our
// message the last thing it prints (Angular alone keeps running without listening).

import { stripVTControlCharacters } from 'node:util'
import { firstEventsGap, webSocketEcho } from '../../lib/page-calls.mjs'
import { TYPO } from '../routes.mjs'

/** Throws with `message` unless `condition`. */
function expect(condition, message) {
  if (!condition) throw new Error(message)
}

/** Milliseconds between the event stream's two events. */
const EVENT_GAP_MS = 1500

/** @type {Array<{ name: string, run(ctx: any): Promise<void | string> }>} */
export const CHECKS = [
  {
    name: "proxy.conf.json's entry (secure, changeOrigin, pathRewrite) reaches the backend as ng serve's proxy did",
    async run({ page, backend }) {
      const echo = await page.evaluate(async () => {
        const res = await fetch('/old/items/3?q=1', { method: 'POST', body: 'moved' })
        return { status: res.status, ...(await res.json()) }
      })
      expect(echo.status === 200, `status ${echo.status}`)
      // pathRewrite { '^/old': '' } removed the prefix, the query kept.
      expect(
        echo.path === '/items/3' && echo.query?.q === '1',
        `the backend saw ${echo.path} ${JSON.stringify(echo.query)}`,
      )
      // changeOrigin: the target's host and port, as http-proxy sets it under ng serve.
      const host = new URL(backend.url).host
      expect(echo.headers.host === host, `the backend saw Host ${echo.headers.host}, not ${host}`)
      expect(
        echo.method === 'POST' && echo.body === 'moved',
        `the backend got ${echo.method} ${JSON.stringify(echo.body)}`,
      )
    },
  },
  {
    name: "proxy.conf.json's entry without pathRewrite or changeOrigin keeps the path and ng serve's Host",
    async run({ page, origin }) {
      const echo = await page.evaluate(async () => (await fetch('/raw/items/5?q=2')).json())
      expect(echo.path === '/raw/items/5', `the backend saw ${echo.path}, not /raw/items/5`)
      const host = new URL(origin).host
      expect(echo.headers.host === host, `the backend saw Host ${echo.headers.host}, not ng serve's ${host}`)
      expect(
        echo.headers['x-forwarded-for'] === undefined,
        `X-Forwarded-For ${echo.headers['x-forwarded-for']}: ng serve's proxy sends none without xfwd`,
      )
    },
  },
  {
    name: "proxy.conf.json's WebSocket entry without pathRewrite reaches the backend's path as it is",
    async run({ page }) {
      const reply = await webSocketEcho(page, '/ws', 'ping at /ws')
      expect(reply === 'ping at /ws', `the WebSocket answered ${reply}`)
    },
  },
  {
    name: "proxy.conf.json's WebSocket route (ws: true) echoes",
    async run({ page }) {
      const reply = await webSocketEcho(page, '/old-ws', 'ping through proxy.conf.json')
      expect(reply === 'ping through proxy.conf.json', `the WebSocket answered ${reply}`)
    },
  },
  {
    name: "an event stream through proxy.conf.json's entry delivers its first event before it ends",
    async run({ page }) {
      const gap = await firstEventsGap(page, `/old/events?count=2&interval=${EVENT_GAP_MS}`, 20_000)
      // Held back until the stream ends, both events would arrive together.
      expect(gap >= EVENT_GAP_MS / 2, `the first event came ${Math.round(gap)} ms before the end`)
    },
  },
  {
    name: 'a misspelt option ends ng serve with exit code 1, our message the last thing it prints',
    async run({ startAgain }) {
      // Waited for until it exits (at most 120 s): no early stop on the message, unlike the shared check.
      const { output, exited } = await startAgain({ CDP_TYPO: '1' }, () => false)
      const plain = stripVTControlCharacters(output).trimEnd()
      expect(exited === 1, `ng serve ${exited === undefined ? 'still ran after 120 s' : `exited ${exited}`}`)
      expect(
        plain.endsWith(`Fix it like this: { ${TYPO.meant}: true }`) &&
          !plain.includes('An unhandled exception'),
        `it ended with:\n${plain.slice(-600)}`,
      )
    },
  },
]
