/** A request body as a page's script would send it: the `Content-Type` the browser gives it and a sample body. */
export interface BodyOfType {
  readonly contentType: string
  readonly body: string
}

const BOUNDARY = '----cors-dev-proxy-check'

/**
 * The body kinds `--body-type` names, with the `Content-Type` fetch derives from each (Fetch
 * standard §5.2 "extract a body"): a string, `URLSearchParams`, `FormData`, or a JSON string
 * sent as `application/json`.
 */
const KINDS: Readonly<Record<string, BodyOfType>> = Object.freeze({
  text: { contentType: 'text/plain;charset=UTF-8', body: 'hello' },
  form: { contentType: 'application/x-www-form-urlencoded;charset=UTF-8', body: 'name=ada' },
  multipart: {
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\nada\r\n--${BOUNDARY}--\r\n`,
  },
  json: { contentType: 'application/json', body: '{"name":"ada"}' },
})

/** A MIME type as a `Blob`'s `type` holds it: `type/subtype` and optional parameters. */
const MIME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*;.*)?$/

/**
 * What `--body-type` means: `text` (a string body), `form` (`URLSearchParams`), `multipart`
 * (`FormData`), `json` (a JSON string with `Content-Type: application/json`), or any MIME type
 * (a `Blob` of that type, whose type becomes the `Content-Type`). `undefined` when the value is
 * none of these.
 *
 * @example
 * bodyOfType('form') // { contentType: 'application/x-www-form-urlencoded;charset=UTF-8', body: 'name=ada' }
 */
export function bodyOfType(value: string): BodyOfType | undefined {
  const kind = KINDS[value]
  if (kind !== undefined) return kind
  return MIME.test(value) && !/[\r\n]/.test(value) ? { contentType: value, body: 'x' } : undefined
}
