import type { OutgoingHttpHeader } from 'node:http'
import { CALLBACK_NAME_RULE, isValidCallbackName } from '../config/callback-name.js'
import { JSONP_DEFAULTS } from '../config/defaults.js'
import { sendText } from '../http/send-text.js'

/**
 * The part of a response the JSONP answers use; `http.ServerResponse` and
 * `http2.Http2ServerResponse` both fit it.
 */
export interface JsonpResponse {
  statusCode: number
  readonly headersSent: boolean
  readonly writableEnded: boolean
  setHeader(name: string, value: OutgoingHttpHeader): unknown
  end(): unknown
  end(chunk: string): unknown
}

/** `Content-Type` of a JSONP answer: it is a script. */
export const JSONP_CONTENT_TYPE = 'application/javascript; charset=utf-8'

/**
 * The script of a JSONP answer: `/**\/ typeof cb === 'function' && cb(<json>);`.
 * The leading comment defuses a Flash-era content-sniffing attack (Rosetta Flash) and the
 * `typeof` guard keeps a late answer (after the client gave up and removed its global) from
 * throwing. U+2028 and U+2029 are valid in JSON but were line terminators in JavaScript
 * before ES2019, so they are escaped. `callback` must already be valid (see `isValidCallbackName`).
 *
 * @example
 * jsonpBody('cb', '{"a":1}') // "/**\/ typeof cb === 'function' && cb({\"a\":1});"
 */
export function jsonpBody(callback: string, json: string): string {
  const safe = json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')
  return `/**/ typeof ${callback} === 'function' && ${callback}(${safe});`
}

/** Every JSONP answer, the errors included, is read as what its Content-Type says, never sniffed. */
const NOSNIFF = [['x-content-type-options', 'nosniff']] as const

function send(res: JsonpResponse, status: number, contentType: string, body: string): void {
  sendText(res, status, contentType, body, NOSNIFF)
}

/**
 * Answers 400 with a JSON error naming the parameter and the rule. The rejected name is never
 * echoed: reflecting it is what makes JSONP endpoints injectable.
 */
export function sendJsonpCallbackError(res: JsonpResponse, param = JSONP_DEFAULTS.param): void {
  const body = {
    error: `invalid JSONP callback: the \`${param}\` query parameter must be ${CALLBACK_NAME_RULE}`,
    param,
    example: `?${param}=handleData`,
  }
  send(res, 400, 'application/json; charset=utf-8', `${JSON.stringify(body)}\n`)
}

/** Answers 405 with `Allow: GET`: JSONP is loaded by a `<script>` element, which only GETs. */
export function sendJsonpMethodNotAllowed(res: JsonpResponse, param = JSONP_DEFAULTS.param): void {
  if (!res.headersSent && !res.writableEnded) res.setHeader('allow', 'GET')
  const body = {
    error: `JSONP answers GET requests only (this request carries the \`${param}\` parameter)`,
    param,
  }
  send(res, 405, 'application/json; charset=utf-8', `${JSON.stringify(body)}\n`)
}

/**
 * Answers with `value` as JSONP: `Content-Type: application/javascript; charset=utf-8`,
 * `X-Content-Type-Options: nosniff`. An invalid callback name is answered 400 instead (see
 * {@link sendJsonpCallbackError}); `undefined` is sent as `null`. A `status` of 204, 205 or
 * 304 is sent without content, as HTTP requires.
 *
 * @example
 * sendJsonp(res, 'handleData', { users: [] })
 */
export function sendJsonp(
  res: JsonpResponse,
  callback: string,
  value: unknown,
  options: { readonly status?: number; readonly param?: string } = {},
): void {
  if (!isValidCallbackName(callback)) {
    sendJsonpCallbackError(res, options.param)
    return
  }
  let json: string
  try {
    json = JSON.stringify(value) ?? 'null'
  } catch {
    // A cycle or a BigInt: say so rather than throw while answering.
    send(
      res,
      500,
      'application/json; charset=utf-8',
      '{"error":"the JSONP value cannot be serialized as JSON"}\n',
    )
    return
  }
  send(res, options.status ?? 200, JSONP_CONTENT_TYPE, jsonpBody(callback, json))
}
