import { Agent, request } from 'undici'
import type { HeadersInput } from '../http/header-list.js'
import { isSameOrigin } from '../http/parse-origin.js'
import type { CorsInitiator } from './chromium-messages.js'
import { classifyRequest, combinedHeaders } from './classify-request.js'
import type { CorsResponseInput, CorsVerdict } from './evaluate-cors.js'
import { evaluateCors } from './evaluate-cors.js'
import { isForbiddenMethod } from './request-header-rules.js'

/** The call to check: what a page's script would pass to `fetch`, plus the page's origin. */
export interface CheckCorsRequest {
  /** The URL the page calls. */
  url: string
  /** The page's origin, e.g. `http://localhost:5173`. */
  origin: string
  /**
   * The method as the script writes it (`patch` stays lowercase, as in the browser).
   * @default 'GET'
   */
  method?: string
  /** Headers the script sets; several values of one name are sent combined (`a, b`), as the browser does. */
  headers?: HeadersInput
  /**
   * `credentials: 'include'`.
   * @default false
   */
  credentials?: boolean
  /** A request body (sent with the actual request only). */
  body?: string
  /**
   * What the script calls; only the wording of the verdict depends on it.
   * @default 'fetch'
   */
  initiator?: CorsInitiator
}

/** Options of {@link checkCors}. */
export interface CheckCorsOptions {
  /**
   * Milliseconds to wait for each answer.
   * @default 10000
   */
  timeout?: number
  /**
   * Verify the server's TLS certificate.
   * @default true
   */
  secure?: boolean
}

/** What the browser would decide, with the answers it was decided on. */
export interface CheckCorsResult extends CorsVerdict {
  /** The preflight's answer, when one was sent. */
  preflightResponse?: CorsResponseInput
  /** The actual response, when the request got that far. */
  response?: CorsResponseInput
  /** Set when the server could not be reached (the browser reports `TypeError: Failed to fetch`). */
  networkError?: string
}

/**
 * Sends the requests a browser would send for a cross-origin call (the preflight first when one
 * is needed, then the request itself only if the preflight passed) and predicts the browser's
 * verdict in Chromium's words. This is `cors-dev-proxy check`; the playground uses it too.
 *
 * @example
 * const verdict = await checkCors({ url: 'http://localhost:3000/users', origin: 'http://localhost:5173', method: 'PUT', headers: { 'content-type': 'application/json' } })
 * if (!verdict.allowed) console.log(verdict.message, verdict.fix)
 */
export async function checkCors(
  call: CheckCorsRequest,
  options: CheckCorsOptions = {},
): Promise<CheckCorsResult> {
  const timeout = options.timeout ?? 10_000
  const method = call.method ?? 'GET'
  const credentials = call.credentials ? 'include' : 'same-origin'
  const input = {
    url: call.url,
    origin: call.origin,
    method,
    headers: call.headers,
    credentials,
    initiator: call.initiator,
  } as const
  const classification = classifyRequest(input)
  // A forbidden method makes the browser throw before it sends anything: send nothing either.
  if (isForbiddenMethod(method)) return evaluateCors(input)
  const dispatcher = new Agent({
    headersTimeout: timeout,
    bodyTimeout: timeout,
    connect: { rejectUnauthorized: options.secure ?? true },
  })
  try {
    let preflightResponse: CorsResponseInput | undefined
    // A same-origin request takes the Fetch standard's "basic" path (main fetch): no preflight, no CORS check.
    if (classification.kind === 'preflight' && !isSameOrigin(call.url, call.origin)) {
      // The preflight carries no credentials and none of the script's headers (Fetch §4.8).
      const preflightHeaders: Record<string, string> = {
        origin: call.origin,
        'access-control-request-method': classification.method,
        accept: '*/*',
      }
      if (classification.unsafeHeaderNames.length > 0) {
        preflightHeaders['access-control-request-headers'] = classification.unsafeHeaderNames.join(',')
      }
      preflightResponse = await send(dispatcher, call.url, 'OPTIONS', preflightHeaders)
      const verdict = evaluateCors(input, preflightResponse)
      if (!verdict.allowed) return { ...verdict, preflightResponse }
    }
    const headers: Record<string, string> = { origin: call.origin }
    // One line per name with the combined value, as the browser sends it (not the last value only).
    for (const [name, value] of combinedHeaders(call.headers)) {
      if (!classification.forbiddenHeaderNames.includes(name)) headers[name] = value
    }
    const response = await send(dispatcher, call.url, classification.method, headers, call.body)
    return { ...evaluateCors(input, preflightResponse, response), preflightResponse, response }
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'error'
    return {
      allowed: false,
      preflight: classification.kind === 'preflight',
      reasons: classification.reasons,
      networkError: `${code}: ${(error as Error).message}`,
      message: `Failed to load resource: the server at ${new URL(call.url).origin} could not be reached (${code}); the script sees "TypeError: Failed to fetch".`,
      fix: `start the server at ${new URL(call.url).origin}, or check the URL.`,
    }
  } finally {
    await dispatcher.close()
  }
}

async function send(
  dispatcher: Agent,
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<CorsResponseInput> {
  // No redirects are followed: a preflight never follows one, and for the actual request the
  // verdict is about this server's answer.
  const answer = await request(url, { method, headers, body, dispatcher })
  await answer.body.dump()
  const responseHeaders: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(answer.headers))
    if (value !== undefined) responseHeaders[name] = value
  // Whether this is a redirect is evaluateCors's call: only 301, 302, 303, 307 and 308 with a
  // Location are (checked in Chromium 156: a preflight answered 300 with a Location is "not ok").
  return { status: answer.statusCode, headers: responseHeaders }
}
