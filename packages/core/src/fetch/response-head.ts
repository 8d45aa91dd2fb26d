/*
 * The fields of the head the engine wrote, in the shape a `Response` is built from most cheaply.
 */
import type { OutgoingHttpHeader } from 'node:http'
import { HOP_BY_HOP_HEADERS } from '../http/hop-by-hop.js'

/**
 * The head's fields for `new Response(body, { headers })`, without the hop-by-hop ones: a record
 * when each field has one value (a runtime such as @hono/node-server writes a record as it is,
 * with no `Headers` object in between), else pairs, one per value (`Set-Cookie` lines).
 *
 * @example
 * new Response(body, { status: 200, headers: headFields(new Map([['content-type', 'text/plain']])) })
 */
export function headFields(
  headers: ReadonlyMap<string, OutgoingHttpHeader>,
): Record<string, string> | [string, string][] {
  // No prototype: a field named `__proto__` is a field like any other.
  const record: Record<string, string> = Object.create(null)
  let pairs: [string, string][] | undefined
  for (const [name, value] of headers) {
    // The body's framing and the connection's are the runtime's to write (RFC 9110 section 7.6.1).
    if (HOP_BY_HOP_HEADERS.has(name)) continue
    if (!Array.isArray(value)) record[name] = String(value)
    else {
      pairs ??= []
      for (const item of value) pairs.push([name, String(item)])
    }
  }
  if (pairs === undefined) return record
  for (const name in record) pairs.push([name, record[name] as string])
  return pairs
}
