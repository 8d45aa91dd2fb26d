import { isIP } from 'node:net'
import type { HeadersInput } from '../http/header-list.js'
import { headerEntries } from '../http/header-list.js'

/**
 * The site of a URL, schemeful, as cookies see it: the scheme and the registrable domain,
 * approximated as the last two labels of a name (no public suffix list here: `a.example.co.uk`
 * reads as `co.uk`, which only errs towards "same site"), an IP address or `localhost` as is.
 */
function siteOf(url: URL): string {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const labels = host.split('.')
  const domain = isIP(host) !== 0 || labels.length <= 2 ? host : labels.slice(-2).join('.')
  return `${url.protocol}//${domain}`
}

/**
 * What happens to the cookies a cross-origin answer sets (`Set-Cookie`), in a call from
 * `pageOrigin`: a cookie the browser drops says why (Chromium's rules: `SameSite=None` needs
 * `Secure`; across sites a cookie without `SameSite=None` is neither stored from nor sent to a
 * fetch; a `Secure` cookie needs https; without `credentials: 'include'` nothing is stored at
 * all). Empty when the answer sets no cookie.
 *
 * @example
 * cookieNotes([['set-cookie', 'sid=1; Path=/']], new URL('http://127.0.0.1:3000/login'), 'http://localhost:5173', true)
 * // ["cookie 'sid' is dropped: the call is cross-site (…) and the cookie has no SameSite=None; Secure"]
 */
export function cookieNotes(
  headers: HeadersInput | undefined,
  url: URL,
  pageOrigin: string,
  credentials: boolean,
): string[] {
  const cookies = headerEntries(headers).filter(([name]) => name === 'set-cookie')
  const notes: string[] = []
  const crossSite = siteOf(url) !== siteOf(new URL(pageOrigin))
  for (const [, line] of cookies) {
    const name = line.split(';')[0]?.split('=')[0]?.trim() || '(unnamed)'
    const attributes = line
      .split(';')
      .slice(1)
      .map((part) => part.trim().toLowerCase())
    const sameSite = attributes.find((part) => part.startsWith('samesite='))?.slice('samesite='.length)
    const secure = attributes.includes('secure')
    if (!credentials) {
      notes.push(
        `cookie '${name}' is not stored: the call does not send credentials; use credentials: 'include' (fetch) or withCredentials (XHR), or proxy the route so the cookie is same-origin`,
      )
    } else if (sameSite === 'none' && !secure) {
      notes.push(`cookie '${name}' is rejected: SameSite=None requires Secure (and so https)`)
    } else if (secure && url.protocol !== 'https:' && url.hostname !== 'localhost') {
      notes.push(`cookie '${name}' is rejected: it is Secure and the answer came over http`)
    } else if (crossSite && sameSite !== 'none') {
      notes.push(
        `cookie '${name}' is dropped: the call is cross-site (${siteOf(new URL(pageOrigin))} → ${siteOf(url)}) and the cookie is SameSite=${sameSite ?? 'Lax (the default)'}; send SameSite=None; Secure, or proxy the route so the cookie is same-site`,
      )
    }
  }
  return notes
}
