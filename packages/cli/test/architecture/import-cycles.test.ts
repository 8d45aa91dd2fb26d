import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { importCycles, readImportGraph } from '../../../core/test/architecture/import-graph.js'

/*
 * The CLI's files import one another without a circle, type-only imports included, as the
 * core's do (packages/core/test/architecture/layers.test.ts): a circle is where two files
 * should have shared a third (serve's options once lived in start-serve.ts, which imports
 * serve-server.ts, which needed them back).
 */
const src = fileURLToPath(new URL('../../src', import.meta.url))

describe('the CLI import graph', () => {
  it('has no import cycle, type-only imports included', () => {
    const graph = readImportGraph(src)
    expect(graph.size).toBeGreaterThan(50)
    expect(importCycles(graph)).toEqual([])
  })
})
