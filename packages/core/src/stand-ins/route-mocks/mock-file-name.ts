import { compilePathPattern, parsePatternKey } from '../../http/path-pattern.js'

/*
 * A mock file is named after its key, reversibly, so the folder's listing alone says which keys
 * it holds: `GET /users/:id` is `GET _users_{id}.json`. The method (none: any) and a space, then
 * the path with each `/` as `_`, each `:name` segment as `{name}`, a final `*` as `{*}`, and
 * every character but letters, digits, `.`, `-` and `~` percent-encoded (`_` as `%5F`, `{` as
 * `%7B`). So a name never holds a path separator, a NUL or a character Windows refuses, never
 * starts with a dot, and every key has exactly one name.
 */

const SAFE = /[A-Za-z0-9.~-]/
const EXTENSION = '.json'

function escapeText(text: string): string {
  let out = ''
  for (const character of text) {
    if (SAFE.test(character)) out += character
    else
      for (const byte of Buffer.from(character)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

function escapeSegment(segment: string, last: boolean, wildcard: boolean): string {
  if (last && wildcard) return '{*}'
  if (segment.startsWith(':') && segment.length > 1) return `{${escapeText(segment.slice(1))}}`
  return escapeText(segment)
}

/**
 * The file name of a mock key; `undefined` when the key is not `'METHOD /path'` or `'/path'`.
 *
 * @example
 * mockFileName('GET /users/:id') // 'GET _users_{id}.json'
 * mockFileName('/files/*') // '_files_{*}.json'
 */
export function mockFileName(key: string): string | undefined {
  const parsed = parsePatternKey(key)
  if (parsed === undefined) return undefined
  const segments = parsed.path.split('/').slice(1)
  const wildcard = parsed.path.endsWith('/*')
  const path = segments.map((segment, index) =>
    escapeSegment(segment, index === segments.length - 1, wildcard),
  )
  return `${parsed.method === undefined ? '' : `${parsed.method} `}_${path.join('_')}${EXTENSION}`
}

function unescapeText(text: string): string | undefined {
  if (/[^A-Za-z0-9.~%-]/.test(text)) return undefined
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}

function unescapeSegment(segment: string, last: boolean): string | undefined {
  if (segment === '{*}') return last ? '*' : undefined
  const param = /^\{(.+)\}$/.exec(segment)
  const text = unescapeText(param === null ? segment : (param[1] as string))
  if (text === undefined || text.includes('/')) return undefined
  return param === null ? text : `:${text}`
}

/**
 * The key a mock file's name stands for, as `mockFileName` writes it; `undefined` for a name it
 * would never write (another file in the folder, a name edited by hand into something else).
 *
 * @example
 * mockKeyOf('GET _users_{id}.json') // 'GET /users/:id'
 */
export function mockKeyOf(name: string): string | undefined {
  if (!name.endsWith(EXTENSION)) return undefined
  const parts = /^(?:([A-Z]+) )?_(.*)$/.exec(name.slice(0, -EXTENSION.length))
  if (parts === null) return undefined
  const raw = (parts[2] as string).split('_')
  const segments: string[] = []
  for (const [index, segment] of raw.entries()) {
    const text = unescapeSegment(segment, index === raw.length - 1)
    if (text === undefined) return undefined
    segments.push(text)
  }
  const key = `${parts[1] === undefined ? '' : `${parts[1]} `}/${segments.join('/')}`
  // Only a name this module writes: one key, one name.
  return mockFileName(key) === name ? key : undefined
}

/** How specific a key's path is: literal segments before `:params`, before a final `*`. */
function specificity(path: string): [wildcard: number, params: number, segments: number] {
  const segments = path.split('/')
  return [
    path.endsWith('/*') ? 1 : 0,
    segments.filter((segment) => segment.startsWith(':') && segment.length > 1).length,
    -segments.length,
  ]
}

/**
 * Orders mock keys from the most specific to the least: the order files are tried in (the
 * folder has no order of its own). `GET /users/42` before `GET /users/:id` before `/users/*`; a
 * key with a method before the same path without one.
 *
 * @example
 * ['/users/*', 'GET /users/:id', 'GET /users/42'].sort(compareMockKeys) // ['GET /users/42', 'GET /users/:id', '/users/*']
 */
export function compareMockKeys(a: string, b: string): number {
  const left = parsePatternKey(a)
  const right = parsePatternKey(b)
  if (left === undefined || right === undefined) return a < b ? -1 : a > b ? 1 : 0
  const [x, y] = [specificity(left.path), specificity(right.path)]
  for (let index = 0; index < x.length; index += 1) {
    const difference = (x[index] as number) - (y[index] as number)
    if (difference !== 0) return difference
  }
  if ((left.method === undefined) !== (right.method === undefined)) return left.method === undefined ? 1 : -1
  return a < b ? -1 : a > b ? 1 : 0
}

/** A key's method and compiled path, as a file rule needs them. */
export function compileMockKey(key: string) {
  const parsed = parsePatternKey(key)
  return parsed === undefined
    ? undefined
    : { method: parsed.method, pattern: compilePathPattern(parsed.path) }
}
