import type { FailedCall } from './call-types.js'
import { crossOrigin } from './overlay-failures.js'
import { type ReportUnmatched, unmatchedNoteOf } from './overlay-unmatched.js'
import type { PageCall } from './violation-lines.js'

/** What a wrapper does with a failed call to another origin: the overlay explains it. */
export type ReportFailure = (failed: FailedCall) => void

/** What a wrapper does when a same-origin call of the page has its answer (the OpenAPI cards ask then). */
export type ReportCompleted = (call: PageCall) => void

/**
 * Replaces `window.fetch`: a cross-origin call returns a promise that settles exactly as the
 * original's; a TypeError from it is reported, then thrown on. A same-origin call returns the
 * original's very promise; its answer is reported as completed, and a 404 carrying the
 * recordings' note is reported beside it.
 *
 * @example
 * wrapFetch(window.fetch.bind(window), (failed) => explainFailure(state, failed), (call) => noteUnmatched(state, call), (call) => undefined)
 */
export function wrapFetch(
  originalFetch: typeof window.fetch,
  report: ReportFailure,
  unmatched: ReportUnmatched,
  completed: ReportCompleted,
): void {
  const wrappedFetch = function fetch(this: unknown, input: RequestInfo | URL, init?: RequestInit) {
    const promise = originalFetch(input, init)
    const url = input instanceof Request ? input.url : String(input instanceof URL ? input.href : input)
    if (!crossOrigin(url)) {
      // Our reaction runs first (registered before the page's), and changes nothing the page gets.
      void promise.then(
        (response) => {
          const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toString()
          const href = new URL(url, location.href).href
          completed({ method, url: href })
          const note = unmatchedNoteOf(response.status, (name) => response.headers.get(name))
          if (note !== undefined) unmatched({ url: href, method, initiator: 'fetch', note })
        },
        () => undefined,
      )
      return promise
    }
    return promise.then(undefined, (error: unknown) => {
      if (error instanceof TypeError) {
        const headers: [string, string][] = []
        new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).forEach(
          (value, name) => {
            headers.push([name, value])
          },
        )
        report({
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
}

/**
 * Wraps `XMLHttpRequest.prototype.open`/`setRequestHeader`/`send`: the arguments are noted, the
 * calls go to the originals, an `error` of a cross-origin call is reported, and so is a
 * same-origin 404 carrying the recordings' note; a same-origin call's end is reported as completed.
 *
 * @example
 * wrapXhr((failed) => explainFailure(state, failed), (call) => noteUnmatched(state, call), (call) => undefined)
 */
export function wrapXhr(report: ReportFailure, unmatched: ReportUnmatched, completed: ReportCompleted): void {
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
        report({
          url: new URL(call.url, location.href).href,
          method: call.method,
          headers: call.headers,
          credentials: this.withCredentials ? 'include' : 'same-origin',
          initiator: 'XMLHttpRequest',
        })
      })
    }
    // Same-origin only: reading a header a cross-origin answer does not expose logs a console error.
    if (call !== undefined && !crossOrigin(call.url)) {
      this.addEventListener('load', () => {
        const note = unmatchedNoteOf(this.status, (name) => this.getResponseHeader(name))
        const url = new URL(call.url, location.href).href
        if (note !== undefined) unmatched({ url, method: call.method, initiator: 'XMLHttpRequest', note })
      })
      this.addEventListener('loadend', () => {
        completed({ method: call.method, url: new URL(call.url, location.href).href })
      })
    }
    originalSend.call(this, body)
  }
}

/**
 * Replaces `window.EventSource` with a subclass (so `instanceof` and the constants still hold)
 * that reports a cross-origin stream refused at once.
 *
 * @example
 * wrapEventSource((failed) => explainFailure(state, failed))
 */
export function wrapEventSource(report: ReportFailure): void {
  const OriginalEventSource = window.EventSource
  if (OriginalEventSource === undefined) return
  window.EventSource = class EventSource extends OriginalEventSource {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, init)
      const href = new URL(String(url), location.href).href
      if (!crossOrigin(href)) return
      this.addEventListener('error', () => {
        // A refused stream is closed at once; a dropped one reconnects (readyState CONNECTING).
        if (this.readyState !== OriginalEventSource.CLOSED) return
        report({
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

/**
 * Replaces `window.WebSocket` with a subclass that reports a socket's `error`: a cross-origin
 * one, or one to this dev server that no route takes (its HMR sockets aside).
 *
 * @example
 * wrapWebSocket((failed) => explainFailure(state, failed))
 */
export function wrapWebSocket(report: ReportFailure): void {
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
        report({ url: href, method: 'GET', headers: [], credentials: 'include', initiator: 'WebSocket' })
      })
    }
  }
}
