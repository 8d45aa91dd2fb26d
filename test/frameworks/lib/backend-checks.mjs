// The checks of the backend's habits (lib/backend.mjs), part of the list every app runs: the page
// reads a ~4 kB item and a ~40 kB list the backend compressed (br as Chromium asks, and gzip from
// a gzip-only backend) intact; from Node, each Accept-Encoding gets a body that its
// Content-Encoding describes; a conditional GET gets its 304 through the proxy; a WebSocket
// under the prefix its backend expects echoes; a login fails with a wrong password, then
// succeeds with a session cookie the next call carries; cookies with Domain, Secure and SameSite
// are usable by a page on http://localhost. And, run beside all the others in one app of each
// front end (`slowAnswer` in app.mjs), an answer that starts after 40 s.
import { request } from 'node:http'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import { ACCOUNT, COOKIE_VARIANTS } from './backend-session.mjs'
import { todoText } from './backend-todos.mjs'
import { webSocketEcho } from './page-calls.mjs'

/** How long the slow answer waits before it starts: more than the 30 s some proxies cut at. */
const SLOW_MS = 40_000

/** Throws with `message` unless `condition`. */
function expect(condition, message) {
  if (!condition) throw new Error(message)
}

/** Where two texts first differ, for a message: their lengths and what each holds there. */
function difference(got, want) {
  let at = 0
  while (at < got.length && got[at] === want[at]) at++
  return `${got.length} chars instead of ${want.length}, from char ${at}: ${JSON.stringify(got.slice(at, at + 60))}`
}

/** GETs `url` from Node with these headers, the body left as it came (not decoded). */
function getRaw(url, headers) {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
      )
      res.on('error', reject)
    })
    req.setTimeout(60_000, () => req.destroy(new Error('no answer in 60 s')))
    req.on('error', reject)
    req.end()
  })
}

/** A body decoded as its Content-Encoding says; throws when that coding is not one we know. */
function decode(body, coding = 'identity') {
  if (coding === 'identity') return body
  if (coding === 'gzip') return gunzipSync(body)
  if (coding === 'br') return brotliDecompressSync(body)
  if (coding === 'deflate') return inflateSync(body)
  throw new Error(`Content-Encoding ${coding}, which the request did not accept`)
}

