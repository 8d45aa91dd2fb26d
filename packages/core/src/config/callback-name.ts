/**
 * JSONP callback names: a JavaScript identifier path (`cb`, `jQuery123_456`, `app.handlers.done`)
 * and nothing else, since the name is written into a script the page executes. A rule this
 * strict leaves no room for a reflected name to inject code.
 */
export const CALLBACK_NAME_PATTERN = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/

/** Longest callback name accepted, in characters. */
export const MAX_CALLBACK_NAME_LENGTH = 128

/** The rule in words, for error answers and docs. */
export const CALLBACK_NAME_RULE =
  'letters, digits, _ and $, not starting with a digit, optionally dot-separated (a.b.c), at most 128 characters'

/**
 * Whether `name` may be used as a JSONP callback: it matches
 * `^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$` and has at most 128 characters.
 *
 * @example
 * isValidCallbackName('jQuery3510_1700000000000') // true
 * isValidCallbackName('alert(1)//')               // false
 */
export function isValidCallbackName(name: string): boolean {
  return name.length <= MAX_CALLBACK_NAME_LENGTH && CALLBACK_NAME_PATTERN.test(name)
}

/** A query parameter name that needs no percent-encoding in any client: RFC 3986 unreserved characters and `$`. */
const PARAM_NAME_PATTERN = /^[\w.~$-]{1,64}$/

/** The rule for the callback parameter's own name (`jsonp.param`), in words, for configuration errors. */
export const JSONP_PARAM_RULE = 'a query parameter name of 1 to 64 letters, digits, or _ . ~ $ -'

/**
 * Whether `name` may be the callback parameter's name (`jsonp: { param }`): see {@link JSONP_PARAM_RULE}.
 *
 * @example
 * isValidJsonpParam('callback') // true
 * isValidJsonpParam('cb name')  // false
 */
export function isValidJsonpParam(name: unknown): name is string {
  return typeof name === 'string' && PARAM_NAME_PATTERN.test(name)
}
