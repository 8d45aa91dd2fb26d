// What the suite checks in every app, in headless Chromium on the app's own page: the calls a
// page makes through the proxy (bodies, a large upload, redirects, a cookie, an event stream, a
// WebSocket), HMR still live after the proxied WebSocket, the SSR page's server-side fetch, the
// hint about a server-side fetch that missed the proxy (naming only what the framework has), no
// framework warning about our plugin, the overlay for a direct cross-origin call with the
// inspector and HAR beside it, the inspector's page, a dead backend answered 502 with the dev server still up, a
// preflight from another origin answered by our `cors` route, a `record` route's recording in
// the app's own folder, a `failRate` route's made-up answer (and the overlay's badge for it),
// the backend's habits (lib/backend-checks.mjs: compressed answers read intact, a 304, a
// prefixed WebSocket, a login, cookie attributes, and beside them all a 40 s answer), a
// misspelt option refusing the start with its name, and, closing the list, no failed request
// to our own endpoints in the whole run (lib/our-requests.mjs). An app declares what it has not
// (`hmrFile`, `ssrPath`, `missedPath`, `overlay: false`, `websocket: false`, `slowAnswer` in its
// app.mjs): that check returns its reason, printed as not applicable.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { FAULT_STATUS, TYPO } from '../apps/routes.mjs'
import { BACKEND_CHECKS } from './backend-checks.mjs'
import { INSPECTOR_PAGE, NO_FAILED_REQUEST_OF_OURS } from './our-requests.mjs'
import { webSocketEcho } from './page-calls.mjs'

export { BACKGROUND_CHECKS } from './backend-checks.mjs'

const UPLOAD_BYTES = 20 * 1024 * 1024
/** What the error of a misspelt option shows as the fix. */
const TYPO_FIX = `Fix it like this: { ${TYPO.meant}: true }`

/**
 * A dev server's output as plain words: colours gone, and the frames and line breaks some CLIs
 * wrap a message in (Storybook boxes an error at 80 columns, each line behind `│`) collapsed into
 * single spaces, so a sentence reads whole wherever it was wrapped.
 */
function plainText(output) {
  return stripVTControlCharacters(output).replace(/[│┃|\s]+/g, ' ')
}

/** Throws with `message` unless `condition`. */
function expect(condition, message) {
  if (!condition) throw new Error(message)
}

/** The recording in `folder` whose request path is `path`, or undefined (none yet, or no folder). */
function recordingOf(folder, path) {
  if (!existsSync(folder)) return undefined
  for (const name of readdirSync(folder)) {
    try {
      const recording = JSON.parse(readFileSync(join(folder, name), 'utf8'))
      if (recording.request?.path === path) return recording
    } catch {}
  }
  return undefined
}

/**
 * The checks, in order; each throws on failure, or returns why it does not apply. `ctx`:
 * `{ page, origin, app, appDir, backend, running, startAgain, ours }` (see run-frameworks.mjs).
 * BACKGROUND_CHECKS start before the first and are awaited after the app's own checks;
 * CLOSING_CHECKS run last.
 * @type {Array<{ name: string, run(ctx: any): Promise<void> }>}
 */
