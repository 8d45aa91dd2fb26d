// The rows of the playground: one cross-origin situation each. `run` makes the call the way a
// page would and reports what the script could read; the verdict is what the browser decided.
import { jsonp } from '@cors-dev-proxy/core/client'

/** A unique id per call, so the backend's log can be searched for exactly this call's requests. */
const newCallId = (id) => `${id}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`

/** Runs fetch and reports what the script could read, never throwing. */
async function tryFetch(url, init = {}) {
  try {
    const response = await fetch(url, init)
    const text = await response.text()
    return { readable: true, status: response.status, text }
  } catch (error) {
    return { readable: false, error: `${error.name}: ${error.message}` }
  }
}

/** Resolves when `element` fires load (true) or error (false), after adding it to the page. */
function loadElement(element, parent = document.head) {
  return new Promise((resolve) => {
    element.onload = () => resolve(true)
    element.onerror = () => resolve(false)
    parent.append(element)
  })
}

const summarize = (text) => (text.length > 120 ? `${text.slice(0, 120)}…` : text)

function fetchCase({ method = 'GET', headers, body, credentials }) {
  return async (url) => {
    const result = await tryFetch(url, { method, headers, body, credentials })
    return {
      read: result.readable ? `${result.status} ${summarize(result.text)}` : `nothing (${result.error})`,
      verdict: result.readable ? 'allowed' : 'blocked',
      request: { url, method, headers: headers ?? {}, credentials: credentials === 'include' },
    }
  }
}

