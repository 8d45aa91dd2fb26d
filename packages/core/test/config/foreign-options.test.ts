import { describe, expect, it } from 'vitest'
import { FOREIGN_OPTIONS, foreignOption } from '../../src/config/foreign-options.js'

describe('foreignOption', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])(
    'finds nothing for %s, a name every object inherits',
    (key) => {
      expect(foreignOption(key, false)).toBeUndefined()
      expect(foreignOption(key, true)).toBeUndefined()
    },
  )

  it('shows a route-only fix inside a route when the name was written in the shared options', () => {
    expect(foreignOption('ssl', false)?.example).toBe("{ target: 'https://localhost:3443', secure: false }")
    expect(foreignOption('ssl', true)?.example).toMatch(/^\{ '\/api': \{ .*secure: false \} \}$/)
    expect(foreignOption('prependPath', false)?.example).toBe('{ pathRewrite: false }')
    expect(foreignOption('prependPath', true)?.example).toBe(
      "{ '/api': { target: 'http://localhost:3000', pathRewrite: false } }",
    )
  })

  it('gives names that mean one thing the same advice, and says which tool forwards or tunnels', () => {
    expect(foreignOption('websockets', false)).toBe(foreignOption('websocket', false))
    expect(foreignOption('forward', false)?.problem).toContain('a copy of each request')
    expect(foreignOption('toProxy', false)?.problem).toContain('never through another proxy')
  })

  it('gives examples that are valid object literals, no key written twice', () => {
    const twice: string[] = []
    for (const key of Object.keys(FOREIGN_OPTIONS)) {
      for (const shared of [false, true]) {
        const example = foreignOption(key, shared)?.example ?? ''
        if (!example.startsWith('{')) continue
        // Evaluated as JavaScript: a syntax error throws here.
        new Function(`return (${example})`)
        // Each object's own keys, innermost first: a key twice is a mistake even where JS allows it.
        let rest = example
        for (;;) {
          const inner = /\{([^{}]*)\}/.exec(rest)
          if (inner === null) break
          const keys = [...(inner[1] ?? '').matchAll(/(?:^|,)\s*'?([\w/]+)'?\s*:/g)].map((m) => m[1])
          if (new Set(keys).size !== keys.length) twice.push(`${key} (shared: ${shared}): ${example}`)
          rest = rest.replace(inner[0], 'X')
        }
      }
    }
    expect(twice).toEqual([])
  })

  it('is frozen', () => {
    expect(Object.isFrozen(FOREIGN_OPTIONS)).toBe(true)
  })
})
