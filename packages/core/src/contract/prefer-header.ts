/*
 * The `Prefer` request header as Prism reads it for mocks (`Prefer: code=404, example=notFound`):
 * RFC 7240's preferences, split on commas (and semicolons, which Prism also accepts), each a
 * `name=value` with an optional quoted value. Only `code` and `example` are read.
 */

/** What a `Prefer` header asks of a mocked answer. */
export interface MockPreference {
  /** `code=<status>`: the declared response to answer with. */
  readonly code?: number
  /** `example=<name>`: the named example of the media type's `examples`. */
  readonly example?: string
}

/**
 * The `code` and `example` preferences of a `Prefer` header; an absent or malformed one is
 * `{}`, so the default answer is picked.
 *
 * @example
 * readMockPreference('code=201, example="new pet"') // { code: 201, example: 'new pet' }
 */
export function readMockPreference(prefer: string | undefined): MockPreference {
  if (prefer === undefined) return {}
  let code: number | undefined
  let example: string | undefined
  for (const part of prefer.split(/[,;]/)) {
    const match = /^\s*([\w-]+)\s*=\s*(?:"([^"]*)"|([^\s"]+))\s*$/.exec(part)
    if (match === null) continue
    const name = (match[1] as string).toLowerCase()
    const value = match[2] ?? (match[3] as string)
    if (name === 'code' && /^[1-5]\d\d$/.test(value)) code ??= Number(value)
    if (name === 'example' && value !== '') example ??= value
  }
  return { ...(code === undefined ? {} : { code }), ...(example === undefined ? {} : { example }) }
}
