import { HTTP_TOKEN } from '../http/http-token.js'

/**
 * Parses a `#token` list header value (`Access-Control-Allow-Methods`, `-Allow-Headers`,
 * `-Expose-Headers`) as Chromium does (`ParseAccessControlAllowList` in
 * services/network/public/cpp/cors/cors.cc, after `HttpResponseHeaders::GetNormalizedHeader`
 * joined repeated lines with `", "`), the Fetch standard's "extract header list values"
 * (§2.2.2 step 2, then "get, decode, and split"): items split on commas, HTTP whitespace trimmed
 * around each, empty items skipped (so `a,`, `,a`, `a,,b` and an empty repeated line are fine);
 * `null`, the whole list unparsable, as soon as one item is not a token (a quoted string, `a b`,
 * `a;q`, a non-ASCII byte). Each rule measured in Chromium 156 (test/browser/sequence-cases-header-lists.ts).
 *
 * @example
 * parseHeaderListValues(' PUT ,, x-a') // ['PUT', 'x-a']
 * parseHeaderListValues('PUT, "GET"') // null
 */
export function parseHeaderListValues(value: string | undefined): string[] | null {
  if (value === undefined) return []
  const items: string[] = []
  for (const raw of value.split(',')) {
    const item = raw.replace(/^[\t ]+|[\t ]+$/g, '')
    if (item === '') continue
    if (!HTTP_TOKEN.test(item)) return null
    items.push(item)
  }
  return items
}
