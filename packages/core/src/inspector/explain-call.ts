import { type CheckCorsResult, checkCors } from '../browser/check-cors.js'
import { classifyRequest } from '../browser/classify-request.js'
import type { ResolvedRoute } from '../config/resolved-route.js'
import type { CallExplanation, Certainty, FailedCall, RouteFix } from './call-explanation.js'
import { cookieNotes } from './cookie-notes.js'
import { CORS_CAUSES } from './cors-causes.js'
import { explainWebSocket, type WebSocketCarrier } from './explain-websocket.js'
import type { ProbeBudget } from './probe-budget.js'
import { createSafeProbe, type ProbeRecord, probeSummary } from './safe-probe.js'
import { suggestRoute } from './suggest-route.js'

export type { CallExplanation, FailedCall } from './call-explanation.js'

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
  /** The requests the probe may still send per host; without it, nothing limits them. */
  readonly budget?: ProbeBudget
  /** How the front end carries WebSockets, for a failed one's fix. @default 'upgrade' */
  readonly webSockets?: WebSocketCarrier
}

/**
 * Explains a call that failed in the page: runs the browser model on it over a probe of the URL
 * the page called (and nothing else), and answers with Chromium's console text, the cause in
 * plain words, the route to add and the call to write, or the server header to send when
 * proxying is not what is wanted, with what was probed and how sure the verdict is. The probe
 * never repeats a call with side effects: it sends at most the preflight and one GET or HEAD
 * (`safe-probe.ts`), within the host's `budget`. Mixed content (an HTTPS page calling `http:`)
 * is decided without a probe, as the browser sends nothing; a WebSocket is not subject to CORS,
 * so it is explained from the routes (our `ws` route and its Origin check), without a probe either.
 *
 * @example
 * const answer = await explainCall({ url: 'http://localhost:3000/items', method: 'GET', headers: [], credentials: 'same-origin', initiator: 'fetch' }, { origin: 'http://localhost:5173', routes })
 * answer.route // "'/api': 'http://localhost:3000'"
 */
export async function explainCall(call: FailedCall, options: ExplainOptions): Promise<CallExplanation> {
  const url = new URL(call.url)
  const pageOrigin = options.origin
  // As the script wrote it: `patch` stays lowercase in the call to write, as in the browser.
  const suggestion = suggestRoute(url, options.routes, call.initiator, pageOrigin)
  const fixed: RouteFix = {
    route: suggestion.route,
    call: callText(call.initiator, call.method, suggestion.path),
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
      certainty: 'exact',
      probe: {
        sent: [],
        fromMemo: false,
        text: 'not probed: the browser sends nothing to an http: URL from an https: page',
      },
    }
  }
  if (call.initiator === 'WebSocket')
    return explainWebSocket(url, pageOrigin, options.routes, fixed, options.webSockets)

  const headers = call.headers.map(([name, value]) => [name, value] as [string, string])
  const classification = classifyRequest({ method: call.method, headers })
  // Reserved before anything is sent, so a probe is whole or not at all; what it did not send is given back.
  const reserved = classification.kind === 'preflight' ? 2 : 1
  const grant = options.budget?.take(url.hostname, reserved) ?? { granted: true }
  if (!grant.granted) return notProbed(url, fixed, grant.used, grant.retryInMs, options.budget)
  const probe = createSafeProbe(classification.method, reserved)
  let result: CheckCorsResult
  try {
    result = await checkCors(
      {
        url: url.href,
        origin: pageOrigin,
        method: call.method,
        headers,
        credentials: call.credentials === 'include',
        initiator: call.initiator,
      },
      { timeout: options.timeout ?? 5000, intercept: probe.intercept },
    )
  } finally {
    options.budget?.giveBack(url.hostname, reserved - probe.record().sent.length)
  }
  const record = probe.record()
  const { certainty, why } = certaintyOf(result, record, call.credentials === 'include')
  const summary = probeSummary(record, certainty, why)
  // Local Network Access comes before CORS in Chromium: when it applies, it is the explanation.
  const lnaDecides = (result.localNetworkAccess?.outcome ?? 'not-needed') !== 'not-needed'
  if (record.redirectNotFollowed !== undefined && !lnaDecides) {
    return undetermined(url, record.redirectNotFollowed, classification.method, pageOrigin, fixed, summary)
  }
  const cookies = cookieNotes(result.response?.headers, url, pageOrigin, call.credentials === 'include')
  return { ...explainResult(result, fixed), cookies, certainty, probe: summary }
}

