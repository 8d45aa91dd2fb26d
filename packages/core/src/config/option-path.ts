/**
 * How configuration errors name an option and show a value, so every message points at the
 * exact place in the user's config: `routes['/api'].target`, `options.timeout`.
 */

/**
 * Quotes a string as a single-quoted JavaScript literal, the way users write their config.
 * Control characters and U+2028/U+2029 are escaped, so the literal stays on one line and an
 * example fix that contains it can be pasted as it is.
 */
export function quote(value: string): string {
  const escaped = value
    .replaceAll('\\', '\\\\')
    .replaceAll("'", "\\'")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to escape.
    .replace(/[\0-\x1f\x7f\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return `'${escaped}'`
}

/**
 * Path of a route (or of one of its options) for error messages.
 *
 * @example
 * routeOption('/api', 'target') // "routes['/api'].target"
 */
export function routeOption(prefix: string, name?: string): string {
  return `routes[${quote(prefix)}]${name === undefined ? '' : `.${name}`}`
}

/**
 * Path of one entry of an object option (a header, a rewrite rule) for error messages, the key
 * quoted as a JavaScript literal so any key renders as the user would write it.
 *
 * @example
 * optionEntry("routes['/api'].headers", 'X-Key') // "routes['/api'].headers['X-Key']"
 */
export function optionEntry(option: string, key: string): string {
  return `${option}[${quote(key)}]`
}

/**
 * Path of a shared option (the second argument) for error messages.
 *
 * @example
 * globalOption('timeout') // 'options.timeout'
 */
export function globalOption(name: string): string {
  return `options.${name}`
}

/** The standalone factory that takes each nested option as its argument. */
const FACTORIES = { cors: 'createCorsMiddleware', mock: 'createMockBackend', jsonp: 'createJsonpMiddleware' }

/**
 * An example fix for a nested option (`cors`, `mock`, `jsonp`), written where `option` (the
 * path the message names) puts it: `{ cors: … }` to paste into a route or the shared options,
 * or a call of the standalone factory, whose messages name the option from its own root
 * (`cors`, `cors.origin`).
 *
 * @example
 * nestedExample("routes['/api'].cors.credential", 'cors', '{ credentials: true }') // '{ cors: { credentials: true } }'
 * nestedExample('cors.credential', 'cors', '{ credentials: true }') // 'createCorsMiddleware({ credentials: true })'
 */
export function nestedExample(option: string, name: keyof typeof FACTORIES, inner: string): string {
  const standalone = option === name || option.startsWith(`${name}.`) || option.startsWith(`${name}[`)
  return standalone ? `${FACTORIES[name]}(${inner})` : `{ ${name}: ${inner} }`
}

/**
 * A short source-like rendering of a user's value for a problem (`got a string ('x')`): strings
 * quoted (and cut at 60 characters), primitives as written, anything else elided. The result is
 * not always code (`{ ... }`), so examples never use it.
 *
 * @example
 * renderValue('http://localhost:3000') // "'http://localhost:3000'"
 */
export function renderValue(value: unknown): string {
  if (typeof value === 'string') return quote(value.length > 60 ? `${value.slice(0, 57)}...` : value)
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) {
    return String(value)
  }
  if (typeof value === 'function') return '(path, req) => ...'
  return Array.isArray(value) ? '[...]' : '{ ... }'
}

/** Describes what a wrong value is, for "must be a boolean, got a string". */
export function describeType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'undefined') return 'undefined'
  return `${/^[aeiou]/.test(typeof value) ? 'an' : 'a'} ${typeof value} (${renderValue(value)})`
}

/**
 * Whether a value is a plain object literal (prototype `Object.prototype` or `null`), the only
 * kind of object the options accept: arrays, class instances and functions are rejected.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}
