/**
 * How configuration errors name an option and show a value, so every message points at the
 * exact place in the user's config: `routes['/api'].target`, `options.timeout`.
 */

/** Quotes a string as a single-quoted JavaScript literal, the way users write their config. */
export function quote(value: string): string {
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`
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

/**
 * A short source-like rendering of a user's value for an example fix: strings quoted,
 * primitives as written, anything else elided.
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
