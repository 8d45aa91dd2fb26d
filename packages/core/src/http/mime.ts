import { MIMEType } from 'whatwg-mimetype'

/**
 * The essence (`type/subtype`, lowercase) of a MIME type, or `null` when it does not parse.
 * Parsing is the WHATWG MIME Sniffing standard's "parse a MIME type", which the Fetch standard
 * uses for Content-Type (parameters never make it fail; `text/plain, text/plain` does), through
 * the maintained `whatwg-mimetype` implementation: the one MIME parser of the project.
 *
 * @example
 * mimeEssence('Text/Plain; charset=utf-8') // 'text/plain'
 * mimeEssence('text /plain')               // null
 */
export function mimeEssence(value: string | undefined): string | null {
  if (value === undefined) return null
  return MIMEType.parse(value)?.essence ?? null
}

/**
 * Whether a Content-Type is JSON: `application/json`, `text/json`, or any `+json` structured
 * syntax suffix (RFC 6839 section 3.1), parameters ignored.
 *
 * @example
 * isJsonMimeType('application/problem+json; charset=utf-8') // true
 */
export function isJsonMimeType(value: string | undefined): boolean {
  const essence = mimeEssence(value)
  return essence === 'application/json' || essence === 'text/json' || essence?.endsWith('+json') === true
}
