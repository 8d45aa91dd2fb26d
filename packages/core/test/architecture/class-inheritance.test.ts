import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { coreSubclasses, readClassDeclarations } from './class-inheritance.js'

const src = fileURLToPath(new URL('../../src', import.meta.url))

/**
 * The core classes another core class may extend: error classes (a chain that ends at `Error`,
 * such as `CorsDevProxyError`'s), and the wrappers of undici's `Dispatcher`, which undici's API
 * asks to be subclasses of it. Anything else is composed, not inherited: a chain of classes
 * sharing state through protected fields is what the relay was before it became one piece.
 */
function allowed(chain: readonly string[]): boolean {
  return chain.at(-1) === 'Error' || chain.includes('WrappingDispatcher')
}

describe('the classes of packages/core/src', () => {
  const declarations = readClassDeclarations(src)

  it('are read, with what they extend', () => {
    const byName = new Map(declarations.map((declaration) => [declaration.name, declaration]))
    expect(byName.get('CorsDevProxyError')?.parent).toBe('Error')
    expect(byName.get('RenewableDispatcher')?.parent).toBe('WrappingDispatcher')
    expect(byName.get('WrappingDispatcher')?.parent).toBe('Dispatcher')
  })

  it('never extend another class of the core, error classes and Dispatcher wrappers aside', () => {
    const found = coreSubclasses(declarations, allowed).map(
      ({ declaration, chain }) => `${declaration.file}: ${declaration.name} extends ${chain.join(' ← ')}`,
    )
    expect(found).toEqual([])
  })

  it('would flag a subclass of a plain core class, even through a chain', () => {
    const found = coreSubclasses(
      [
        { file: 'a.ts', name: 'Relay', parent: undefined },
        { file: 'b.ts', name: 'Streaming', parent: 'Relay' },
        { file: 'c.ts', name: 'Collecting', parent: 'Streaming' },
        { file: 'd.ts', name: 'Failure', parent: 'Error' },
        { file: 'e.ts', name: 'Timeout', parent: 'Failure' },
      ],
      allowed,
    ).map(({ declaration }) => declaration.name)
    expect(found).toEqual(['Streaming', 'Collecting'])
  })
})