export const CHECKS = [
  {
    name: 'the page loads with its HMR client',
    async run({ page, origin, app }) {
      const res = await page.goto(`${origin}${app.pagePath ?? '/'}`, { waitUntil: 'load', timeout: 120_000 })
      expect(res?.status() === 200, `status ${res?.status()}`)
      // Without HMR the page is static: loaded is all there is to check here.
      if (app.hmrFile === undefined) return
      await page.waitForFunction(() => document.body?.textContent?.includes('HMR-MARK-1'), null, {
        timeout: 60_000,
      })
    },
  },
  {
    name: 'GET, POST, PUT, PATCH, DELETE with JSON bodies',
    async run({ page, running }) {
      const results = await page.evaluate(async () => {
        const out = []
        const get = await fetch('/api/items?x=1')
        out.push({ method: 'GET', status: get.status, echo: await get.json() })
        for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
          const res = await fetch(`/api/items/7?m=${method}`, {
            method,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ method, list: [1, 2, 3] }),
          })
          out.push({ method, status: res.status, echo: await res.json() })
        }
        return out
      })
      for (const { method, status, echo } of results) {
        expect(status === 200, `${method}: status ${status}`)
        expect(echo.method === method, `${method}: the backend saw ${echo.method}`)
        expect(
          echo.path === (method === 'GET' ? '/items' : '/items/7'),
          `${method}: the backend saw ${echo.path}`,
        )
        if (method !== 'GET') {
          expect(
            JSON.stringify(echo.body) === JSON.stringify({ method, list: [1, 2, 3] }),
            `${method}: body ${JSON.stringify(echo.body)}`,
          )
        }
      }
      expect(running.alive(), 'the dev server died after the requests with bodies')
    },
  },
  {
    name: 'a form body',
    async run({ page }) {
      const echo = await page.evaluate(async () => {
        const res = await fetch('/api/form', {
          method: 'POST',
          body: new URLSearchParams({ a: '1', b: 'two words' }),
        })
        return res.json()
      })
      expect(
        JSON.stringify(echo.body) === JSON.stringify({ a: '1', b: 'two words' }),
        `body ${JSON.stringify(echo.body)}`,
      )
    },
  },
  {
    name: 'a 20 MB upload arrives whole',
    async run({ page, running }) {
      const { sent, got } = await page.evaluate(async (size) => {
        const bytes = new Uint8Array(size)
        for (let i = 0; i < size; i++) bytes[i] = (i * 31) & 0xff
        const digest = await crypto.subtle.digest('SHA-256', bytes)
        const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
        const res = await fetch('/api/upload', { method: 'POST', body: bytes })
        return { sent: { length: size, sha256: hex }, got: { status: res.status, ...(await res.json()) } }
      }, UPLOAD_BYTES)
      expect(got.status === 200, `status ${got.status}`)
      expect(
        got.length === sent.length && got.sha256 === sent.sha256,
        `the backend got ${got.length} bytes (${got.sha256})`,
      )
      expect(running.alive(), 'the dev server died after the upload')
    },
  },
  {
    name: 'a relative and an absolute redirect come back through the proxy',
    async run({ page, origin, backend }) {
      const results = await page.evaluate(async (absolute) => {
        const out = []
        for (const location of ['/landing', absolute]) {
          const res = await fetch(`/api/from?redirect=${encodeURIComponent(location)}`)
          out.push({ status: res.status, url: res.url, redirected: res.redirected, echo: await res.json() })
        }
        return out
      }, `${backend.url}/landing-absolute`)
      const [relative, absolute] = results
      expect(
        relative.redirected && relative.url === `${origin}/api/landing`,
        `relative: ended at ${relative.url}`,
      )
      expect(relative.echo.path === '/landing', `relative: the backend saw ${relative.echo.path}`)
      expect(
        absolute.redirected && absolute.url === `${origin}/api/landing-absolute`,
        `absolute: ended at ${absolute.url}`,
      )
    },
  },
  {
    name: 'a cookie set through the proxy comes back',
    async run({ page }) {
      const cookies = await page.evaluate(async () => {
        await fetch('/api/cookie?set=session=abc123')
        return (await (await fetch('/api/cookie')).json()).cookies
      })
      expect(cookies.session === 'abc123', `the backend got cookies ${JSON.stringify(cookies)}`)
    },
  },
  {
    name: 'server-sent events arrive one by one',
    async run({ page }) {
      const events = await page.evaluate(
        () =>
          new Promise((resolve, reject) => {
            const source = new EventSource('/api/events?count=3&interval=100')
            const seen = []
            const timer = setTimeout(() => {
              source.close()
              reject(new Error(`only ${seen.length} events in 10 s`))
            }, 10_000)
            source.onmessage = (event) => {
              seen.push({ data: JSON.parse(event.data), at: performance.now() })
              if (seen.length === 3) {
                clearTimeout(timer)
                source.close()
                resolve(seen)
              }
            }
          }),
      )
      expect(events.map((event) => event.data.n).join() === '1,2,3', `events ${JSON.stringify(events)}`)
      // Held back and flushed at the end, they would arrive together.
      expect(events[2].at - events[0].at >= 100, 'the events arrived together: the stream was buffered')
    },
  },
  {
    name: 'a WebSocket route echoes',
    async run({ page, app }) {
      if (app.websocket === false) return 'not applicable: the app carries no WebSocket route'
      const reply = await webSocketEcho(page, '/live', 'ping through the proxy')
      expect(reply === 'ping through the proxy', `the WebSocket answered ${reply}`)
    },
  },
  {
    name: 'HMR still applies an edit after the proxied WebSocket',
    async run({ page, app, appDir }) {
      if (app.hmrFile === undefined) return 'not applicable: no HMR'
      const file = join(appDir, app.hmrFile)
      writeFileSync(file, readFileSync(file, 'utf8').replaceAll('HMR-MARK-1', 'HMR-MARK-2'))
      await page.waitForFunction(() => document.body?.textContent?.includes('HMR-MARK-2'), null, {
        timeout: 60_000,
      })
    },
  },
  {
    name: 'the SSR page fetches through the proxy',
    async run({ origin, app }) {
      if (app.ssrPath === undefined) return 'not applicable: no SSR'
      const res = await fetch(`${origin}${app.ssrPath}`)
      const html = await res.text()
      expect(res.status === 200, `status ${res.status}`)
      expect(html.includes('SSR-OK') && html.includes('/ssr-probe'), `the page says ${html.slice(0, 300)}`)
    },
  },
  {
    name: 'a server-side fetch that misses the proxy is explained in the log',
    async run({ origin, app, running }) {
      if (app.missedPath === undefined) return 'not applicable: no server-side code'
      const res = await fetch(`${origin}${app.missedPath}`)
      await res.arrayBuffer()
      const hint = "fetch('/api/missed') ran on the server"
      for (let tries = 0; tries < 50 && !running.output().includes(hint); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(running.output().includes(hint), `no hint in the log (the page answered ${res.status})`)
      expect(running.alive(), 'the dev server died')
      // The hint names what exists in this framework, and no other framework's way.
      const line = running
        .output()
        .split('\n')
        .find((text) => text.includes(hint))
      expect(line.includes("serverFetch('/api/missed')"), `the hint does not name serverFetch: ${line}`)
      for (const foreign of ["SvelteKit's event.fetch", 'Astro.url', 'request.url']) {
        const own = app.missedAlternative?.includes(foreign) === true
        expect(
          own || !line.includes(foreign),
          `the hint names ${foreign}, which ${app.name} has not: ${line}`,
        )
      }
      if (app.missedAlternative === undefined) return
      expect(
        line.includes(`(${app.missedAlternative} works too)`),
        `the hint does not name ${app.missedAlternative}: ${line}`,
      )
      // What it names works: the page made that call next, and it reached the route.
      const html = await (await fetch(`${origin}${app.missedPath}`)).text()
      expect(
        html.includes('ALT-OK missed') && html.includes('/alternative'),
        `${app.missedAlternative} did not reach the route: ${html.slice(0, 300)}`,
      )
    },
  },
  {
    name: 'the framework prints no warning about cors-dev-proxy',
    async run({ running }) {
      // SvelteKit warns about every plugin with a transformIndexHtml hook, which it never runs.
      const warning = 'may not work correctly because they use the `transformIndexHtml` hook'
      expect(!running.output().includes(warning), `the dev server printed: ${warning}`)
    },
  },
  {
    name: 'a direct call to another origin shows the overlay; the inspector and the HAR list the proxied call',
    async run({ page, backend, app }) {
      if (app.overlay === false) return 'not applicable: no overlay client or inspector'
      const pageOrigin = new URL(page.url()).origin
      // The client is loaded by the page (a script tag, Vite's client, or webpack's added entry).
      await page.waitForFunction(() => window.__corsDevProxyClient === true, null, { timeout: 30_000 })
      const failed = await page.evaluate(async (url) => {
        try {
          await fetch(url)
          return 'no error'
        } catch (error) {
          return String(error)
        }
      }, `${backend.url}/items`)
      expect(failed === 'TypeError: Failed to fetch', `the direct call gave ${failed}`)
      const settled = Date.now()
      await page.waitForFunction(() => document.querySelector('cors-dev-proxy-overlay') !== null, null, {
        timeout: 2000,
        polling: 25,
      })
      expect(Date.now() - settled < 2000, 'the overlay took more than 2 s')
      const text = await page.evaluate(
        () => document.querySelector('cors-dev-proxy-overlay')?.shadowRoot?.textContent ?? '',
      )
      const message = `Access to fetch at '${backend.url}/items' from origin '${pageOrigin}' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.`
      expect(text.includes(message), `the overlay does not quote Chromium: ${text.slice(0, 300)}`)
      expect(
        // A plain route (`'/api': url`), or the object form where the app's routes are written with
        // options, as the Angular apps' are (ng serve's dialect: `changeOrigin` spelled out).
        text.includes(`'/api': '${backend.url}'`) || text.includes(`'/api': { target: '${backend.url}'`),
        `the overlay does not name the route: ${text.slice(0, 400)}`,
      )
      expect(text.includes("fetch('/api/items')"), 'the overlay does not name the call')
      const { exchanges, har } = await page.evaluate(async () => {
        await (await fetch('/api/items?from=inspector-check')).text()
        await new Promise((resolve) => setTimeout(resolve, 100))
        const exchanges = await (await fetch('/__cors-dev-proxy/exchanges')).json()
        const har = await (await fetch('/__cors-dev-proxy/har')).json()
        return { exchanges, har }
      })
      const listed = exchanges.find((view) => view.url === '/api/items?from=inspector-check')
      expect(listed !== undefined, 'the inspector does not list /api/items')
      expect(
        listed.upstreamUrl === `${backend.url}/items?from=inspector-check` &&
          listed.upstreamProtocol === 'http/1.1',
        `the inspector lists ${JSON.stringify(listed).slice(0, 300)}`,
      )
      const entry = har.log?.entries?.find(
        (item) => item.request.url === `${pageOrigin}/api/items?from=inspector-check`,
      )
      expect(har.log?.version === '1.2' && entry !== undefined, 'the HAR does not hold the call')
      expect(
        entry._upstreamUrl === `${backend.url}/items?from=inspector-check`,
        `_upstreamUrl ${entry._upstreamUrl}`,
      )
      await page.keyboard.press('Escape')
    },
  },
  INSPECTOR_PAGE,
  {
    name: 'a dead backend is answered 502 with the reason, the dev server stays up',
    async run({ page, origin, running }) {
      const answer = await page.evaluate(async () => {
        const res = await fetch('/down/items')
        return { status: res.status, text: await res.text() }
      })
      expect(answer.status === 502, `status ${answer.status}`)
      expect(answer.text.includes('connection refused'), `body ${answer.text.slice(0, 200)}`)
      const again = await fetch(`${origin}/`)
      await again.arrayBuffer()
      expect(again.status === 200 && running.alive(), 'the dev server did not answer after the 502')
    },
  },
  {
    name: "a preflight from another origin is answered by the route's cors policy",
    async run({ page, origin, backend }) {
      // Another origin's page: the backend's own, a loopback origin as the route's default policy
      // admits. Its PUT with JSON and a custom header to the app sends a real preflight.
      const otherOrigin = backend.url
      const other = await page.context().newPage()
      await other.goto(`${otherOrigin}/another-origin`)
      // cors=off: the backend itself would fail the preflight, so a passing one is ours.
      const url = `${origin}/cors-api/items/9?cors=off`
      const answer = await other.evaluate(async (target) => {
        try {
          const res = await fetch(target, {
            method: 'PUT',
            headers: { 'content-type': 'application/json', 'x-check': 'preflight' },
            body: JSON.stringify({ through: 'cors' }),
          })
          return { status: res.status, echo: await res.json() }
        } catch (error) {
          return { error: String(error) }
        }
      }, url)
      await other.close()
      if (answer.error !== undefined) {
        // What the preflight answered, which Chromium does not show the page.
        const seen = await fetch(url, {
          method: 'OPTIONS',
          headers: {
            origin: otherOrigin,
            'access-control-request-method': 'PUT',
            'access-control-request-headers': 'content-type,x-check',
          },
        }).then(
          async (res) =>
            `${res.status} ${JSON.stringify(Object.fromEntries(res.headers))} ${(await res.text()).slice(0, 200)}`,
          (error) => String(error),
        )
        throw new Error(`the cross-origin PUT failed: ${answer.error}; the preflight answered ${seen}`)
      }
      expect(answer.status === 200 && answer.echo.method === 'PUT', `the PUT answered ${answer.status}`)
      expect(answer.echo.path === '/cors/items/9', `the backend saw ${answer.echo.path}`)
      // The same preflight as Chromium sent it, to read the answer it hides from the page.
      const res = await fetch(url, {
        method: 'OPTIONS',
        headers: {
          origin: otherOrigin,
          'access-control-request-method': 'PUT',
          'access-control-request-headers': 'content-type,x-check',
        },
      })
      await res.arrayBuffer()
      const header = (name) => res.headers.get(name) ?? ''
      expect(res.status === 204, `the preflight answered ${res.status}`)
      expect(
        header('access-control-allow-origin') === otherOrigin,
        `allow-origin ${header('access-control-allow-origin')}`,
      )
      expect(
        /\bPUT\b/.test(header('access-control-allow-methods')),
        `allow-methods ${header('access-control-allow-methods')}`,
      )
      expect(
        /\bx-check\b/i.test(header('access-control-allow-headers')),
        `allow-headers ${header('access-control-allow-headers')}`,
      )
      // Only the route's policy (`maxAge: 321` in routes.mjs) sends this value.
      expect(header('access-control-max-age') === '321', 'the preflight was not answered by our cors policy')
    },
  },
  {
    name: "a record: true route writes its recording into the app's own folder",
    async run({ page, appDir }) {
      const mark = `check-${Date.now()}`
      const status = await page.evaluate(async (url) => {
        const res = await fetch(url)
        await res.arrayBuffer()
        return res.status
      }, `/rec-api/items?mark=${mark}`)
      expect(status === 200, `status ${status}`)
      // The dev server's root is the app's folder: cors-dev-proxy/recordings/<route>/ under it.
      // The file is written once the answer ended: waited for, up to 10 s.
      const folder = join(appDir, 'cors-dev-proxy/recordings/rec-api')
      // Recorded by its path under the route (the prefix removed), as replay matches it.
      const path = `/items?mark=${mark}`
      let recording = recordingOf(folder, path)
      for (let tries = 0; tries < 100 && recording === undefined; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        recording = recordingOf(folder, path)
      }
      const held = existsSync(folder) ? readdirSync(folder).join(', ') || 'nothing' : 'no such folder'
      expect(recording !== undefined, `no recording of GET ${path} in ${folder} (it holds ${held})`)
      expect(
        recording.request.method === 'GET' && recording.answers?.[0]?.status === 200,
        `the recording holds ${JSON.stringify(recording).slice(0, 300)}`,
      )
    },
  },
  {
    name: 'a route with failRate: 1 answers its failWith status, marked as a fault',
    async run({ page, app }) {
      const answer = await page.evaluate(async () => {
        const res = await fetch('/fault-api/items')
        return {
          status: res.status,
          fault: res.headers.get('x-cors-dev-proxy-fault'),
          text: await res.text(),
        }
      })
      expect(answer.status === FAULT_STATUS, `status ${answer.status}: ${answer.text.slice(0, 200)}`)
      expect(answer.fault === `failRate; ${FAULT_STATUS}`, `X-Cors-Dev-Proxy-Fault: ${answer.fault}`)
      if (app.overlay === false) return
      // While a fault is on, the overlay's client keeps a badge in the page (it polls every 2 s).
      await page.waitForSelector('#cors-dev-proxy-fault-badge', { timeout: 15_000 })
    },
  },
  ...BACKEND_CHECKS,
  {
    name: 'a misspelt option stops the start with its name and the fix',
    async run({ startAgain }) {
      // routes.mjs misspells changeOrigin when CDP_TYPO=1; the app must not serve with it.
      const { output: raw, exited } = await startAgain({ CDP_TYPO: '1' }, (text) =>
        plainText(text).includes(TYPO_FIX),
      )
      const output = plainText(raw)
      const named = `.${TYPO.misspelt} is not an option`
      expect(
        output.includes(named) && output.includes(TYPO_FIX),
        `neither exit nor error naming ${TYPO.misspelt} (${exited === undefined ? 'still running' : `exited ${exited}`}):\n${output.slice(-600)}`,
      )
    },
  },
]

/**
 * The checks run after every other, the app's own included: what the whole run left behind.
 * @type {Array<{ name: string, run(ctx: any): Promise<void | string> }>}
 */
export const CLOSING_CHECKS = [NO_FAILED_REQUEST_OF_OURS]