/** @type {Array<{ id: string, title: string, why: string, expect: string, url: (env: object, cid: string) => string, run: Function }>} */
export const cases = [
  {
    id: 'direct',
    title: 'Direct GET, backend without CORS',
    why: 'Another origin, no Access-Control-Allow-Origin: the browser withholds the answer, yet the request was handled.',
    expect: 'blocked',
    url: (env, cid) => `${env.backend}/items?cid=${cid}`,
    run: fetchCase({}),
  },
  {
    id: 'proxied',
    title: 'The same GET through /api (cors-dev-proxy)',
    why: 'Same origin for the browser; the dev server forwards to the backend, where the same-origin rule does not apply.',
    expect: 'allowed',
    url: (_env, cid) => `/api/items?cid=${cid}`,
    run: fetchCase({}),
  },
  {
    id: 'cors-simple',
    title: 'Simple GET, backend with CORS',
    why: 'A GET with safelisted headers needs no preflight; the answer carries the page origin in Access-Control-Allow-Origin.',
    expect: 'allowed',
    url: (env, cid) => `${env.corsBackend}/items?cid=${cid}`,
    run: fetchCase({}),
  },
  {
    id: 'cors-preflight',
    title: 'PUT with JSON, backend with CORS',
    why: 'PUT and application/json are not safelisted: the browser asks first with OPTIONS, and the backend allows both.',
    expect: 'allowed',
    url: (env, cid) => `${env.corsBackend}/items/1?cid=${cid}`,
    run: fetchCase({
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"pen"}',
    }),
  },
  {
    id: 'cors-header',
    title: 'PUT with JSON and X-Foo, header not allowed',
    why: 'The preflight answer lists only content-type in Access-Control-Allow-Headers, so X-Foo is refused.',
    expect: 'blocked',
    url: (env, cid) => `${env.corsBackend}/items/1?allowHeaders=content-type&cid=${cid}`,
    run: fetchCase({
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-foo': '1' },
      body: '{"name":"pen"}',
    }),
  },
  {
    id: 'credentials-reflect',
    title: 'Credentialed GET, origin reflected',
    why: "credentials: 'include' sends cookies; allowed because the backend names this origin and sends Allow-Credentials: true.",
    expect: 'allowed',
    url: (env, cid) => `${env.corsBackend}/cookie?cid=${cid}`,
    run: async (url) => {
      await tryFetch(`${url}&set=playground=yes`, { credentials: 'include' })
      return fetchCase({ credentials: 'include' })(url)
    },
  },
  {
    id: 'credentials-wildcard',
    title: "Credentialed GET, Access-Control-Allow-Origin: '*'",
    why: 'The wildcard never admits credentialed requests.',
    expect: 'blocked',
    url: (env, cid) => `${env.corsBackend}/cookie?cors=wildcard&cid=${cid}`,
    run: fetchCase({ credentials: 'include' }),
  },
  {
    id: 'jsonp',
    title: 'JSONP, backend without CORS',
    why: 'A script element is not restricted: the backend wraps the JSON in a call to a function the page defined.',
    expect: 'allowed',
    url: (env, cid) => `${env.backend}/items?cid=${cid}`,
    run: async (url) => {
      try {
        const data = await jsonp(url, { timeout: 5000 })
        return { read: summarize(JSON.stringify(data)), verdict: 'allowed' }
      } catch (error) {
        return { read: `nothing (${error.message})`, verdict: 'blocked' }
      }
    },
  },
  {
    id: 'jsonp-bad-callback',
    title: 'JSONP with a malicious callback name',
    why: 'The backend validates the name and answers 400 instead of reflecting it into a script.',
    expect: 'refused',
    url: (env, cid) =>
      `${env.backend}/items?cid=${cid}&callback=${encodeURIComponent('alert(document.domain)//')}`,
    run: async (url) => {
      const script = document.createElement('script')
      script.src = url
      const loaded = await loadElement(script)
      script.remove()
      return {
        read: loaded ? 'the script ran' : 'nothing: the script failed to load (400)',
        verdict: loaded ? 'allowed' : 'refused',
      }
    },
  },
  {
    id: 'img',
    title: 'Cross-origin <img>',
    why: 'Embedding is not restricted by the same-origin rule (reading its pixels would be).',
    expect: 'not restricted',
    url: (env, cid) => `${env.backend}/pixel.png?cid=${cid}`,
    run: async (url) => {
      const img = new Image()
      img.src = url
      const loaded = await new Promise((resolve) => {
        img.onload = () => resolve(true)
        img.onerror = () => resolve(false)
      })
      return {
        read: loaded ? `image ${img.naturalWidth}×${img.naturalHeight}` : 'nothing',
        verdict: loaded ? 'not restricted' : 'blocked',
      }
    },
  },
  {
    id: 'script',
    title: 'Cross-origin <script>',
    why: 'Scripts from other origins run in the page; that is what JSONP relies on.',
    expect: 'not restricted',
    url: (env, cid) => `${env.backend}/script.js?cid=${cid}`,
    run: async (url) => {
      const script = document.createElement('script')
      script.src = url
      const loaded = await loadElement(script)
      script.remove()
      const value = globalThis.__crossOriginScript
      return {
        read: loaded ? `the script set a global: ${value}` : 'nothing',
        verdict: loaded ? 'not restricted' : 'blocked',
      }
    },
  },
  {
    id: 'stylesheet',
    title: 'Cross-origin stylesheet',
    why: 'Stylesheets from other origins apply to the page.',
    expect: 'not restricted',
    url: (env, cid) => `${env.backend}/style.css?cid=${cid}`,
    run: async (url) => {
      const link = document.createElement('link')
      link.rel = 'stylesheet'
      link.href = url
      const probe = document.createElement('div')
      probe.className = 'cross-origin-probe'
      document.body.append(probe)
      const loaded = await loadElement(link)
      const color = getComputedStyle(probe).color
      probe.remove()
      link.remove()
      return {
        read: loaded ? `a rule applied: color ${color}` : 'nothing',
        verdict: loaded ? 'not restricted' : 'blocked',
      }
    },
  },
  {
    id: 'ws-direct',
    title: 'Cross-origin WebSocket',
    why: 'WebSocket connections are not restricted by the same-origin rule; the server must check Origin itself.',
    expect: 'not restricted',
    url: (env, cid) => `${env.backend.replace(/^http/, 'ws')}/ws?cid=${cid}`,
    run: (url) => echoOverWebSocket(url, 'not restricted'),
  },
  {
    id: 'iframe',
    title: "Reading a cross-origin iframe's DOM",
    why: 'The frame loads, but its document belongs to another origin: the script may not touch it.',
    expect: 'blocked',
    url: (env, cid) => `${env.backend}/frame.html?cid=${cid}`,
    run: async (url) => {
      const frame = document.createElement('iframe')
      frame.src = url
      frame.hidden = true
      await loadElement(frame, document.body)
      try {
        const title = frame.contentWindow.document.title
        return { read: `the frame's title: ${title}`, verdict: 'allowed' }
      } catch (error) {
        return {
          read: `nothing (${error.name}: ${error.message})`,
          verdict: 'blocked',
          console: error.message,
        }
      } finally {
        frame.remove()
      }
    },
  },
  {
    id: 'sse',
    title: 'Server-sent events through /api',
    why: 'The proxy streams each event as it comes and ends the stream when the backend does.',
    expect: 'allowed',
    url: (_env, cid) => `/api/events?count=3&interval=50&cid=${cid}`,
    run: (url) =>
      new Promise((resolve) => {
        const events = []
        const source = new EventSource(url)
        const done = (verdict, read) => {
          source.close()
          resolve({ verdict, read })
        }
        source.onmessage = (event) => {
          events.push(event.data)
          if (events.length === 3) done('allowed', `3 events: ${events.map(summarize).join(' | ')}`)
        }
        source.onerror = () =>
          done(events.length === 3 ? 'allowed' : 'blocked', `${events.length} events, then an error`)
      }),
  },
  {
    id: 'ws-proxied',
    title: 'WebSocket through /api',
    why: 'The dev server forwards the upgrade to the backend; its own HMR socket is left alone.',
    expect: 'allowed',
    url: (_env, cid) => `${location.origin.replace(/^http/, 'ws')}/api/ws?cid=${cid}`,
    run: (url) => echoOverWebSocket(url, 'allowed'),
  },
]

function echoOverWebSocket(url, verdictWhenEchoed) {
  return new Promise((resolve) => {
    const socket = new WebSocket(url)
    const timer = setTimeout(() => finish('blocked', 'nothing (no answer in 5 s)'), 5000)
    function finish(verdict, read) {
      clearTimeout(timer)
      socket.close()
      resolve({ verdict, read })
    }
    socket.onopen = () => socket.send('ping from the page')
    socket.onmessage = (event) => finish(verdictWhenEchoed, `echo: ${summarize(String(event.data))}`)
    socket.onerror = () => finish('blocked', 'nothing (the connection failed)')
  })
}

export { newCallId }
