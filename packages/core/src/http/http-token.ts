/**
 * An HTTP token (RFC 9110 §5.6.2): one or more `tchar`s. Method names, header field names and
 * the items of `Access-Control-Allow-Methods`/`-Headers` lists are tokens, and so are the type
 * and subtype of a MIME type. No `g` or `y` flag, so the one instance is safe to share.
 *
 * @example
 * HTTP_TOKEN.test('x-request-id') // true
 * HTTP_TOKEN.test('x foo')        // false
 */
export const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
