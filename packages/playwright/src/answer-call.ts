import type { FetchHandler } from '@cors-dev-proxy/core'
import type { Request as PlaywrightRequest, Route } from '@playwright/test'
import { UNMATCHED_HEADER, type UnmatchedCall } from './unmatched-calls.js'

/*
 * One intercepted call, translated: the browser's request becomes a Web `Request` on the route's
 * path, the core's Fetch handler answers it (matching, recordings, mocks, CORS: the engine's
 * own), and the answer is fulfilled to the browser as it came: status, headers (each
 * `Set-Cookie` line kept) and body.
 */

/** Methods whose request carries no body (a Web `Request` refuses one). */
const BODILESS = new Set(['GET', 'HEAD'])

/** The Web `Request` of a browser call, sent to `path` on the page's origin. */
async function webRequestOf(request: PlaywrightRequest, path: string): Promise<Request> {
  const method = request.method()
  const headers = new Headers()
  for (const [name, value] of Object.entries(await request.allHeaders())) {
    // HTTP/2 pseudo-headers are no header a `Headers` takes; the URL carries what they say.
    if (!name.startsWith(':')) headers.append(name, value)
  }
  const body = BODILESS.has(method) ? null : request.postDataBuffer()
  const origin = headers.get('origin') ?? new URL(request.url()).origin
  const base = origin === 'null' ? new URL(request.url()).origin : origin
  return new Request(new URL(path, base), {
    method,
    headers,
    body: body === null ? null : new Uint8Array(body),
  })
}

/** The answer's headers as `route.fulfill` takes them: one `Set-Cookie` entry per line, joined by newlines. */
function fulfilledHeaders(response: Response): Record<string, string> {
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers['set-cookie'] = cookies.join('\n')
  return headers
}

/** What became of an intercepted call. */
export type CallOutcome =
  | { readonly kind: 'answered'; readonly status: number }
  | { readonly kind: 'unmatched'; readonly call: UnmatchedCall }
  /** No route took it after all (a `pathFilter` or `bypass` said no): passed on to the next handler. */
  | { readonly kind: 'passed' }

/**
 * Answers an intercepted call from the handler, on the route path `path`. Never rejects: a call
 * the page has already given up on (the page closed) is left alone.
 *
 * @example
 * await context.route((url) => map(url) !== undefined, (route) => answerCall(route, handler, map(new URL(route.request().url()))!))
 */
export async function answerCall(route: Route, handler: FetchHandler, path: string): Promise<CallOutcome> {
  const request = route.request()
  const response = await handler(await webRequestOf(request, path))
  if (response === undefined) {
    await route.fallback().catch(() => undefined)
    return { kind: 'passed' }
  }
  const body = Buffer.from(await response.arrayBuffer())
  await route
    .fulfill({ status: response.status, headers: fulfilledHeaders(response), body })
    .catch(() => undefined)
  // Present, whatever it holds (`1`, or the differences in one line): the core's own answer.
  const marker = response.headers.get(UNMATCHED_HEADER)
  if (marker === null) return { kind: 'answered', status: response.status }
  const call: UnmatchedCall = {
    method: request.method(),
    url: request.url(),
    status: response.status,
    explanation: body.toString(),
    ...(marker === '1' || marker === '' ? {} : { summary: marker }),
  }
  return { kind: 'unmatched', call }
}
