import type { OutgoingHttpHeader, OutgoingHttpHeaders } from 'node:http'

/** The response methods {@link foldPresetHeaders} reads preset fields with (Node's `ServerResponse` has them). */
export interface PresetResponse {
  getHeaderNames(): string[]
  getRawHeaderNames?(): string[]
  getHeader(name: string): OutgoingHttpHeader | undefined
  removeHeader(name: string): void
}

/** A flat head `[name, value, ...]` whose values may be lists: each name once. */
export type FoldedHead = Array<string | OutgoingHttpHeader>

/** What {@link foldPresetHeaders} returns: the head to write, and the preset fields it kept. */
export interface FoldedPresetHead {
  head: FoldedHead
  /** The preset fields the answer did not replace, to set back if Node refuses the head. */
  kept: OutgoingHttpHeaders
}

/**
 * Folds the headers an earlier middleware already set on `res` (webpack-dev-server sets
 * `Cross-Origin-Resource-Policy` on every response before the proxy runs) into the answer's
 * flat head `list` (see `buildClientHeadList`), takes them off `res`, and returns one flat head
 * that writes the same lines as `writeHead(status, object)` over them did: the preset fields in
 * the order they were set, each replaced in place by the answer's field of the same name
 * (written with its lowercase name), the preset others with the name they were set with; then
 * the answer's other fields in the order they first came, a repeated field's lines together.
 *
 * Why not the answer's list as it is: over headers already set, Node's `writeHead` sets each
 * field of a flat list in turn, and on Node 20 a second `Set-Cookie` line replaces the first
 * (Node 24 appends). Here every name comes once, a repeated field as one list value, which
 * both versions (and the head hooks' `writeHead`) send as separate lines; and `res` holding no
 * field when the list is written keeps the order the same on both.
 *
 * @example
 * res.setHeader('Cross-Origin-Resource-Policy', 'same-site')
 * foldPresetHeaders(res, ['set-cookie', 'a=1', 'set-cookie', 'b=2']).head
 * // ['Cross-Origin-Resource-Policy', 'same-site', 'set-cookie', ['a=1', 'b=2']]
 */
export function foldPresetHeaders(res: PresetResponse, list: readonly string[]): FoldedPresetHead {
  const fields = groupFields(list)
  const names = res.getHeaderNames()
  // Node keeps the two lists in the same order; http2's compatibility response has no raw names.
  const rawNames = res.getRawHeaderNames?.() ?? names
  const head: FoldedHead = []
  const kept: OutgoingHttpHeaders = {}
  for (let index = 0; index < names.length; index++) {
    const name = names[index] as string
    const answered = fields.get(name)
    if (answered !== undefined) {
      head.push(name, answered)
      fields.delete(name)
    } else {
      const value = res.getHeader(name)
      if (value !== undefined) {
        head.push(rawNames[index] ?? name, value)
        kept[rawNames[index] ?? name] = value
      }
    }
    res.removeHeader(name)
  }
  for (const [name, value] of fields) head.push(name, value)
  return { head, kept }
}

/** The fields of a flat head by name, in the order they first came; a repeated one as a list. */
function groupFields(list: readonly string[]): Map<string, string | string[]> {
  const fields = new Map<string, string | string[]>()
  for (let index = 0; index + 1 < list.length; index += 2) {
    const name = list[index] as string
    const value = list[index + 1] as string
    const known = fields.get(name)
    if (known === undefined) fields.set(name, value)
    else if (typeof known === 'string') fields.set(name, [known, value])
    else known.push(value)
  }
  return fields
}
