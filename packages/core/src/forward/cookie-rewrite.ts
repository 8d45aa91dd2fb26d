import type { CookieRewrite } from '../config/options.js'
import type { ResolvedForwardRoute } from '../config/resolved-route.js'

/*
 * Attribute matchers, built once. Like http-proxy's `rewriteCookieProperty`, an attribute is
 * `; name=value` with a case-insensitive name. Three deliberate differences:
 * - every occurrence is rewritten (flag `g`), not only the first: RFC 6265 section 5.3 lets
 *   the *last* Domain/Path attribute win, so removing only the first one would leave the
 *   upstream's domain in force;
 * - spaces around `=` are accepted, as RFC 6265 section 5.2 trims name and value;
 * - the map lookup uses the trimmed value and own keys only (`'constructor'` is not a domain).
 */
const DOMAIN_ATTRIBUTE = /(;\s*domain\s*=)([^;]*)/gi
const PATH_ATTRIBUTE = /(;\s*path\s*=)([^;]*)/gi

function rewriteAttribute(setCookie: string, attribute: RegExp, config: CookieRewrite): string {
  if (config === false) return setCookie
  return setCookie.replace(attribute, (match, prefix: string, rawValue: string) => {
    const value = rawValue.trim()
    let replacement: string
    if (typeof config === 'string') replacement = config
    else if (Object.hasOwn(config, value)) replacement = config[value] as string
    else if (Object.hasOwn(config, '*')) replacement = config['*'] as string
    else return match
    // An empty attribute value is ignored by the browser (RFC 6265 section 5.2.3); do not
    // turn it into a real one through a '*' mapping.
    if (value === '' && replacement !== '') return match
    return replacement === '' ? '' : prefix + replacement
  })
}

/**
 * Rewrites the Domain and Path attributes of one `Set-Cookie` header value with the route's
 * `cookieDomainRewrite` / `cookiePathRewrite`, with http-proxy / http-proxy-middleware
 * semantics: `false` keeps the attribute, a string replaces its value (`''` removes the
 * attribute), an object maps old value → new value with `'*'` for any other value (again
 * `''` removes it). By default (`cookieDomainRewrite: ''`) the Domain is removed, so the
 * browser stores the cookie as a host-only cookie of the dev server (RFC 6265 section 5.3
 * step 6), where the page can send it back through the proxy.
 *
 * Called per Set-Cookie line at request time; it never throws.
 *
 * @example
 * rewriteSetCookie('sid=1; Domain=api.example.com; Path=/; HttpOnly', route) // 'sid=1; Path=/; HttpOnly'
 */
export function rewriteSetCookie(setCookie: string, route: ResolvedForwardRoute): string {
  const withDomain = rewriteAttribute(setCookie, DOMAIN_ATTRIBUTE, route.cookieDomainRewrite)
  return rewriteAttribute(withDomain, PATH_ATTRIBUTE, route.cookiePathRewrite)
}
