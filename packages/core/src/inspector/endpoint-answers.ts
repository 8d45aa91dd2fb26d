import type { ProxyResponse } from '../http/proxy-types.js'
import { sendText } from '../http/send-text.js'
import { INSPECTOR_ANSWER_HEADER } from './inspector-guard.js'

/** The type of the JSON answers under `/__cors-dev-proxy/`. */
export const JSON_TYPE = 'application/json; charset=utf-8'
/** The type of the text answers (refusals, 404s). */
export const TEXT_TYPE = 'text/plain; charset=utf-8'
/** The type of the served scripts. */
export const SCRIPT_TYPE = 'text/javascript; charset=utf-8'

/** Nothing here is cached, nothing here is sniffed, and every answer says it is ours. */
export const COMMON: ReadonlyArray<readonly [string, string]> = [
  ['cache-control', 'no-store'],
  ['x-content-type-options', 'nosniff'],
  [INSPECTOR_ANSWER_HEADER, '1'],
]

/**
 * A JSON answer of the endpoints, with the common headers and any `extra`.
 *
 * @example
 * sendJson(res, 404, { error: 'no exchange 12' })
 */
export function sendJson(
  res: ProxyResponse,
  status: number,
  value: unknown,
  extra: ReadonlyArray<readonly [string, string]> = [],
): void {
  sendText(res, status, JSON_TYPE, `${JSON.stringify(value)}\n`, [...COMMON, ...extra])
}

/**
 * A text answer of the endpoints (a script, a page, a refusal), with the common headers.
 *
 * @example
 * sendOwn(res, 200, SCRIPT_TYPE, scripts.client)
 */
export function sendOwn(
  res: ProxyResponse,
  status: number,
  type: string,
  body: string,
  extra: ReadonlyArray<readonly [string, string]> = [],
): void {
  sendText(res, status, type, body, extra.length === 0 ? COMMON : [...COMMON, ...extra])
}
