/*
 * What the inspector, the HAR and the files of the stand-ins (recordings, mocks written from an
 * exchange) never show: credentials. Header values of these names, cookie values, and query
 * values whose name looks like a secret are replaced by MASK before anything leaves the server;
 * the inspector's record itself keeps the originals, for replay only. It sits at the bottom
 * because inspector/ and stand-ins/ both mask by these rules.
 */

/** What a masked value reads as. */
export const MASK = '[masked]'

/** Headers whose whole value is a credential (the auth scheme is kept: `Bearer [masked]`). */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization'])

/** Other header names that carry secrets by convention (`x-api-key`, `x-auth-token`, `x-csrf-token`...). */
const SECRET_HEADER = /(^|-)(token|secret|password|api-?key|auth|session|csrf|xsrf|signature)($|-)/i

/** Query parameter names whose values are secrets (`?token=`, `access_token`, `api_key`, `sig`...). */
const SECRET_PARAM =
  /(^|[-_.])(token|access[-_]?token|id[-_]?token|refresh[-_]?token|key|api[-_]?key|apikey|secret|password|passwd|pwd|auth|session|sessionid|signature|sig|code|jwt|credential)s?$/i

/** `name=value; name2=value2` with every value masked, names kept. */
function maskCookieList(value: string): string {
  return value
    .split(';')
    .map((pair) => {
      const equals = pair.indexOf('=')
      return equals < 0 ? pair : `${pair.slice(0, equals)}=${MASK}`
    })
    .join(';')
}

/** `name=value; Path=/; HttpOnly` with the value masked, the attributes kept (they explain why a cookie was dropped). */
function maskSetCookie(value: string): string {
  const semicolon = value.indexOf(';')
  const first = semicolon < 0 ? value : value.slice(0, semicolon)
  const equals = first.indexOf('=')
  const masked = equals < 0 ? MASK : `${first.slice(0, equals)}=${MASK}`
  return semicolon < 0 ? masked : `${masked}${value.slice(semicolon)}`
}

/**
 * One header value as the inspector shows it.
 *
 * @example
 * maskHeaderValue('authorization', 'Bearer abc') // 'Bearer [masked]'
 * maskHeaderValue('cookie', 'sid=1; theme=dark') // 'sid=[masked]; theme=[masked]'
 */
export function maskHeaderValue(name: string, value: string): string {
  const lower = name.toLowerCase()
  if (CREDENTIAL_HEADERS.has(lower)) {
    const space = value.indexOf(' ')
    return space > 0 ? `${value.slice(0, space)} ${MASK}` : MASK
  }
  if (lower === 'cookie') return maskCookieList(value)
  if (lower === 'set-cookie') return maskSetCookie(value)
  // Access-Control-* and Sec-WebSocket-* name headers or carry public values: never masked.
  if (lower.startsWith('access-control-') || lower.startsWith('sec-')) return value
  return SECRET_HEADER.test(lower) ? MASK : value
}

/**
 * Flat header lines (`[name, value, name, value…]`, as `rawHeaders`) as masked pairs.
 *
 * @example
 * maskHeaderLines(['Authorization', 'Basic eA==']) // [['authorization', 'Basic [masked]']]
 */
export function maskHeaderLines(lines: readonly string[]): [string, string][] {
  const pairs: [string, string][] = []
  for (let index = 0; index + 1 < lines.length; index += 2) {
    const name = (lines[index] as string).toLowerCase()
    pairs.push([name, maskHeaderValue(name, lines[index + 1] as string)])
  }
  return pairs
}

/** Whether a query parameter's value is masked. */
export function isSecretParam(name: string): boolean {
  return SECRET_PARAM.test(name)
}

/**
 * A URL or path with the values of secret-looking query parameters masked; the rest unchanged.
 *
 * @example
 * maskUrl('/api/items?token=abc&page=2') // '/api/items?token=[masked]&page=2'
 */
export function maskUrl(url: string): string {
  const question = url.indexOf('?')
  if (question < 0) return url
  const hash = url.indexOf('#', question)
  const query = url.slice(question + 1, hash < 0 ? undefined : hash)
  const masked = query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=')
      if (equals < 0) return pair
      let name = pair.slice(0, equals)
      try {
        name = decodeURIComponent(name.replaceAll('+', ' '))
      } catch {
        // A malformed escape: judged as written.
      }
      return isSecretParam(name) ? `${pair.slice(0, equals)}=${MASK}` : pair
    })
    .join('&')
  return `${url.slice(0, question + 1)}${masked}${hash < 0 ? '' : url.slice(hash)}`
}

