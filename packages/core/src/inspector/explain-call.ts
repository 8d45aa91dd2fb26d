import { type CheckCorsResult, checkCors } from '../browser/check-cors.js'
import type { CorsErrorKind } from '../browser/chromium-messages.js'
import type { ResolvedRoute } from '../config/resolved-route.js'
import { matchRoute } from '../pipeline/match-route.js'
import { cookieNotes } from './cookie-notes.js'
import { suggestRoute } from './suggest-route.js'

/** What the page's client knows about a failed call (the body of `POST /__cors-dev-proxy/explain`). */
export interface FailedCall {
  /** The absolute URL called. */
  readonly url: string
  readonly method: string
  /** Headers the script set, as pairs. */
  readonly headers: readonly (readonly [string, string])[]
  /** fetch's `credentials` (XHR: `include` with `withCredentials`). */
  readonly credentials: 'omit' | 'same-origin' | 'include'
  /** Who made the call. */
  readonly initiator: 'fetch' | 'XMLHttpRequest' | 'EventSource' | 'WebSocket'
}

/** The answer: what the browser said, why, and what to change. */
export interface CallExplanation {
  /** What kind of failure it is. */
  readonly kind: 'cors' | 'network' | 'mixed-content' | 'local-network' | 'websocket' | 'not-cors'
  /** The console text Chromium printed for it, as the browser model gives it. */
  readonly message: string | undefined
  /** The cause in plain words. */
  readonly cause: string
  /** The route to add to the config (or the configured one), written as in the config. */
  readonly route: string
  /** The call to write instead (`fetch('/api/items')`). */
  readonly call: string
  /** Whether the route already exists. */
  readonly routeExists: boolean
  /** The alternative on the server's side: the header(s) to send, when proxying is not wanted. */
  readonly serverFix: string | undefined
  /** Whether the server probed the URL (as `cors-dev-proxy check` does). */
  readonly probed: boolean
  /** What happens to the cookies the answer sets (one line per cookie the browser drops). */
  readonly cookies: readonly string[]
}

/** The cause of each CORS failure, in plain words. */
const CAUSES: Readonly<Record<CorsErrorKind, string>> = {
  'missing-allow-origin':
    'The server answered, but without Access-Control-Allow-Origin: the browser received the response and kept it from your script, because the page and the API are on different origins.',
  'wildcard-origin-with-credentials':
    "The call sends credentials (cookies), and the server allows every origin with '*', which the browser refuses for credentialed calls.",
  'multiple-allow-origin-values':
    'The server sent Access-Control-Allow-Origin more than once (often a proxy and the backend both add it).',
  'invalid-allow-origin-value': 'The server sent an Access-Control-Allow-Origin value that is not an origin.',
  'allow-origin-mismatch': "The server allows another origin than this page's.",
  'invalid-allow-credentials':
    'The call sends credentials, and the server did not answer Access-Control-Allow-Credentials: true.',
  'preflight-invalid-status':
    'The browser first sent a preflight (OPTIONS) because of the method or headers, and the server did not answer it with a 2xx status.',
  'preflight-redirect':
    'The preflight (OPTIONS) was answered with a redirect, and a preflight never follows redirects.',
  'invalid-allow-methods':
    'The preflight answer has an Access-Control-Allow-Methods the browser cannot parse.',
  'invalid-allow-headers':
    'The preflight answer has an Access-Control-Allow-Headers the browser cannot parse.',
  'method-not-allowed':
    "The preflight answer does not list the call's method in Access-Control-Allow-Methods.",
  'header-not-allowed':
    'The preflight answer does not list a header the call sets in Access-Control-Allow-Headers.',
  'redirect-contains-credentials': 'The server redirected to a URL with user:password in it.',
  'cors-disabled-scheme': 'The server redirected to a URL whose scheme is not http or https.',
}

/** How the call reads when written against the route. */
function callText(initiator: FailedCall['initiator'], method: string, path: string): string {
  switch (initiator) {
    case 'XMLHttpRequest':
      return `xhr.open('${method}', '${path}')`
    case 'EventSource':
      return `new EventSource('${path}')`
    case 'WebSocket':
      return `new WebSocket('${path}')`
    default:
      return method === 'GET' ? `fetch('${path}')` : `fetch('${path}', { method: '${method}' })`
  }
}

/** Chromium's mixed-content console text for a call from an HTTPS page to an insecure URL. */
function mixedContentMessage(pageUrl: string, url: string, initiator: FailedCall['initiator']): string {
  const what = initiator === 'XMLHttpRequest' ? 'XMLHttpRequest endpoint' : 'resource'
  return `Mixed Content: The page at '${pageUrl}' was loaded over HTTPS, but requested an insecure ${what} '${url}'. This request has been blocked; the content must be served over HTTPS.`
}

/** Options of {@link explainCall}. */
export interface ExplainOptions {
  /** The page's origin (the dev server's: the request's own `Origin`). */
  readonly origin: string
  /** The page's URL, when the client sent it (for the mixed-content text). */
  readonly pageUrl?: string
  /** The configured routes, for the fix. */
  readonly routes: readonly ResolvedRoute[]
  /** Milliseconds the probe may take. @default 5000 */
  readonly timeout?: number
}

/**
 * Explains a call that failed in the page: runs the browser model on it, probing the URL the
 * page called (and nothing else) the way `cors-dev-proxy check` does, and answers with
 * Chromium's console text, the cause in plain words, the route to add and the call to write,
 * or the server header to send when proxying is not what is wanted. Mixed content (an HTTPS
 * page calling `http:`) is decided without a probe, as the browser sends nothing; a WebSocket
 * is not subject to CORS, so it is explained from the routes (our `ws` route and its Origin
 * check), without a probe either.
 *
 * @example
 * const answer = await explainCall({ url: 'http://localhost:3000/items', method: 'GET', headers: [], credentials: 'same-origin', initiator: 'fetch' }, { origin: 'http://localhost:5173', routes })
 * answer.route // "'/api': 'http://localhost:3000'"
 */