/** @type {Array<{ name: string, run(ctx: any): Promise<void | string> }>} */
export const BACKEND_CHECKS = [
  {
    name: 'the page reads a 4 kB item and a 40 kB list the backend compressed (br, gzip) intact',
    async run({ page }) {
      // Chromium asks `gzip, deflate, br, zstd`: the backend answers br. `encodings=gzip` makes
      // it a gzip-only backend for that call (a page cannot choose its Accept-Encoding).
      const calls = { br: '/api/todos/3', gzip: '/api/todos/3?encodings=gzip', list: '/api/todos' }
      const read = await page.evaluate(async (calls) => {
        const out = {}
        for (const [key, path] of Object.entries(calls)) {
          try {
            const res = await fetch(path, { cache: 'no-store' })
            const text = await res.text()
            out[key] = { status: res.status, text, coding: res.headers.get('content-encoding') }
          } catch (error) {
            out[key] = { error: String(error) }
          }
        }
        return out
      }, calls)
      for (const [key, path] of Object.entries(calls)) {
        const { status, text, coding, error } = read[key]
        expect(error === undefined, `${path}: ${error}`)
        expect(status === 200, `${path}: status ${status}`)
        const want = todoText(key === 'list' ? undefined : 3)
        expect(
          text === want,
          `${path} (Content-Encoding ${coding ?? 'none'} at the page): ${difference(text, want)}`,
        )
      }
    },
  },
  {
    name: 'from Node, each Accept-Encoding gets a body its Content-Encoding describes',
    async run({ origin }) {
      const want = todoText(3)
      for (const accept of ['gzip', 'br', 'gzip, deflate, br', 'identity']) {
        const res = await getRaw(`${origin}/api/todos/3`, { 'accept-encoding': accept })
        const coding = res.headers['content-encoding']
        expect(res.status === 200, `${accept}: status ${res.status}`)
        const accepted = accept === 'identity' ? [] : accept.split(', ')
        expect(
          coding === undefined || accepted.includes(coding),
          `Accept-Encoding ${accept}: answered Content-Encoding ${coding}`,
        )
        let text
        try {
          text = decode(res.body, coding).toString('utf8')
        } catch (error) {
          throw new Error(
            `Accept-Encoding ${accept}: a body that is not ${coding} (${res.body.length} bytes): ${error.message}`,
          )
        }
        expect(
          text === want,
          `Accept-Encoding ${accept}, Content-Encoding ${coding}: ${difference(text, want)}`,
        )
      }
    },
  },
  {
    name: 'a conditional GET gets its 304 through the proxy',
    async run({ page }) {
      const seen = await page.evaluate(async () => {
        const first = await fetch('/api/todos/3', { cache: 'no-store' })
        await first.text()
        const etag = first.headers.get('etag')
        if (etag === null) return { etag }
        // A request with If-None-Match goes to the network and its 304 reaches the page as it is
        // (Fetch standard, HTTP-network-or-cache fetch, step 8.22).
        const again = await fetch('/api/todos/3', { headers: { 'if-none-match': etag } })
        const body = await again.text()
        const changed = await fetch('/api/todos/3', { headers: { 'if-none-match': 'W/"an-older-version"' } })
        return {
          etag,
          status: again.status,
          body: body.length,
          changed: changed.status,
          length: (await changed.text()).length,
        }
      })
      expect(seen.etag !== null, 'the answer reached the page without its ETag')
      expect(seen.status === 304, `If-None-Match: ${seen.etag} was answered ${seen.status}`)
      expect(seen.body === 0, `the 304 came with ${seen.body} chars of body`)
      expect(
        seen.changed === 200 && seen.length === todoText(3).length,
        `an If-None-Match of another version was answered ${seen.changed} with ${seen.length} chars`,
      )
    },
  },
  {
    name: 'a WebSocket route keeps the prefix its backend expects (/socket/echo)',
    async run({ page, app }) {
      if (app.websocket === false) return 'not applicable: the app carries no WebSocket route'
      // The backend refuses the upgrade of /echo: only a proxy that kept /socket gets the echo.
      const reply = await webSocketEcho(page, '/socket/echo', 'ping under the prefix')
      expect(reply === 'ping under the prefix', `the WebSocket answered ${reply}`)
    },
  },
  {
    name: 'a login fails with a wrong password (401), then succeeds (200 and a session cookie)',
    async run({ page }) {
      const steps = await page.evaluate(async ({ user, password, wrong }) => {
        const login = async (secret) => {
          const res = await fetch('/api/login', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ user, password: secret }),
          })
          return { status: res.status, body: await res.json() }
        }
        const me = async () => {
          const res = await fetch('/api/me')
          return { status: res.status, body: await res.json() }
        }
        const failed = await login(wrong)
        const before = await me()
        const succeeded = await login(password)
        const after = await me()
        return { failed, before, succeeded, after }
      }, ACCOUNT)
      expect(steps.failed.status === 401, `the wrong password was answered ${steps.failed.status}`)
      expect(steps.before.status === 401, `before the login, /me answered ${steps.before.status}`)
      expect(
        steps.succeeded.status === 200 && steps.succeeded.body.user === ACCOUNT.user,
        `the right password was answered ${steps.succeeded.status} ${JSON.stringify(steps.succeeded.body)}`,
      )
      expect(
        steps.after.status === 200 && steps.after.body.user === ACCOUNT.user,
        `after the login, /me answered ${steps.after.status} ${JSON.stringify(steps.after.body)}: the session cookie did not come back`,
      )
    },
  },
  {
    name: 'cookies set with Domain, Secure and SameSite are usable by a page on http://localhost',
    async run({ page, origin, app }) {
      // The page as its user opens it, http://localhost:<port>, a host of its own for cookies.
      const local = `http://localhost:${new URL(origin).port}`
      const other = await page.context().newPage()
      try {
        await other.goto(`${local}${app.pagePath ?? '/'}`, { waitUntil: 'domcontentloaded', timeout: 60_000 })
        const seen = await other.evaluate(async () => {
          await (await fetch('/api/cookie-variants')).text()
          const back = await (await fetch('/api/cookie')).json()
          return { backend: back.cookies, document: document.cookie }
        })
        const names = Object.keys(COOKIE_VARIANTS)
        const missing = names.filter((name) => seen.backend?.[name] !== '1')
        expect(
          missing.length === 0,
          `the backend did not get back ${missing.map((name) => `${name} (${COOKIE_VARIANTS[name]})`).join(', ')}; it got ${JSON.stringify(seen.backend)}`,
        )
        const readable = names.filter((name) => !/HttpOnly/i.test(COOKIE_VARIANTS[name]))
        const hidden = readable.filter((name) => !seen.document.split('; ').includes(`${name}=1`))
        expect(hidden.length === 0, `document.cookie lacks ${hidden.join(', ')}: ${seen.document}`)
      } finally {
        await other.close()
      }
    },
  },
]

/**
 * Checks started with the first one and awaited after the last, so their wait runs beside the
 * others: the 40 s answer, from Node through the dev server, in the apps with `slowAnswer`.
 * @type {Array<{ name: string, run(ctx: any): Promise<void | string> }>}
 */
export const BACKGROUND_CHECKS = [
  {
    name: `an answer that starts after ${SLOW_MS / 1000} s arrives (run beside the other checks)`,
    async run({ origin, app }) {
      if (app.slowAnswer !== true)
        return 'not applicable: run in one app of each front end (slowAnswer in its app.mjs)'
      const started = Date.now()
      const res = await fetch(`${origin}/api/slow?ms=${SLOW_MS}`, {
        signal: AbortSignal.timeout(SLOW_MS + 120_000),
      })
      const text = await res.text()
      const seconds = Math.round((Date.now() - started) / 1000)
      expect(res.status === 200, `status ${res.status} after ${seconds} s: ${text.slice(0, 200)}`)
      expect(JSON.parse(text).waited === SLOW_MS, `body ${text.slice(0, 200)}`)
    },
  },
]
