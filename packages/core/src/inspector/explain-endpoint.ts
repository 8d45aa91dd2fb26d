import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { readJsonBody } from '../http/read-json-body.js'
import { requestedOrigin } from '../http/request-origin.js'
import type { createCallExplainer } from './call-explainer.js'
import type { FailedCall } from './call-explanation.js'
import { sendJson } from './endpoint-answers.js'

/** The part of a body `explain` reads: the page's description of one call. */
const EXPLAIN_LIMIT = 64 * 1024
const INITIATORS = new Set(['fetch', 'XMLHttpRequest', 'EventSource', 'WebSocket'])
const CREDENTIALS = new Set(['omit', 'same-origin', 'include'])

/** The headers of a failed call, as pairs of strings, at most 64. */
function headerPairsOf(headers: unknown): [string, string][] {
  const pairs = Array.isArray(headers) ? headers : []
  const checked: [string, string][] = []
  for (const pair of pairs.slice(0, 64)) {
    if (Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'string')
      checked.push([pair[0], pair[1]])
  }
  return checked
}

/** Whether `url` is an absolute http(s) or ws(s) URL that parses. */
function isExplainableUrl(url: unknown): url is string {
  if (typeof url !== 'string' || !/^(https?|wss?):\/\//i.test(url)) return false
  try {
    new URL(url)
    return true
  } catch {
    return false
  }
}

/**
 * The client's description of a failed call, checked field by field; `undefined` when malformed.
 *
 * @example
 * failedCallOf({ url: 'http://localhost:3000/x', method: 'GET' }) // { ..., credentials: 'same-origin', initiator: 'fetch' }
 */
export function failedCallOf(body: unknown): FailedCall | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const { url, method, headers, credentials, initiator } = body as Record<string, unknown>
  if (!isExplainableUrl(url)) return undefined
  if (typeof method !== 'string' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}$/.test(method)) return undefined
  return {
    url,
    method,
    headers: headerPairsOf(headers),
    credentials: CREDENTIALS.has(credentials as string)
      ? (credentials as FailedCall['credentials'])
      : 'same-origin',
    initiator: INITIATORS.has(initiator as string) ? (initiator as FailedCall['initiator']) : 'fetch',
  }
}

/**
 * `POST /__cors-dev-proxy/explain`: the overlay's failed call, explained (400 for a malformed
 * body, 429 while too many are in flight).
 *
 * @example
 * serveExplain(req, res, explainer)
 */
export async function serveExplain(
  req: ProxyRequest,
  res: ProxyResponse,
  explainer: ReturnType<typeof createCallExplainer>,
): Promise<void> {
  const call = failedCallOf(await readJsonBody(req, EXPLAIN_LIMIT))
  if (call === undefined) {
    sendJson(res, 400, {
      error: 'expected { url, method, headers, credentials, initiator } with an http(s) or ws(s) URL',
    })
    return
  }
  const origin = requestedOrigin(req) ?? 'http://localhost'
  const referer = req.headers.referer
  const pageUrl = typeof referer === 'string' && referer.startsWith(`${origin}/`) ? referer : undefined
  const answer = await explainer.explain(call, { origin, ...(pageUrl === undefined ? {} : { pageUrl }) })
  if (answer === 'busy') {
    sendJson(res, 429, { error: 'too many explanations at once' }, [['retry-after', '1']])
    return
  }
  sendJson(res, 200, answer)
}
