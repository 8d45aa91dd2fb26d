import { createHash } from 'node:crypto'

/*
 * A multipart/form-data body (RFC 7578: what `fetch` sends for a `FormData`, a login form
 * among them) read as the pairs it holds, so the key compares it as a form: by its fields, not
 * by the boundary the browser picks at random for each request, and with its secret fields
 * masked as a urlencoded form's are. A file part counts by its file name and a hash of its
 * content.
 */

/** The boundary of a multipart/form-data type, `undefined` for another type. */
function boundaryOf(contentType: string | undefined): string | undefined {
  if (!/^\s*multipart\/form-data\s*(;|$)/i.test(contentType ?? '')) return undefined
  const match = /;\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType ?? '')
  return match?.[1] ?? match?.[2]
}

/** One part's name and value (a file: its name and content hash), `undefined` when it is not a form field. */
function partPair(part: string): [string, string] | undefined {
  const split = part.indexOf('\r\n\r\n')
  if (split < 0) return undefined
  const head = part.slice(0, split)
  const body = part.slice(split + 4)
  const disposition = /^content-disposition:\s*form-data(.*)$/im.exec(head)?.[1] ?? ''
  const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1]
  if (name === undefined) return undefined
  const filename = /;\s*filename="([^"]*)"/i.exec(disposition)?.[1]
  if (filename === undefined) return [name, body]
  return [name, `file ${filename} sha256:${createHash('sha256').update(body).digest('hex')}`]
}

/**
 * A multipart/form-data body as urlencoded form text (`URLSearchParams` order: as sent), or
 * `undefined` when the type is another or the body does not parse as one.
 *
 * @example
 * multipartAsForm('--b\r\nContent-Disposition: form-data; name="user"\r\n\r\nada\r\n--b--\r\n', 'multipart/form-data; boundary=b')
 * // 'user=ada'
 */
export function multipartAsForm(text: string, contentType: string | undefined): string | undefined {
  const boundary = boundaryOf(contentType)
  if (boundary === undefined) return undefined
  const delimiter = `--${boundary}`
  const parts = text.split(delimiter)
  // Before the first delimiter: a preamble; after the last: `--` and an epilogue.
  if (parts.length < 3 || !(parts.at(-1) ?? '').startsWith('--')) return undefined
  const params = new URLSearchParams()
  for (const part of parts.slice(1, -1)) {
    if (!part.startsWith('\r\n') || !part.endsWith('\r\n')) return undefined
    const pair = partPair(part.slice(2, -2))
    if (pair === undefined) return undefined
    params.append(pair[0], pair[1])
  }
  return params.toString()
}
