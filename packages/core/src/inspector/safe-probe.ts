import type { BrowserRequest, BrowserSend } from '../browser/browser-call.js'
import type { Certainty, ProbeSummary } from './call-explanation.js'

/**
 * Headers that ask a server to treat a request as another method (Google APIs, ASP.NET, many
 * REST frameworks honour them): a GET carrying `X-HTTP-Method-Override: DELETE` can delete.
 */
const METHOD_OVERRIDES: ReadonlySet<string> = new Set([
  'x-http-method-override',
  'x-http-method',
  'x-method-override',
])
/** What describes a body: meaningless on the HEAD that stands in for a call with one. */
const BODY_HEADERS: ReadonlySet<string> = new Set(['content-type', 'content-length', 'content-encoding'])

/**
 * The header each probe request carries, so that a dev server with cors-dev-proxy that it reaches
 * (this one under another name, or another app's) lists it as ours, not as the page's call, and
 * removes it before forwarding. Its value says what sent it. A server sees one more header than
 * the browser sent; CORS decisions never depend on it (it is not in `Access-Control-Request-Headers`).
 */
export const PROBE_HEADER = 'x-cors-dev-proxy-probe'
/** {@link PROBE_HEADER}'s value: the overlay's explanation. */
const PROBE_VALUE = 'explain'

/** Methods the probe may send as the page did: safe by HTTP's definition (RFC 9110 §9.2.1). */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD'])

/** What the probe sent for one explanation, and what it left out. */
export interface ProbeRecord {
  /** The methods sent, in order: at most `OPTIONS` and one `GET` or `HEAD`. */
  readonly sent: readonly string[]
  /** The page's method when it is neither GET nor HEAD: never sent again, a HEAD went instead. */
  readonly notRepeated: string | undefined
  /** Method-override headers of the page's call the GET/HEAD went without (lowercase names). */
  readonly leftOut: readonly string[]
  /** Where the answer redirected to: the probe does not follow (only the URL the page called is probed). */
  readonly redirectNotFollowed: string | undefined
}

/** A probe for one explanation: the `intercept` for `checkCors`, and what it did. */
export interface SafeProbe {
  intercept(send: BrowserSend): BrowserSend
  /** What was sent so far. */
  record(): ProbeRecord
}

/** Thrown to end the browser model's call where the probe stops; the explanation reads `record()`. */
export class ProbeStopped extends Error {
  override readonly name = 'ProbeStopped'
}

/**
 * Creates the probe of one explanation. The browser model asks it to send the requests the
 * browser sent; it sends the preflight as is (it carries header names, never values or a body),
 * the actual request only when it is a GET or HEAD, and a HEAD of the same URL instead of any
 * other method, whose answer's CORS headers stand in for the actual answer's (they are usually
 * the same per URL). Neither carries a method-override header, the HEAD no body. Anything more
 * (a second preflight, a redirect hop) is not sent: at most one OPTIONS and one GET or HEAD,
 * whatever the page's method, and never more than `maxRequests` (what the host's budget granted).
 * Each carries {@link PROBE_HEADER}, which names it as ours.
 * `method` is the page's, as the browser sends it.
 *
 * @example
 * const probe = createSafeProbe('DELETE')
 * await checkCors({ url, origin, method: 'DELETE' }, { intercept: probe.intercept })
 * probe.record() // { sent: ['OPTIONS', 'HEAD'], notRepeated: 'DELETE', leftOut: [], redirectNotFollowed: undefined }
 */
export function createSafeProbe(method: string, maxRequests = 2): SafeProbe {
  const sent: string[] = []
  const leftOut: string[] = []
  // Named whether or not the actual request is reached: the probe never sends it in any case.
  const notRepeated = SAFE_METHODS.has(method) ? undefined : method
  let redirectNotFollowed: string | undefined
  let preflightSent = false
  let requestSent = false

  function stop(request: BrowserRequest): never {
    // Only a redirect makes the browser send more after the actual request (its next hop, or that hop's preflight).
    if (requestSent) redirectNotFollowed ??= request.url
    throw new ProbeStopped(`the probe sends nothing after its ${sent.join(' and ')}`)
  }

  function safeRequest(request: BrowserRequest): BrowserRequest {
    const safe = SAFE_METHODS.has(request.method)
    const headers = request.headers.filter(([name]) => {
      if (METHOD_OVERRIDES.has(name)) leftOut.push(name)
      return !METHOD_OVERRIDES.has(name) && (safe || !BODY_HEADERS.has(name))
    })
    headers.push([PROBE_HEADER, PROBE_VALUE])
    return { kind: 'request', url: request.url, method: safe ? request.method : 'HEAD', headers }
  }

  return {
    intercept(send) {
      return async function probeSend(request) {
        // What the budget granted bounds it too, should the model ever send more than was reserved.
        if (sent.length >= maxRequests) stop(request)
        if (request.kind === 'preflight') {
          if (preflightSent || requestSent) stop(request)
          preflightSent = true
          sent.push('OPTIONS')
          return send({ ...request, headers: [...request.headers, [PROBE_HEADER, PROBE_VALUE]] })
        }
        if (requestSent) stop(request)
        requestSent = true
        const outgoing = safeRequest(request)
        sent.push(outgoing.method)
        return send(outgoing)
      }
    },
    record: () => ({ sent: [...sent], notRepeated, leftOut: [...leftOut], redirectNotFollowed }),
  }
}

/**
 * The probe in one line for the card and the inspector: what was sent, what was not, and how
 * sure the verdict is (`why` says what makes it inferred or unknown).
 *
 * @example
 * probeSummary({ sent: ['OPTIONS', 'HEAD'], notRepeated: 'POST', leftOut: [], redirectNotFollowed: undefined }, 'inferred', 'read off the HEAD')
 * // { sent: ['OPTIONS', 'HEAD'], notRepeated: 'POST', fromMemo: false, text: 'probed with OPTIONS and HEAD; the POST was not repeated; verdict inferred: read off the HEAD' }
 */
export function probeSummary(
  record: ProbeRecord,
  certainty: Certainty,
  why: string | undefined,
): ProbeSummary {
  const parts = [record.sent.length === 0 ? 'nothing was sent' : `probed with ${record.sent.join(' and ')}`]
  if (record.notRepeated !== undefined) parts.push(`the ${record.notRepeated} was not repeated`)
  if (record.leftOut.length > 0) parts.push(`sent without ${record.leftOut.join(', ')}`)
  if (record.redirectNotFollowed !== undefined)
    parts.push(`the redirect to ${record.redirectNotFollowed} was not followed`)
  parts.push(why === undefined ? `verdict ${certainty}` : `verdict ${certainty}: ${why}`)
  return {
    sent: record.sent,
    ...(record.notRepeated === undefined ? {} : { notRepeated: record.notRepeated }),
    fromMemo: false,
    text: parts.join('; '),
  }
}
