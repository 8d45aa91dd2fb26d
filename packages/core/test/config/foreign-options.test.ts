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

  it('is frozen', () => {
    expect(Object.isFrozen(FOREIGN_OPTIONS)).toBe(true)
  })
})
