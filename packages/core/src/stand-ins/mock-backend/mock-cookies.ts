import type { ProxyRequest } from '../../http/proxy-types.js'
import { isEncrypted } from '../../http/request-origin.js'
import { type MockResponse, sendJson } from './mock-http.js'

// RFC 6265 §4.1.1: a cookie name is a token, a value is cookie-octets, optionally quoted.
const COOKIE_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
const COOKIE_VALUE =
  /^(?:[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*|"[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*")$/

/**
 * Parses a `Cookie` request header into name → value (the first of repeated names wins, as
 * browsers order them). Several lines (HTTP/2 may split the header) are read as one, `; `-joined.
 */
export function parseCookieHeader(header: string | readonly string[] | undefined): Record<string, string> {
  const cookies: Record<string, string> = {}
  const text = typeof header === 'object' ? header.join('; ') : header
  if (!text) return cookies
  for (const pair of text.split(';')) {
    const eq = pair.indexOf('=')
    if (eq <= 0) continue
    const name = pair.slice(0, eq).trim()
    if (name === '' || Object.hasOwn(cookies, name)) continue
    cookies[name] = pair.slice(eq + 1).trim()
  }
  return cookies
}

/** A host name for `?domain=`: letters, digits, dots and hyphens, as RFC 6265 §4.1.1's `domain-av` allows. */
const COOKIE_DOMAIN = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/

/**
 * Attributes of a cookie set by the mock. A cross-site request carries a cookie only when it
 * is `SameSite=None`, which browsers accept only with `Secure`, so over https the cookie is
 * `SameSite=None; Secure`; over http it is `SameSite=Lax`, which still travels to another
 * port of the same host (same site, RFC 6265bis §5.2).
 */
function cookieAttributes(secure: boolean): string {
  return secure ? 'Path=/; HttpOnly; SameSite=None; Secure' : 'Path=/; HttpOnly; SameSite=Lax'
}

/**
 * `/cookie`: `?set=name=value` (repeatable) sets cookies, `?clear=name` removes one, and the
 * answer lists the cookies the request carried, updated by what it set. `?domain=api.example`
 * adds that `Domain` attribute to each, as a backend on another host would send it (what a
 * proxy's cookie rewrite removes). A name, value or domain that is not valid cookie syntax is
 * answered 400 rather than written into a header.
 *
 * @example
 * await fetch('http://127.0.0.1:4000/cookie?set=session=abc', { credentials: 'include' })
 * await fetch('http://127.0.0.1:4000/cookie', { credentials: 'include' }) // { cookies: { session: 'abc' } }
 */
export function answerCookieRequest(req: ProxyRequest, res: MockResponse, url: URL, status?: number): void {
  const cookies = parseCookieHeader(req.headers.cookie)
  const domain = url.searchParams.get('domain')
  if (domain !== null && !COOKIE_DOMAIN.test(domain)) {
    sendJson(res, 400, { error: 'domain must be a host name', example: '/cookie?set=a=1&domain=api.example' })
    return
  }
  const attributes =
    domain === null
      ? cookieAttributes(isEncrypted(req))
      : `Domain=${domain}; ${cookieAttributes(isEncrypted(req))}`
  const setCookie: string[] = []
  for (const pair of url.searchParams.getAll('set')) {
    const eq = pair.indexOf('=')
    const name = eq < 0 ? pair : pair.slice(0, eq)
    const value = eq < 0 ? '' : pair.slice(eq + 1)
    if (!COOKIE_NAME.test(name) || !COOKIE_VALUE.test(value)) {
      sendJson(res, 400, {
        error:
          'set must be name=value with a token name and a value without spaces, quotes, commas or semicolons',
        example: '/cookie?set=session=abc123',
      })
      return
    }
    setCookie.push(`${name}=${value}; ${attributes}`)
    cookies[name] = value
  }
  for (const name of url.searchParams.getAll('clear')) {
    if (!COOKIE_NAME.test(name)) {
      sendJson(res, 400, { error: 'clear must be a cookie name', example: '/cookie?clear=session' })
      return
    }
    setCookie.push(`${name}=; Max-Age=0; ${attributes}`)
    delete cookies[name]
  }
  if (setCookie.length > 0) res.setHeader('set-cookie', setCookie)
  sendJson(res, status ?? 200, { cookies })
}
