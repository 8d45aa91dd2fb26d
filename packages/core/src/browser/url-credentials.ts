import { Buffer } from 'node:buffer'
import { getHeader } from '../http/header-list.js'
import type { BrowserAnswer } from './browser-call.js'

/**
 * The `user:password@` of a URL the browser requests (an XMLHttpRequest follows a same-origin
 * redirect to one). Measured on the server in Chromium 156: the userinfo never goes on the wire
 * by itself (no `Authorization` on the first request); when the answer is a 401 with a `Basic`
 * challenge, Chromium sends the request once more with `Authorization: Basic base64(user:password)`
 * (RFC 7617; the model percent-decodes the two parts first). Chromium then keeps the identity in its HTTP auth
 * cache for that protection space, which the model does not.
 */

/**
 * Whether `answer` to `url` is a challenge the URL's credentials answer: a 401 asking for `Basic`
 * (RFC 9110 §11.6.1 `WWW-Authenticate`; the scheme is case-insensitive) while the URL has a user
 * or a password.
 *
 * @example
 * answersUrlCredentials('http://u:p@127.0.0.1:3000/x', { status: 401, headers: { 'www-authenticate': 'Basic realm="r"' } }) // true
 */
export function answersUrlCredentials(url: string, answer: BrowserAnswer): boolean {
  if (answer.status !== 401) return false
  const parsed = new URL(url)
  if (parsed.username === '' && parsed.password === '') return false
  const challenge = getHeader(answer.headers, 'www-authenticate') ?? ''
  return /(^|,)\s*basic(\s|,|$)/i.test(challenge)
}

/**
 * The request's headers with `Authorization: Basic …` made from the URL's user and password.
 *
 * @example
 * withUrlCredentials([], 'http://user:pass@127.0.0.1:3000/x') // [['authorization', 'Basic dXNlcjpwYXNz']]
 */
export function withUrlCredentials(
  headers: readonly (readonly [string, string])[],
  url: string,
): Array<readonly [string, string]> {
  const parsed = new URL(url)
  const identity = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`
  const value = `Basic ${Buffer.from(identity, 'utf8').toString('base64')}`
  return [...headers.filter(([name]) => name !== 'authorization'), ['authorization', value]]
}
