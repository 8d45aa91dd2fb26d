/**
 * Regular expressions written into the exports. nginx matches with PCRE, Caddy with Go's RE2;
 * a JavaScript RegExp from the user's config is carried over only when it means the same in the
 * target's dialect, otherwise the export says which route needs attention.
 */

/** The regex engine of an export: nginx's PCRE or Caddy's RE2. */
export type RegexDialect = 'pcre' | 're2'

/** A RegExp carried over, or why it cannot be. */
export type ExportedRegex = { readonly source: string } | { readonly problem: string }

const METACHARACTERS = /[\\^$.*+?()[\]{}|]/g

/**
 * Escapes text to match itself in PCRE and RE2 alike.
 *
 * @example
 * escapeRegex('127.0.0.1:3000') // '127\\.0\\.0\\.1:3000'
 */
export function escapeRegex(text: string): string {
  return text.replace(METACHARACTERS, '\\$&')
}

/** Constructs the dialects lack, found by {@link findUnsupported}. */
const UNSUPPORTED: ReadonlyArray<readonly [construct: string, dialects: readonly RegexDialect[]]> = [
  ['a backreference', ['pcre', 're2']],
  ['a \\u escape', ['pcre', 're2']],
  ['[^] (any character)', ['pcre', 're2']],
  ['a lookahead', ['re2']],
  ['a lookbehind', ['re2']],
  ['a named group', ['re2']],
  ['a \\c escape', ['re2']],
]

/** The constructs of a JavaScript pattern, read escape by escape, outside and inside classes. */
function constructsOf(source: string): Set<string> {
  const found = new Set<string>()
  let inClass = false
  for (let i = 0; i < source.length; i++) {
    const char = source[i]
    const next = source[i + 1] ?? ''
    if (char === '\\') {
      if (/[1-9]/.test(next) && !inClass) found.add('a backreference')
      if (next === 'k' && source[i + 2] === '<') found.add('a backreference')
      if (next === 'u') found.add('a \\u escape')
      if (next === 'c') found.add('a \\c escape')
      i++
    } else if (inClass) {
      if (char === ']') inClass = false
    } else if (char === '[') {
      if (source.startsWith('[^]', i)) found.add('[^] (any character)')
      inClass = true
    } else if (char === '(' && next === '?') {
      const rest = source.slice(i + 2, i + 4)
      if (rest.startsWith('=') || rest.startsWith('!')) found.add('a lookahead')
      else if (rest === '<=' || rest === '<!') found.add('a lookbehind')
      else if (rest.startsWith('<')) found.add('a named group')
    }
  }
  return found
}

/**
 * Carries a JavaScript RegExp over to `dialect`, keeping its meaning: the flags `i`, `m` and `s`
 * become an inline group (`(?i:...)`, both dialects read it), `d` changes nothing a match
 * decides, and `g`/`y` are gone already (the core strips them). Constructs the dialect reads
 * otherwise or not at all (backreferences, which would also be renumbered in a combined pattern,
 * `\u` escapes, lookaround in RE2, the `v` flag...) give a `problem` naming them.
 *
 * @example
 * exportRegExp(/\.example\.com$/i, 're2') // { source: '(?i:\\.example\\.com$)' }
 * exportRegExp(/^(?!http:)/, 're2')       // { problem: 'a lookahead, which Caddy (RE2) does not support' }
 */
export function exportRegExp(pattern: RegExp, dialect: RegexDialect): ExportedRegex {
  const engine = dialect === 'pcre' ? 'nginx (PCRE)' : 'Caddy (RE2)'
  const extraFlags = pattern.flags.replace(/[dgimsy]/g, '')
  if (extraFlags !== '' && extraFlags !== 'u') {
    return { problem: `the flag ${extraFlags}, which ${engine} does not read like JavaScript` }
  }
  const found = constructsOf(pattern.source)
  const problems = UNSUPPORTED.filter(
    ([construct, dialects]) => found.has(construct) && dialects.includes(dialect),
  ).map(([construct]) => construct)
  if (problems.length > 0) return { problem: `${problems.join(', ')}, which ${engine} does not support` }
  const flags = pattern.flags.replace(/[^ims]/g, '')
  return { source: flags === '' ? `(?:${pattern.source})` : `(?${flags}:${pattern.source})` }
}
