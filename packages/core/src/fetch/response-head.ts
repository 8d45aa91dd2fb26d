/*
 * The fields of the head the engine wrote, in the shape a `Response` is built from most cheaply.
 */
import type { OutgoingHttpHeader } from 'node:http'
import { HOP_BY_HOP_HEADERS } from '../http/hop-by-hop.js'

/** A `Response`'s `headers` init: a record when each field has one value, else one pair per value. */
export type HeadFields = Record<string, string> | [string, string][]

/**
 * The head's fields for `new Response(body, { headers })`, without the hop-by-hop ones: a record
 * when each field has one value (a runtime such as @hono/node-server writes a record as it is,
 * with no `Headers` object in between), else pairs, one per value (`Set-Cookie` lines). The
 * record is an object literal, not `Object.create(null)`: V8 keeps a prototype-less object in
 * dictionary mode, which every later reader (the runtime's loop over it, `writeHead`) pays for.
 *
 * @example
 * new Response(body, { status: 200, headers: headFields(new Map([['content-type', 'text/plain']])) })
 */
export function headFields(headers: ReadonlyMap<string, OutgoingHttpHeader>): HeadFields {
  const record: Record<string, string> = {}
  for (const [name, value] of headers) {
    // The body's framing and the connection's are the runtime's to write (RFC 9110 section 7.6.1).
    if (HOP_BY_HOP_HEADERS.has(name)) continue
    // A map's names are unique; `__proto__` would set the record's prototype: pairs hold any name.
    if (Array.isArray(value) || name === '__proto__') return headPairs(headers)
    record[name] = String(value)
  }
  return record
}

/** {@link headFields} as pairs, one per value. */
function headPairs(headers: ReadonlyMap<string, OutgoingHttpHeader>): [string, string][] {
  const pairs: [string, string][] = []
  for (const [name, value] of headers) {
    if (HOP_BY_HOP_HEADERS.has(name)) continue
    if (Array.isArray(value)) for (const item of value) pairs.push([name, String(item)])
    else pairs.push([name, String(value)])
  }
  return pairs
}

/** A name or value of a flat list as a string, not converted when it is one already. */
const text = (item: unknown): string => (typeof item === 'string' ? item : String(item))

/**
 * {@link headFields} of a flat `[name, value, …]` list as `writeHead` takes one, names in any
 * case: one pass, with no map of the head in between. A repeat is found among the names so far,
 * a short list, rather than by reading the record: a missing key on an object literal is looked
 * up along its prototype chain, for every field.
 *
 * @example
 * headFieldsOfList(['Content-Type', 'text/plain', 'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2'])
 */
export function headFieldsOfList(list: readonly unknown[]): HeadFields {
  const record: Record<string, string> = {}
  const names: string[] = []
  for (let index = 0; index + 1 < list.length; index += 2) {
    const name = text(list[index]).toLowerCase()
    if (HOP_BY_HOP_HEADERS.has(name)) continue
    if (name === '__proto__' || names.includes(name)) return listPairs(list)
    names.push(name)
    record[name] = text(list[index + 1])
  }
  return record
}

/** {@link headFieldsOfList} as pairs, one per line. */
function listPairs(list: readonly unknown[]): [string, string][] {
  const pairs: [string, string][] = []
  for (let index = 0; index + 1 < list.length; index += 2) {
    const name = text(list[index]).toLowerCase()
    if (!HOP_BY_HOP_HEADERS.has(name)) pairs.push([name, text(list[index + 1])])
  }
  return pairs
}
