import { describe, expect, it } from 'vitest'
import { escapeRegex, exportRegExp } from '../../src/export/export-regex.js'

describe('escapeRegex', () => {
  it.each([
    ['127.0.0.1:3000', '127\\.0\\.0\\.1:3000'],
    ['/a$b(c)[d]{e}|f*+?^\\', '/a\\$b\\(c\\)\\[d\\]\\{e\\}\\|f\\*\\+\\?\\^\\\\'],
    ['http://[::1]:80', 'http://\\[::1\\]:80'],
  ])('%s', (text, escaped) => {
    expect(escapeRegex(text)).toBe(escaped)
    // The escaped text matches itself whole, in JavaScript too (the escapes are common to all three).
    expect(new RegExp(`^${escaped}$`).test(text)).toBe(true)
  })
})

describe('exportRegExp', () => {
  it.each([
    [/\.example\.test$/, 'pcre', '(?:\\.example\\.test$)'],
    [/\.example\.test$/, 're2', '(?:\\.example\\.test$)'],
    [/^https:\/\/a$/i, 're2', '(?i:^https:\\/\\/a$)'],
    [/a.b/ims, 'pcre', '(?ims:a.b)'],
    [/x/dgy, 're2', '(?:x)'],
    [/^(?:a|b)\d{2}[^/]$/u, 're2', '(?:^(?:a|b)\\d{2}[^/]$)'],
    [/(?=a)b/, 'pcre', '(?:(?=a)b)'],
    [/(?<=a)b/, 'pcre', '(?:(?<=a)b)'],
    [/(?<name>a)/, 'pcre', '(?:(?<name>a))'],
    [/[(?=]\\1/, 're2', '(?:[(?=]\\\\1)'],
  ] as const)('%s in %s → %s', (pattern, dialect, source) => {
    expect(exportRegExp(pattern, dialect)).toEqual({ source })
  })

  it.each([
    [/(a)\1/, 'pcre', 'a backreference'],
    [/(?<a>x)\k<a>/, 'pcre', 'a backreference'],
    [/\u0041/, 're2', 'a \\u escape'],
    // biome-ignore lint/complexity/useRegexLiterals: the literal `[^]` is refused by another lint rule, yet users write it.
    [new RegExp('[^]'), 'pcre', '[^] (any character)'],
    [/(?=a)/, 're2', 'a lookahead'],
    [/(?!a)/, 're2', 'a lookahead'],
    [/(?<=a)b/, 're2', 'a lookbehind'],
    [/(?<!a)b/, 're2', 'a lookbehind'],
    [/(?<n>a)/, 're2', 'a named group'],
    [/\cJ/, 're2', 'a \\c escape'],
    // biome-ignore lint/complexity/useRegexLiterals: TypeScript refuses the `v` flag in a literal below ES2024.
    [new RegExp('a', 'v'), 'pcre', 'the flag v'],
  ] as const)('%s cannot go to %s: %s', (pattern, dialect, problem) => {
    const exported = exportRegExp(pattern, dialect)
    expect(exported).toHaveProperty('problem')
    expect('problem' in exported && exported.problem).toContain(problem)
    expect('problem' in exported && exported.problem).toContain(
      dialect === 'pcre' ? 'nginx (PCRE)' : 'Caddy (RE2)',
    )
  })
})
