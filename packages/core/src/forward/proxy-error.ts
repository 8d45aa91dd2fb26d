import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import { abortResponse, isResponseClosed } from './response-state.js'

/** Why a request could not be forwarded, in words a developer can act on. */
export interface UpstreamFailure {
  /**
   * 502 when the target could not be reached or answered garbage, 504 when it did not answer in
   * time; 400 when a hook refused the request itself (`proxyReq.destroy(error)`, see `HookFailure`).
   */
  status: 400 | 502 | 504
  /** Short cause, e.g. `connection refused`; stable per kind of failure (part of the log key). */
  cause: string
  /** What to check or change, e.g. `is the server at http://127.0.0.1:3000 running?`. */
  hint: string
  /** The underlying error code (`ECONNREFUSED`, `UND_ERR_HEADERS_TIMEOUT`, `HPE_INVALID_CONSTANT`...). */
  code: string | undefined
}

/** What the description of a failure needs to know about the route. */
export interface FailureContext {
  /** The target as shown to the user: origin and base path, e.g. `http://127.0.0.1:3000/v1`. */
  label: string
  /** The target's URL. */
  target: URL
  /** The route's header timeout in milliseconds; `undefined`: it has none (the default). */
  timeout: number | undefined
}

/** The target as users wrote it: the origin plus the base path, without a trailing `/`. */
export function targetLabel(target: URL): string {
  return target.pathname === '/' ? target.origin : `${target.origin}${target.pathname.replace(/\/$/, '')}`
}

/**
 * The code of an error or of what caused it. Node's happy-eyeballs connect (`localhost` tried on
 * `::1` and `127.0.0.1`) fails with an AggregateError whose members carry the code.
 */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as Error & { code?: unknown }).code
    if (typeof code === 'string') return code
    current =
      current instanceof AggregateError && current.errors.length > 0 ? current.errors[0] : current.cause
  }
  return undefined
}

/** OpenSSL verification codes of a certificate the client does not trust. */
const UNTRUSTED_CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
])

function tlsFailure(
  code: string,
  context: FailureContext,
): Omit<UpstreamFailure, 'status' | 'code'> | undefined {
  const { label, target } = context
  if (UNTRUSTED_CERTIFICATE.has(code)) {
    return {
      cause: `TLS certificate not trusted (${code})`,
      hint: `the server at ${label} uses a self-signed or unknown certificate: set \`secure: false\` on the route to accept it`,
    }
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return {
      cause: 'TLS certificate is for another host name',
      hint: `the certificate of ${label} does not name ${target.hostname}: use the name it was issued for, or set \`secure: false\``,
    }
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return {
      cause: `TLS certificate not valid now (${code})`,
      hint: `renew the certificate of ${label}, or set \`secure: false\``,
    }
  }
  if (code.startsWith('ERR_SSL_') || code === 'EPROTO' || code.startsWith('ERR_TLS_')) {
    return {
      cause: `TLS handshake failed (${code})`,
      hint: `does the server at ${label} speak HTTPS? For a plain HTTP server use http:// in the target`,
    }
  }
  return undefined
}

/** An upstream failure's status, cause and hint. */
function failure(status: 502 | 504, cause: string, hint: string, code: string | undefined): UpstreamFailure {
  return { status, cause, hint, code }
}

/** The failure of an error code the network or undici gives, or `undefined` for any other code. */
function codeFailure(code: string | undefined, context: FailureContext): UpstreamFailure | undefined {
  const { label, target } = context
  switch (code) {
    case 'ERR_TOO_MANY_REDIRECTS':
      return failure(
        502,
        'too many redirects',
        `the server at ${label} redirected more than followRedirects allows (a browser stops at 20): check for a redirect loop`,
        code,
      )
    case 'ECONNREFUSED':
      return failure(502, 'connection refused', `is the server at ${label} running?`, code)
    case 'ENOTFOUND':
      return failure(
        502,
        'host not found',
        `check the host name "${target.hostname}" in the route's target`,
        code,
      )
    case 'EAI_AGAIN':
      return failure(
        502,
        'DNS lookup failed',
        `no answer for "${target.hostname}" from the name server: check the network, or use an IP address in the target`,
        code,
      )
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return failure(502, 'host unreachable', `is ${target.hostname} reachable from this machine?`, code)
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return failure(
        502,
        'connection closed by the server',
        `the server at ${label} closed the connection: check its log`,
        code,
      )
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return failure(
        504,
        'connect timeout',
        `the server at ${label} did not accept the connection: is the host up?`,
        code,
      )
    case 'UND_ERR_HEADERS_TIMEOUT':
      // Only the route's own timer gives this code (undici's timers are off): a route without
      // `timeout` never meets it, and would get the general description rather than a number.
      if (context.timeout === undefined) break
      return failure(
        504,
        `no response within ${context.timeout} ms`,
        `the server at ${label} is slow or stuck: raise the route's \`timeout\` if it needs longer`,
        code,
      )
    case 'UND_ERR_HEADERS_OVERFLOW':
      return failure(
        502,
        'response headers too large',
        `the server at ${label} sent more header bytes than allowed`,
        code,
      )
    case 'UND_ERR_DESTROYED':
    case 'UND_ERR_CLOSED':
      return failure(502, 'proxy closed', 'the dev server is shutting down', code)
  }
  return undefined
}

