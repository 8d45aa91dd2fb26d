/**
 * Headers in any of the shapes callers have at hand: a plain object (Node's
 * `IncomingHttpHeaders` or `OutgoingHttpHeaders`, or a `fetch` init object), or a list of
 * `[name, value]` entries (a `Headers` instance, `Object.entries(...)`, raw pairs). An array
 * value, or a name repeated in a list, stands for several header lines.
 */
export type HeadersInput =
  | Readonly<Record<string, string | number | readonly string[] | undefined>>
  | Iterable<readonly [string, string]>

/** One header line, name lowercased, value as given. */
export type HeaderEntry = readonly [name: string, value: string]

function isIterable(value: HeadersInput): value is Iterable<readonly [string, string]> {
  return typeof (value as Partial<Iterable<unknown>>)[Symbol.iterator] === 'function'
}

/**
 * Flattens headers into lines with lowercased names, keeping their order (the order of a
 * fetch request's header list matters for nothing the browser checks, but it keeps
 * diagnostics stable).
 */
export function headerEntries(headers: HeadersInput | undefined): HeaderEntry[] {
  const entries: HeaderEntry[] = []
  if (headers === undefined) return entries
  if (isIterable(headers)) {
    for (const [name, value] of headers) entries.push([name.toLowerCase(), String(value)])
    return entries
  }
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    const lower = name.toLowerCase()
    if (Array.isArray(value)) {
      for (const item of value as readonly string[]) entries.push([lower, String(item)])
    } else {
      entries.push([lower, String(value)])
    }
  }
  return entries
}

/** HTTP whitespace (Fetch standard §2.2): tab, line feed, carriage return, space. */
const HTTP_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g

/** Removes leading and trailing HTTP whitespace, as the Fetch standard's "normalize" does. */
export function trimHttpWhitespace(value: string): string {
  return value.replace(HTTP_WHITESPACE, '')
}

/**
 * The value of a header as a client reads it: every line with that name, trimmed, joined by
 * `, ` (Fetch standard §2.2.2 "get"), or `undefined` when absent.
 */
export function getHeader(headers: HeadersInput | undefined, name: string): string | undefined {
  const lower = name.toLowerCase()
  let result: string | undefined
  for (const [entryName, value] of headerEntries(headers)) {
    if (entryName !== lower) continue
    const trimmed = trimHttpWhitespace(value)
    result = result === undefined ? trimmed : `${result}, ${trimmed}`
  }
  return result
}
