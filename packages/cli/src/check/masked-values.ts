import { type ContractViolation, MASK } from '@cors-dev-proxy/core/adapter'

/*
 * A recording holds secrets masked (`"token": "[masked]"`, `?key=[masked]`, `Bearer [masked]`):
 * the value the backend sent is not on disk, so a violation AT a masked value (an integer field
 * that reads `"[masked]"`, a `format: uuid` token) says nothing about the backend and is not
 * reported; `check --openapi` counts it instead. A violation elsewhere in the same body (a
 * missing field, another field's type) is reported as usual.
 */

/** What a side of an exchange held, as the checker read it. */
export interface CheckedSide {
  readonly search?: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: Uint8Array | undefined
}

/** The value a JSON pointer (RFC 6901) names in `data`, or undefined. */
function valueAt(data: unknown, pointer: string): unknown {
  let node = data
  for (const token of pointer.split('/').slice(1)) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~')
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined
  }
  return node
}

function parsedBody(body: Uint8Array | undefined): unknown {
  if (body === undefined || body.byteLength === 0) return undefined
  try {
    return JSON.parse(Buffer.from(body).toString('utf8'))
  } catch {
    return undefined
  }
}

/** The parameter's name in a pointer such as `query.token` or `header.x-key/0`. */
function parameterName(pointer: string, place: string): string {
  return pointer.slice(place.length + 1).split('/')[0] ?? ''
}

/**
 * Whether `violation` is about a value the recording masked: a query parameter, a header or a
 * JSON body value that holds `[masked]`.
 *
 * @example
 * isAtMaskedValue({ in: 'response', pointer: '/token', ... }, { headers, body: Buffer.from('{"token":"[masked]"}') }) // true
 */
export function isAtMaskedValue(violation: ContractViolation, side: CheckedSide): boolean {
  const { pointer } = violation
  if (pointer.startsWith('query.')) {
    const values = new URLSearchParams(side.search ?? '').getAll(parameterName(pointer, 'query'))
    return values.some((value) => value.includes(MASK))
  }
  if (pointer.startsWith('header.'))
    return side.headers[parameterName(pointer, 'header')]?.includes(MASK) === true
  if (pointer !== '' && !pointer.startsWith('/')) return false
  const value = valueAt(parsedBody(side.body), pointer)
  return typeof value === 'string' && value.includes(MASK)
}