/**
 * Maps an upstream error to a status, a cause and a hint. Statuses follow RFC 9110: 502 when
 * the target is unreachable or its answer unusable (section 15.6.3), 504 only when it did not
 * answer in time (section 15.6.5); http-proxy-middleware answers a refused connection 504.
 *
 * @example
 * describeUpstreamError(Object.assign(new Error(), { code: 'ECONNREFUSED' }), context)
 * // { status: 502, cause: 'connection refused', hint: 'is the server at http://127.0.0.1:3000 running?', code: 'ECONNREFUSED' }
 */
export function describeUpstreamError(error: unknown, context: FailureContext): UpstreamFailure {
  const code = errorCode(error)
  const { label, target } = context
  // undici 7 destroys the connection on a `100 Continue` nobody asked for (the proxy never sends
  // `Expect: 100-continue`), before any handler sees the final answer; 'bad response' is the
  // message of that case only (bytes on an idle connection fail no request).
  if (code === 'UND_ERR_SOCKET' && error instanceof Error && error.message === 'bad response') {
    return failure(
      502,
      'unexpected 100 Continue',
      `the server at ${label} sent an interim "100 Continue" the request did not ask for, which the proxy's HTTP client (undici) cannot read past: make the server send only its final answer`,
      code,
    )
  }
  const known = codeFailure(code, context)
  if (known !== undefined) return known
  // undici's HTTPParserError carries no code when llhttp reports none (bytes that are not HTTP at all).
  const parserError = error instanceof Error && error.name === 'HTTPParserError'
  if (parserError || code?.startsWith('HPE_') || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
    const scheme =
      target.protocol === 'http:' || target.protocol === 'ws:' ? ' (an HTTPS server needs https://)' : ''
    return failure(
      502,
      'malformed response',
      `the server at ${label} did not answer valid HTTP/1.1${scheme}`,
      code,
    )
  }
  const tls = code === undefined ? undefined : tlsFailure(code, context)
  if (tls) return failure(502, tls.cause, tls.hint, code)
  const detail = code ?? (error instanceof Error ? error.message : String(error))
  return failure(
    502,
    `proxy error (${detail})`,
    `check that the server at ${label} is an HTTP server and works`,
    code,
  )
}

const STATUS_TEXT: Readonly<Record<UpstreamFailure['status'], string>> = {
  400: 'Bad Request',
  502: 'Bad Gateway',
  504: 'Gateway Timeout',
}

/** Whether the client reads JSON (`fetch` with `Accept: application/json`, API clients). */
function wantsJson(accept: string | undefined): boolean {
  return accept?.includes('application/json') === true
}

/**
 * The body of an error answer: one line of text (`connection refused: is the server at ...
 * running?`), or `{ error, target, cause, hint }` as JSON when `Accept` asks for JSON.
 */
export function errorBody(
  failure: UpstreamFailure,
  label: string,
  accept: string | undefined,
): { contentType: string; body: string } {
  if (wantsJson(accept)) {
    const body = JSON.stringify({
      error: STATUS_TEXT[failure.status],
      target: label,
      cause: failure.cause,
      hint: failure.hint,
    })
    return { contentType: 'application/json; charset=utf-8', body }
  }
  return { contentType: 'text/plain; charset=utf-8', body: `${failure.cause}: ${failure.hint}\n` }
}

/**
 * Answers a request whose forwarding failed, never throwing: the status and a short body (see
 * {@link errorBody}). When the response has already started, a status can no longer be sent;
 * the response is destroyed instead, so the client sees a broken response rather than a
 * truncated one it would take for complete.
 */
export function sendUpstreamFailure(
  req: ProxyRequest,
  res: ProxyResponse,
  failure: UpstreamFailure,
  label: string,
): void {
  if (res.headersSent) {
    abortResponse(res)
    return
  }
  if (isResponseClosed(res)) return
  const { contentType, body } = errorBody(failure, label, req.headers.accept)
  try {
    res.statusCode = failure.status
    res.setHeader('content-type', contentType)
    res.setHeader('content-length', Buffer.byteLength(body))
    res.setHeader('cache-control', 'no-store')
    res.end(body)
  } catch {
    // A header set earlier that Node will not send (HTTP/2 checks them only now): no answer is possible.
    abortResponse(res)
  }
}