/** How sure the verdict is, and why when it is not exact. */
function certaintyOf(
  result: CheckCorsResult,
  record: ProbeRecord,
  credentials: boolean,
): { certainty: Certainty; why: string | undefined } {
  if (record.redirectNotFollowed !== undefined)
    return { certainty: 'unknown', why: 'what the redirect leads to decides' }
  const actual = record.sent.find((method) => method !== 'OPTIONS')
  // Decided by the preflight, or before the actual request: the browser's own exchange.
  if (result.stage === 'preflight' || actual === undefined)
    return { certainty: 'exact', why: 'the preflight is the one the browser sent' }
  if (record.notRepeated !== undefined)
    return {
      certainty: 'inferred',
      why: `the answer's CORS headers were read off a ${actual} of the same URL`,
    }
  if (record.leftOut.length > 0)
    return { certainty: 'inferred', why: `the ${actual} went without ${record.leftOut.join(', ')}` }
  // The probe runs on the server, without the browser's cookies for that site.
  if (credentials) return { certainty: 'inferred', why: `the ${actual} went without the page's cookies` }
  return { certainty: 'exact', why: 'the requests the browser sent' }
}

/** Past the host's budget: the route still, and nothing sent. */
function notProbed(
  url: URL,
  fixed: RouteFix,
  used: number,
  retryInMs: number,
  budget: ProbeBudget | undefined,
): CallExplanation {
  const seconds = Math.max(1, Math.ceil(retryInMs / 1000))
  const limit = `at most ${budget?.limit ?? used} requests to one host per ${Math.round((budget?.windowMs ?? 60_000) / 1000)} s`
  return {
    kind: 'not-probed',
    message: undefined,
    cause: `Not probed: the dev server already sent ${used} probe requests to ${url.hostname} recently (${limit}), so a page that fails in a loop cannot make it hammer the server. The route below avoids CORS whatever the verdict; for the verdict, wait ${seconds} s or run cors-dev-proxy check ${url.href} --origin <the page's origin>.`,
    ...fixed,
    serverFix: undefined,
    probed: false,
    cookies: [],
    certainty: 'unknown',
    probe: {
      sent: [],
      fromMemo: false,
      text: `not probed: the probe budget for ${url.hostname} is spent (${limit}); next in ${seconds} s`,
    },
  }
}

/** The URL redirects, and the probe goes no further than the URL the page called. */
function undetermined(
  url: URL,
  to: string,
  method: string,
  pageOrigin: string,
  fixed: RouteFix,
  probe: CallExplanation['probe'],
): CallExplanation {
  const flag = method === 'GET' ? '' : ` --method ${method}`
  return {
    kind: 'undetermined',
    message: undefined,
    cause: `The server answers ${url.href} with a redirect to ${to}, which passes the CORS check; the explanation probes only the URL the page called. To follow the redirect as the browser does, run cors-dev-proxy check ${url.href} --origin ${pageOrigin}${flag} (it sends the call itself).`,
    ...fixed,
    serverFix: undefined,
    probed: true,
    cookies: [],
    certainty: 'unknown',
    probe,
  }
}

/** The verdict's part of the explanation: the kind, Chromium's words, the cause and the server fix. */
function explainResult(
  result: CheckCorsResult,
  fixed: RouteFix,
): Omit<CallExplanation, 'cookies' | 'certainty' | 'probe'> {
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
      cause: CORS_CAUSES[result.error.kind],
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