export async function explainCall(call: FailedCall, options: ExplainOptions): Promise<CallExplanation> {
  const url = new URL(call.url)
  const pageOrigin = options.origin
  // As the script wrote it: `patch` stays lowercase in the call to write, as in the browser.
  const method = call.method
  const suggestion = suggestRoute(url, options.routes)
  const fixed = {
    route: suggestion.route,
    call: callText(call.initiator, method, suggestion.path),
    routeExists: suggestion.existing,
  }
  const insecure = url.protocol === 'http:' || url.protocol === 'ws:'
  if (pageOrigin.startsWith('https:') && insecure) {
    return {
      kind: 'mixed-content',
      message: mixedContentMessage(options.pageUrl ?? `${pageOrigin}/`, call.url, call.initiator),
      cause:
        'The page is served over HTTPS and the call goes to an http: URL: the browser blocks it before sending anything (mixed content), whatever CORS headers the server sends.',
      ...fixed,
      serverFix: `serve the API over HTTPS (${url.href.replace(/^(ws|http):/, (scheme) => (scheme === 'ws:' ? 'wss:' : 'https:'))})`,
      probed: false,
      cookies: [],
    }
  }
  if (call.initiator === 'WebSocket') return explainWebSocket(url, pageOrigin, options.routes, fixed)

  const result = await checkCors(
    {
      url: url.href,
      origin: pageOrigin,
      method: call.method,
      headers: call.headers.map(([name, value]) => [name, value] as [string, string]),
      credentials: call.credentials === 'include',
      initiator: call.initiator,
    },
    { timeout: options.timeout ?? 5000 },
  )
  const cookies = cookieNotes(result.response?.headers, url, pageOrigin, call.credentials === 'include')
  return { ...explainResult(result, fixed), cookies }
}

function explainResult(
  result: CheckCorsResult,
  fixed: { route: string; call: string; routeExists: boolean },
): Omit<CallExplanation, 'cookies'> {
  const lna = result.localNetworkAccess
  if (lna !== undefined && lna.outcome !== 'not-needed') {
    return {
      kind: 'local-network',
      message: lna.message,
      cause: `Local Network Access: a ${lna.pageSpace} page calls a ${lna.targetSpace} address, which needs the user's ${lna.permission ?? 'local-network'} permission (and a secure context) on top of CORS.`,
      ...fixed,
      serverFix: lna.fix,
      probed: true,
    }
  }
  // No answer at all; a call the browser failed silently after an answer (a Location with
  // user:password) is explained below, by its fix.
  if (result.networkError !== undefined && result.message === undefined && result.response === undefined) {
    return {
      kind: 'network',
      message: undefined,
      cause: `The server did not answer (${result.networkError}): the browser reports any failed call to another origin as "TypeError: Failed to fetch", CORS or not.`,
      ...fixed,
      serverFix: 'start the server at that URL, or check its host and port',
      probed: true,
    }
  }
  if (!result.allowed && result.error !== undefined) {
    return {
      kind: 'cors',
      message: result.message,
      cause: CAUSES[result.error.kind],
      ...fixed,
      serverFix: result.fix,
      probed: true,
    }
  }
  return {
    kind: 'not-cors',
    message: result.message ?? result.scriptError,
    cause:
      'Probed from the dev server, the call passes the CORS check: it failed in the page for another reason (the network at that moment, an aborted call, an extension, a server that answers browsers differently).',
    ...fixed,
    serverFix: result.fix,
    probed: true,
  }
}

function explainWebSocket(
  url: URL,
  pageOrigin: string,
  routes: readonly ResolvedRoute[],
  fixed: { route: string; call: string; routeExists: boolean },
): CallExplanation {
  const sameOrigin = `${url.protocol === 'wss:' ? 'https:' : 'http:'}//${url.host}` === pageOrigin
  const match = sameOrigin ? matchRoute(routes, `${url.pathname}${url.search}`) : undefined
  if (match !== undefined) {
    const route = match.route
    const cause = !route.ws
      ? `The route '${route.prefix}' forwards HTTP only: WebSocket upgrades need \`ws: true\` on it.`
      : route.cors !== undefined
        ? `The route '${route.prefix}' has a CORS policy, and cors-dev-proxy checks a WebSocket's Origin against it: the handshake from ${pageOrigin} was refused (403), or the target refused it.`
        : `The route '${route.prefix}' forwards WebSockets; the target refused the handshake or is not running.`
    return {
      kind: 'websocket',
      message: undefined,
      cause,
      route: `'${route.prefix}': { target: '${route.kind === 'forward' ? route.target.origin : 'ws://localhost:3000'}', ws: true }`,
      call: `new WebSocket('${url.pathname}${url.search}')`,
      routeExists: true,
      serverFix: route.cors === undefined ? undefined : `add '${pageOrigin}' to the route's \`cors.origin\``,
      probed: false,
      cookies: [],
    }
  }
  return {
    kind: 'websocket',
    message: undefined,
    cause:
      'WebSockets are not subject to CORS: the server refused the handshake (many check Origin and refuse other origins) or is not running.',
    ...fixed,
    serverFix: `accept the Origin ${pageOrigin} in the WebSocket server's handshake check`,
    probed: false,
    cookies: [],
  }
}
