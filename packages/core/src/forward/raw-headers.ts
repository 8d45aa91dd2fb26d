import type { IncomingHttpHeaders } from 'node:http'

/** A header name or value as undici hands it over: bytes over HTTP/1.1, strings from some paths. */
export type RawField = Buffer | string

/**
 * One name or value of undici's raw list as a string, decoded as latin1 (see {@link headersFromRaw}).
 *
 * @example
 * fieldText(Buffer.from('Content-Type')) // 'Content-Type'
 */
export function fieldText(field: RawField): string {
  return typeof field === 'string' ? field : field.toString('latin1')
}

/**
 * undici's raw header list (`[name, value, name, value, ...]`, as a `dispatch()` handler gets it)
 * as Node's `IncomingHttpHeaders`: names lowercased, a repeated field as an array of its values
 * in order. Values are decoded as latin1, one character per byte, which is what Node writes a
 * header string back as: a value passes through to the client byte for byte, whatever its
 * encoding (undici's own `request()` decodes as UTF-8, and Node then writes each character as
 * one byte, which garbles a UTF-8 `Content-Disposition` filename). See {@link utf8Value} for
 * reading such a value as text.
 *
 * @example
 * headersFromRaw([Buffer.from('Set-Cookie'), Buffer.from('a=1'), Buffer.from('set-cookie'), Buffer.from('b=2')])
 * // { 'set-cookie': ['a=1', 'b=2'] }
 */
export function headersFromRaw(raw: readonly RawField[]): IncomingHttpHeaders {
  const headers: Record<string, string | string[]> = {}
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = fieldText(raw[index] as RawField).toLowerCase()
    const value = fieldText(raw[index + 1] as RawField)
    const known = headers[name]
    if (known === undefined) headers[name] = value
    else if (typeof known === 'string') headers[name] = [known, value]
    else known.push(value)
  }
  return headers
}

/** Whether a string holds only ASCII characters (most header values). */
function isAscii(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    if (value.charCodeAt(index) > 0x7f) return false
  }
  return true
}

/**
 * A latin1-decoded header value (see {@link headersFromRaw}) read as UTF-8 text, for the code
 * that parses it (a `Location` to rewrite): `/caf\u00c3\u00a9` becomes `/café`. ASCII values are
 * returned as they are.
 *
 * @example
 * utf8Value(Buffer.from('/café').toString('latin1')) // '/café'
 */
export function utf8Value(value: string): string {
  return isAscii(value) ? value : Buffer.from(value, 'latin1').toString('utf8')
}

/**
 * The first value of the field `name` (lowercase) in undici's raw list, latin1-decoded, or
 * `undefined`: for the one field a caller needs without building the whole object.
 *
 * @example
 * rawHeaderValue([Buffer.from('Location'), Buffer.from('/next')], 'location') // '/next'
 */
export function rawHeaderValue(raw: readonly RawField[], name: string): string | undefined {
  for (let index = 0; index + 1 < raw.length; index += 2) {
    if (fieldText(raw[index] as RawField).toLowerCase() === name) return fieldText(raw[index + 1] as RawField)
  }
  return undefined
}
