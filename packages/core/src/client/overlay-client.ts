import type { CallExplanation, FailedCall } from './call-types.js'
import type { ServedEndpoints } from './served-endpoints.js'

/**
 * The overlay's client, run in the page (served as `/__cors-dev-proxy/client.js`, as the body
 * of an immediately invoked function; it must stay self-contained: no outer names, and no imports
 * but types, which the compiler erases: `call-types.ts`, shared with the dev server).
 *
 * What it touches: it replaces `window.fetch`, `window.EventSource` and `window.WebSocket` with
 * wrappers, and `XMLHttpRequest.prototype.open`/`setRequestHeader`/`send` with wrappers that
 * call the originals. A same-origin call goes straight to the original, untouched. A call to
 * another origin is sent exactly as written (no header added: that would change the preflight),
 * and returns or throws exactly what the original does; only when it fails (fetch's TypeError, an
 * XHR `error`, an EventSource or WebSocket `error`) does the client POST what the page knows to
 * `/__cors-dev-proxy/explain` and show the answer in `<cors-dev-proxy-overlay>`. Nothing else
 * runs, and nothing is sent, while calls succeed.
 */
export function overlayClient(served: ServedEndpoints): void {
  const w = window as unknown as Record<string, unknown> & Window
  if (w.__corsDevProxyClient === true) return
  w.__corsDevProxyClient = true
  const base = '/__cors-dev-proxy'
  const originalFetch = window.fetch.bind(window)
  const pageOrigin = location.origin

  const crossOrigin = (url: string): boolean => {
    try {
      const parsed = new URL(url, location.href)
      const scheme =
        parsed.protocol === 'wss:' ? 'https:' : parsed.protocol === 'ws:' ? 'http:' : parsed.protocol
      return `${scheme}//${parsed.host}` !== pageOrigin
    } catch {
      return false
    }
  }

  const pending = new Map<string, Promise<CallExplanation | undefined>>()
  interface Card {
    /** What failed, for the collapsed card's one line. */
    failed: FailedCall
    /** A call to this dev server (a WebSocket no route takes): not one to another origin. */
    own: boolean
    count: number
    explanation: CallExplanation | undefined
    /** The order the explanations arrived in: the newest card is shown first. */
    arrived: number
    /** The user opened or closed this card; `undefined`: only the newest is open. */
    open: boolean | undefined
  }
  const cards = new Map<string, Card>()
  let arrivals = 0

  function explain(failed: FailedCall): void {
    // Only what the dev server explains (a data:, blob: or extension URL would be refused 400).
    if (!served.explain || !/^(https?|wss?):/i.test(failed.url)) return
    const key = `${failed.initiator} ${failed.method} ${failed.url.split('?')[0]}`
    const known = cards.get(key)
    if (known !== undefined) {
      known.count += 1
      render()
      return
    }
    cards.set(key, {
      failed,
      own: !crossOrigin(failed.url),
      count: 1,
      explanation: undefined,
      arrived: 0,
      open: undefined,
    })
    const asked = originalFetch(`${base}/explain`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(failed),
    })
      .then((answer) => (answer.ok ? (answer.json() as Promise<CallExplanation>) : undefined))
      .catch(() => undefined)
    pending.set(key, asked)
    void asked.then((explanation) => {
      pending.delete(key)
      const card = cards.get(key)
      if (card === undefined || explanation === undefined) return
      card.explanation = explanation
      arrivals += 1
      card.arrived = arrivals
      render()
    })
  }

  // fetch: a cross-origin call returns a promise that settles exactly as the original's.
  const wrappedFetch = function fetch(this: unknown, input: RequestInfo | URL, init?: RequestInit) {
    const promise = originalFetch(input, init)
    const url = input instanceof Request ? input.url : String(input instanceof URL ? input.href : input)
    if (!crossOrigin(url)) return promise
    return promise.then(undefined, (error: unknown) => {
      if (error instanceof TypeError) {
        const headers: [string, string][] = []
        new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).forEach(
          (value, name) => {
            headers.push([name, value])
          },
        )
        explain({
          url: new URL(url, location.href).href,
          method: (init?.method ?? (input instanceof Request ? input.method : 'GET')).toString(),
          headers,
          credentials: init?.credentials ?? (input instanceof Request ? input.credentials : 'same-origin'),
          initiator: 'fetch',
        })
      }
      throw error
    })
  }
  window.fetch = wrappedFetch as typeof window.fetch

  // XMLHttpRequest: the arguments are noted, the calls go to the originals.
  const calls = new WeakMap<XMLHttpRequest, { method: string; url: string; headers: [string, string][] }>()
  const proto = XMLHttpRequest.prototype
  const { open: originalOpen, setRequestHeader: originalSetRequestHeader, send: originalSend } = proto
  proto.open = function open(this: XMLHttpRequest, ...args: unknown[]) {
    calls.set(this, { method: String(args[0]), url: String(args[1]), headers: [] })
    return (originalOpen as (...rest: unknown[]) => void).apply(this, args)
  } as typeof proto.open
  proto.setRequestHeader = function setRequestHeader(
    this: XMLHttpRequest,
    name: string,
    value: string,
  ): void {
    calls.get(this)?.headers.push([name, value])
    originalSetRequestHeader.call(this, name, value)
  }
  proto.send = function send(this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null): void {
    const call = calls.get(this)
    if (call !== undefined && crossOrigin(call.url)) {
      this.addEventListener('error', () => {
        explain({
          url: new URL(call.url, location.href).href,
          method: call.method,
          headers: call.headers,
          credentials: this.withCredentials ? 'include' : 'same-origin',
          initiator: 'XMLHttpRequest',
        })
      })
    }
    originalSend.call(this, body)
  }

  // EventSource and WebSocket: subclasses, so `instanceof` and the constants still hold.
  const OriginalEventSource = window.EventSource
  if (OriginalEventSource !== undefined) {
    window.EventSource = class EventSource extends OriginalEventSource {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init)
        const href = new URL(String(url), location.href).href
        if (!crossOrigin(href)) return
        this.addEventListener('error', () => {
          // A refused stream is closed at once; a dropped one reconnects (readyState CONNECTING).
          if (this.readyState !== OriginalEventSource.CLOSED) return
          explain({
            url: href,
            method: 'GET',
            headers: [],
            credentials: init?.withCredentials ? 'include' : 'same-origin',
            initiator: 'EventSource',
          })
        })
      }
    }
  }
  const OriginalWebSocket = window.WebSocket
  window.WebSocket = class WebSocket extends OriginalWebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols)
      const href = this.url
      // The dev servers' own sockets (HMR) come and go with restarts: never explained.
      const list = typeof protocols === 'string' ? [protocols] : (protocols ?? [])
      if (
        !crossOrigin(href) &&
        (list.some((name) => name.includes('hmr')) ||
          /\/(ws|_nuxt|__vite|__webpack|sockjs|rsbuild-hmr)/.test(new URL(href).pathname))
      )
        return
      this.addEventListener('error', () => {
        explain({ url: href, method: 'GET', headers: [], credentials: 'include', initiator: 'WebSocket' })
      })
    }
  }

  // The overlay element: one card per distinct failure, in its own shadow DOM.
  // A panel in a corner, not a backdrop: the page stays usable (a page that tests failing calls
  // on purpose keeps working), and Vite's error overlay (z-index 99999) stays above it. At most
  // a third of the viewport high (the cards scroll inside it), the newest card first and open,
  // the older ones one line each: several failures never cover the page, nor push the newest
  // out of sight.
  const STYLE = `
:host { position: fixed; right: 16px; bottom: 16px; z-index: 99990; width: min(720px, calc(100vw - 32px));
  max-height: 33vh; display: flex; font: 14px/1.5 ui-sans-serif, system-ui, sans-serif; border-radius: 8px;
  box-shadow: 0 10px 40px rgba(0,0,0,.5); overflow: hidden; }
.panel { background: #181818; color: #e8e8e8; border-top: 4px solid #e8a33d; padding: 8px 14px 8px; display: flex;
  flex-direction: column; min-height: 0; width: 100%; box-sizing: border-box; }
h1 { font-size: 14px; margin: 0 0 4px; color: #f3c26b; display: flex; justify-content: space-between; gap: 12px; flex: none; }
.cards { overflow-y: auto; min-height: 0; flex: 1 1 auto; overscroll-behavior: contain; }
.card { border: 1px solid #333; border-radius: 6px; margin: 6px 0; background: #202020; }
.card > summary { cursor: pointer; padding: 4px 10px; font-family: ui-monospace, monospace; font-size: 12px; color: #c9c9c9;
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.card[open] > summary { color: #f3c26b; }
.body { padding: 0 10px 8px; }
.message { font-family: ui-monospace, monospace; font-size: 13px; color: #ff7b72; white-space: pre-wrap; word-break: break-word; }
.cause { margin: 6px 0; }
.fix { font-family: ui-monospace, monospace; font-size: 13px; background: #111; padding: 6px 10px; border-radius: 4px; white-space: pre-wrap; margin-top: 2px; }
.count { background: #e8a33d; color: #111; border-radius: 10px; padding: 0 8px; font-size: 12px; margin-right: 6px; }
.row { display: flex; gap: 8px; margin-top: 6px; align-items: center; flex-wrap: wrap; }
button, a { font: inherit; font-size: 13px; color: #9cdcfe; background: #2a2a2a; border: 1px solid #444; border-radius: 4px; padding: 2px 10px; cursor: pointer; text-decoration: none; }
.muted { color: #9a9a9a; font-size: 12px; }
.foot { flex: none; margin-top: 4px; }`
  class CorsDevProxyOverlay extends HTMLElement {
    constructor() {
      super()
      const root = this.attachShadow({ mode: 'open' })
      root.innerHTML = `<style>${STYLE}</style><div class="panel" part="panel"><h1><span class="title">cors-dev-proxy: a call to another origin failed</span><button class="close" title="Close (Esc)">✕</button></h1><div class="cards"></div><div class="muted foot">Click outside or press Esc to close · <a href="${base}/" target="_blank">open the inspector</a> · <code>overlay: false</code> turns this off</div></div>`
      root.querySelector('.close')?.addEventListener('click', () => this.remove())
    }
  }
  if (customElements.get('cors-dev-proxy-overlay') === undefined) {
    customElements.define('cors-dev-proxy-overlay', CorsDevProxyOverlay)
  }
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') document.querySelector('cors-dev-proxy-overlay')?.remove()
  })
  // A click outside the panel dismisses it (the click still does what it does).
  document.addEventListener(
    'pointerdown',
    (event) => {
      const overlay = document.querySelector('cors-dev-proxy-overlay')
      if (overlay !== null && !event.composedPath().includes(overlay)) overlay.remove()
    },
    true,
  )

  function line(className: string, text: string): HTMLElement {
    const element = document.createElement('div')
    element.className = className
    element.textContent = text
    return element
  }

  /** One card: a line naming the call (a click opens or closes it), and the explanation. */
  function cardElement(card: Card, open: boolean): HTMLElement {
    const explanation = card.explanation as CallExplanation
    const element = document.createElement('details')
    element.className = 'card'
    element.open = open
    const summary = document.createElement('summary')
    if (card.count > 1) {
      const count = document.createElement('span')
      count.className = 'count'
      count.textContent = `×${card.count}`
      summary.append(count)
    }
    summary.append(`${card.failed.initiator} ${card.failed.method} ${card.failed.url}`)
    element.append(summary)
    // A click (or Enter) on the summary toggles the card: remembered, as the list is rebuilt
    // when another failure arrives. Not the `toggle` event, which setting `open` fires too.
    summary.addEventListener('click', () => {
      card.open = !element.open
    })
    const body = document.createElement('div')
    body.className = 'body'
    const where =
      explanation.routeWhere ??
      (explanation.routeExists
        ? 'the route exists: call it instead'
        : 'add the route to corsDevProxy({ ... }) in your config')
    const fix = `// ${where}\n${explanation.route}\n// and call\n${explanation.call}`
    body.append(line('fix', fix))
    const row = document.createElement('div')
    row.className = 'row'
    const copy = document.createElement('button')
    copy.textContent = 'Copy the fix'
    copy.addEventListener('click', () => {
      void navigator.clipboard?.writeText(fix).then(
        () => {
          copy.textContent = 'Copied'
        },
        () => {
          copy.textContent = 'Select and copy the text above'
        },
      )
    })
    row.append(copy)
    if (explanation.serverFix !== undefined)
      row.append(line('muted', `Or on the server: ${explanation.serverFix}`))
    body.append(row)
    // The fix first, then why, then Chromium's words: in a panel a third of the window high,
    // what to change is what must be in sight without scrolling.
    body.append(line('cause', explanation.cause))
    for (const note of explanation.cookies ?? []) body.append(line('cause', note))
    // What the dev server sent to find this out (never the page's POST, PUT, PATCH or DELETE), and how sure it is.
    if (explanation.probe !== undefined) body.append(line('muted probe', explanation.probe.text))
    if (explanation.message !== undefined) body.append(line('message', explanation.message))
    element.append(body)
    return element
  }

  /** The panel's title, counting calls to other origins and calls to this dev server apart. */
  function titleOf(ready: readonly Card[]): string {
    const own = ready.filter((card) => card.own).length
    const other = ready.length - own
    const others = other === 1 ? 'a call to another origin' : `${other} calls to other origins`
    const owns = own === 1 ? 'a call to this dev server' : `${own} calls to this dev server`
    if (own === 0) return `cors-dev-proxy: ${others} failed`
    if (other === 0) return `cors-dev-proxy: ${owns} failed`
    return `cors-dev-proxy: ${ready.length} calls failed: ${other} to ${other === 1 ? 'another origin' : 'other origins'}, ${own} to this dev server`
  }

  let shownCards = 0
  function render(): void {
    // Vite's error overlay is about the build: it stays on top, ours waits.
    if (document.querySelector('vite-error-overlay') !== null) return
    const ready = [...cards.values()]
      .filter((card) => card.explanation !== undefined)
      .sort((a, b) => b.arrived - a.arrived)
    if (ready.length === 0) return
    let overlay = document.querySelector('cors-dev-proxy-overlay')
    if (overlay === null) {
      overlay = document.createElement('cors-dev-proxy-overlay')
      document.body.appendChild(overlay)
    }
    const root = overlay.shadowRoot
    const list = root?.querySelector('.cards')
    if (root == null || list == null) return
    const title = root.querySelector('.title')
    if (title !== null) title.textContent = titleOf(ready)
    list.replaceChildren(...ready.map((card, index) => cardElement(card, card.open ?? index === 0)))
    // A new failure shows at the top; a repeat (a counter) leaves the list where the user scrolled it.
    if (ready.length > shownCards) list.scrollTop = 0
    shownCards = ready.length
  }
}
