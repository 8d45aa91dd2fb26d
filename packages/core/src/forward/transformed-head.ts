import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http'
import type { IncomingProxyResponse } from '../config/hook-options.js'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import type { Logger } from '../log/logger.js'
import type { LocationRewriter } from './location-rewrite.js'
import { answerInvalidHeader, writeUpstreamHead } from './relay-response.js'
import { buildClientHeaders } from './response-headers.js'

/**
 * Headers that describe the bytes of the original body rather than the resource: once a
 * transform replaced the body they are wrong, and some make Node refuse the head (`Trailer`
 * with a `Content-Length` is ERR_HTTP_TRAILER_INVALID). The length is computed again; the
 * others are dropped (RFC 9110 §8.4, §8.6, §6.6.2; RFC 9530 for the digests; RFC 1864 for MD5).
 */
export const BODY_FRAMING_HEADERS: readonly string[] = Object.freeze([
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'trailer',
  'content-md5',
  'digest',
  'content-digest',
  'repr-digest',
])

/** The target's head as copied onto `res` before the transform, to tell the transform's changes from it. */
export interface CopiedHead {
  /** The client headers written on `res` (cleaned, cookies and redirects rewritten). */
  readonly copied: OutgoingHttpHeaders
  /** `proxyRes.headers` as the transform received them. */
  readonly before: IncomingHttpHeaders
  /** The target's status. */
  readonly status: number
}

/**
 * Puts the target's head on `res` before `transformResponse` runs, as http-proxy-middleware's
 * response interceptor does, so the transform sees it there and what it sets or removes wins;
 * the headers that framed the original body stay off (they are on `proxyRes.headers`).
 * Returns `undefined` after answering 502 when Node refuses a header value.
 *
 * @example
 * const head = copyTargetHead(req, res, { statusCode: 200, headers }, route, rewriteLocation, logger)
 */
export function copyTargetHead(
  req: ProxyRequest,
  res: ProxyResponse,
  /** The target's status and headers, after the `proxyRes` hooks. */
  upstream: IncomingProxyResponse,
  route: ResolvedForwardRoute,
  rewriteLocation: LocationRewriter | undefined,
  logger: Logger,
): CopiedHead | undefined {
  const copied = buildClientHeaders(upstream.headers, route, {
    http2: req.httpVersionMajor === 2,
    rewriteLocation,
    request: req,
  })
  // The framing of the original body never goes on `res`: the transform gets the body decoded,
  // and one that answers by itself must not inherit the target's Content-Length.
  for (const name of BODY_FRAMING_HEADERS) {
    if (copied[name] !== undefined) copied[name] = undefined
  }
  const before: IncomingHttpHeaders = {}
  for (const name in upstream.headers) before[name] = upstream.headers[name]
  const head = { copied, before, status: upstream.statusCode }
  try {
    for (const name in copied) {
      const value = copied[name]
      if (value !== undefined) res.setHeader(name, value)
    }
  } catch (error) {
    clearCopiedHead(res, head)
    answerInvalidHeader(req, res, route.target, error, logger)
    return undefined
  }
  res.statusCode = upstream.statusCode
  return head
}

/**
 * Takes the target's headers back off `res` when the transformed answer will not be sent (the
 * transform threw, the body was too large), so the error answer carries none of them (a
 * `Content-Encoding: gzip` on a plain-text 500 would break it in the browser).
 */
export function clearCopiedHead(res: ProxyResponse, head: CopiedHead): void {
  if (res.headersSent) return
  for (const name in head.copied) res.removeHeader(name)
}

/**
 * Sends the transformed answer: the head on `res` with the transform's changes (made on `res`,
 * or on `proxyRes.headers` and `proxyRes.statusCode` as before), the framing headers of the
 * original body dropped and the length computed for the new one; a JSON type for an object the
 * transform returned unless it chose a type itself.
 *
 * @example
 * sendTransformedAnswer(req, res, head, proxyRes, { body, json: false }, route.target, logger)
 */
export function sendTransformedAnswer(
  req: ProxyRequest,
  res: ProxyResponse,
  head: CopiedHead,
  proxyRes: IncomingProxyResponse,
  answer: { readonly body: Buffer; readonly json: boolean },
  target: URL,
  logger: Logger,
): void {
  if (res.headersSent || res.writableEnded) {
    // The transform answered the request itself: its answer stands.
    logger.debug(`${req.method} ${req.url}: transformResponse answered the request itself`)
    return
  }
  const { before } = head
  const after = proxyRes.headers
  for (const name in after) {
    const value = after[name]
    if (value === before[name]) continue
    if (value === undefined) res.removeHeader(name)
    else res.setHeader(name, value)
  }
  for (const name in before) {
    if (after[name] === undefined && before[name] !== undefined) res.removeHeader(name)
  }
  if (answer.json && res.getHeader('content-type') === head.copied['content-type']) {
    res.setHeader('content-type', 'application/json; charset=utf-8')
  }
  for (const name of BODY_FRAMING_HEADERS) res.removeHeader(name)
  // Last: Node re-encodes a Content-Disposition written after Content-Length (see buildClientHeaders).
  res.setHeader('content-length', answer.body.byteLength)
  const status = proxyRes.statusCode !== head.status ? proxyRes.statusCode : res.statusCode
  if (!writeUpstreamHead(req, res, status, {}, target, logger, true)) return
  res.end(answer.body)
}