/**
 * Text with the secret-looking query values of every URL in it masked (`?token=abc` →
 * `?token=[masked]`), for free text such as an explanation, where URLs sit inside messages.
 *
 * @example
 * maskUrlsIn("Access to fetch at 'http://api.test/x?token=abc' from origin…") // "…/x?token=[masked]' from origin…"
 */
export function maskUrlsIn(text: string): string {
  return text.replace(/([?&])([^=&?#\s'"]+)=([^&#\s'"]*)/g, (pair, separator: string, name: string) => {
    let decoded = name
    try {
      decoded = decodeURIComponent(name.replaceAll('+', ' '))
    } catch {
      // A malformed escape: judged as written.
    }
    return isSecretParam(decoded) ? `${separator}${name}=${MASK}` : pair
  })
}

/**
 * Field names of a body whose values are credentials: any name containing `password`,
 * `passwd` or `secret`, or ending in `token`, `apikey`, `privatekey`, `jwt`, `credential(s)` or
 * `authorization`, compared without case, `-`, `_` or `.` (`accessToken`, `refresh_token`,
 * `client-secret`, `newPassword`). Stricter than the query rule: in a body, `code` or `key` is
 * usually an error code or a name.
 *
 * @example
 * isSecretField('newPassword') // true
 * isSecretField('code') // false
 */
export function isSecretField(name: string): boolean {
  const flat = name.toLowerCase().replace(/[-_.]/g, '')
  return (
    /passw(or)?d|secret/.test(flat) || /(token|apikey|privatekey|jwt|credentials?|authorization)$/.test(flat)
  )
}

/** A JSON value with the values of secret fields masked, at any depth; `found` says whether there were any. */
function maskJsonValue(value: unknown, found: { masked: boolean }): unknown {
  if (Array.isArray(value)) return value.map((inner) => maskJsonValue(inner, found))
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [name, inner] of Object.entries(value)) {
    if (isSecretField(name) && inner !== null && typeof inner !== 'object') {
      out[name] = MASK
      found.masked = true
    } else out[name] = maskJsonValue(inner, found)
  }
  return out
}

/** `"password": "…"` pairs in JSON text that does not parse (a body cut at the size limit). */
const JSON_STRING_FIELD = /("([^"\\]*)"\s*:\s*)"(?:[^"\\]|\\.)*("?)/g

/**
 * A request or response body as the inspector and the HAR show it: the values of credential
 * fields (`password`, `token`, `client_secret`…) masked in JSON and in form-encoded bodies, as
 * query values are. Other bodies are shown as they are.
 *
 * @example
 * maskBody('{"user":"ada","password":"hunter2"}', 'application/json') // '{"user":"ada","password":"[masked]"}'
 * maskBody('user=ada&password=hunter2', 'application/x-www-form-urlencoded') // 'user=ada&password=%5Bmasked%5D'
 */
export function maskBody(text: string, contentType: string | undefined): string {
  const type = (contentType ?? '').toLowerCase()
  if (type.includes('application/x-www-form-urlencoded')) {
    const params = new URLSearchParams(text)
    let masked = false
    for (const name of new Set(params.keys())) {
      if (isSecretField(name) || isSecretParam(name)) {
        params.set(name, MASK)
        masked = true
      }
    }
    return masked ? params.toString() : text
  }
  const trimmed = text.trimStart()
  if (!type.includes('json') && !trimmed.startsWith('{') && !trimmed.startsWith('[')) return text
  try {
    const parsed: unknown = JSON.parse(text)
    if (parsed === null || typeof parsed !== 'object') return text
    const found = { masked: false }
    const masked = maskJsonValue(parsed, found)
    // Shown as it came unless something was masked (its spacing tells the developer something).
    return found.masked ? JSON.stringify(masked) : text
  } catch {
    return text.replace(JSON_STRING_FIELD, (whole, head: string, name: string, close: string) =>
      isSecretField(name) ? `${head}"${MASK}${close === '' ? '' : '"'}` : whole,
    )
  }
}
