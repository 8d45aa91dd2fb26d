/**
 * nginx configuration syntax, for the export. nginx reads `\\` and `\"` inside a quoted token as
 * escapes and every `$name` as a variable, with no escape for a literal `$`: a literal dollar is
 * written as `${cdp_dollar}`, a variable the export defines once (see {@link DOLLAR_VARIABLE}).
 */

/** The `geo` block that makes `${cdp_dollar}` a literal `$` (a `geo` value is never read for variables). */
export const DOLLAR_VARIABLE = 'geo $cdp_dollar {\n    default "$";\n}'

/**
 * Escapes text for the inside of a quoted nginx token (`\\` and `\"`), keeping any `$variable`.
 *
 * @example
 * nginxEscape('say "hi"') // 'say \\"hi\\"'
 */
export function nginxEscape(text: string): string {
  return text.replace(/[\\"]/g, '\\$&')
}

/**
 * Quotes text as one nginx token, keeping any `$variable` in it: for patterns (where nginx reads
 * no variables) and for values that name variables on purpose (`$scheme://$http_host`).
 *
 * @example
 * nginxQuote('^/api(?:/|$)') // '"^/api(?:/|$)"'
 */
export function nginxQuote(text: string): string {
  return `"${nginxEscape(text)}"`
}

/**
 * Escapes text that must reach its destination as written (a header value, a path) for the
 * inside of a quoted token, each `$` becoming `${cdp_dollar}`; `usesDollar` tells the caller to
 * emit {@link DOLLAR_VARIABLE}.
 *
 * @example
 * nginxLiteralText('a$b') // { text: 'a${cdp_dollar}b', usesDollar: true }
 */
export function nginxLiteralText(text: string): { text: string; usesDollar: boolean } {
  return { text: nginxEscape(text).replace(/\$/g, `\${cdp_dollar}`), usesDollar: text.includes('$') }
}

/**
 * A `map` block, after a `# comment` line that says what the variable holds. Entries are
 * `[source, value]` tokens already quoted as needed; `default` first, as nginx documents it.
 *
 * @example
 * nginxMap('Port by scheme.', '$scheme', '$cdp_default_port', '80', [['https', '443']])
 */
export function nginxMap(
  comment: string,
  source: string,
  variable: string,
  fallback: string,
  entries: ReadonlyArray<readonly [string, string]>,
): string {
  const lines = [`# ${comment}`, `map ${source} ${variable} {`, `    default ${fallback};`]
  for (const [key, value] of entries) lines.push(`    ${key} ${value};`)
  lines.push('}')
  return lines.join('\n')
}

/** `# text` lines for a block indented by `indent`, one sentence per line. */
export function nginxComment(indent: string, lines: readonly string[]): string[] {
  return lines.map((line) => `${indent}# ${line}`)
}
