import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { importCycles, layerViolations, readImportGraph } from './import-graph.js'

const src = fileURLToPath(new URL('../../src', import.meta.url))

/**
 * The layers of `packages/core/src` and what each may import, lowest first (ARCHITECTURE.md
 * explains them). A folder imports its own files and the folders listed here, never a layer
 * above it; `proxy/` (the composition root) wires every layer together, and the root files
 * (the public entry points) sit on top of it.
 */
const LAYERS: Readonly<Record<string, readonly string[]>> = {
  http: [],
  config: ['http'],
  log: ['http', 'config'],
  browser: ['http'],
  pipeline: ['http', 'config', 'log'],
  cors: ['http', 'config', 'log', 'browser', 'pipeline'],
  forward: ['http', 'config', 'log', 'pipeline'],
  jsonp: ['http', 'config', 'log', 'pipeline'],
  'stand-ins/mock-backend': ['http', 'config', 'log', 'browser', 'pipeline', 'cors', 'jsonp'],
  'stand-ins/control': ['http', 'config', 'log', 'pipeline'],
  client: [],
  inspector: [
    'http',
    'config',
    'log',
    'browser',
    'pipeline',
    'client',
    'stand-ins/control',
    'stand-ins/route-mocks',
  ],
  fetch: ['http', 'config'],
  'stand-ins/recordings': ['http', 'config', 'log', 'browser', 'pipeline', 'client', 'inspector'],
  'stand-ins/route-mocks': [
    'http',
    'config',
    'log',
    'browser',
    'pipeline',
    'forward',
    'client',
    'inspector',
    'stand-ins/recordings',
  ],
  proxy: [
    'http',
    'config',
    'log',
    'browser',
    'pipeline',
    'cors',
    'forward',
    'jsonp',
    'stand-ins/mock-backend',
    'stand-ins/control',
    'client',
    'inspector',
    'fetch',
    'stand-ins/recordings',
    'stand-ins/route-mocks',
  ],
  '.': [
    'http',
    'config',
    'log',
    'browser',
    'pipeline',
    'cors',
    'forward',
    'jsonp',
    'stand-ins/mock-backend',
    'stand-ins/control',
    'client',
    'inspector',
    'fetch',
    'stand-ins/recordings',
    'stand-ins/route-mocks',
    'proxy',
  ],
}

/** The public entry points: the only files outside `proxy/` that may import it. */
const ENTRY_POINTS = ['index.ts', 'adapter.ts']

describe('the layers of packages/core/src', () => {
  const graph = readImportGraph(src)

  it('reads the real import graph', () => {
    expect(graph.size).toBeGreaterThan(50)
    expect(graph.get('index.ts')?.length).toBeGreaterThan(5)
  })

  it('imports only downwards', () => {
    expect(layerViolations(graph, LAYERS)).toEqual([])
  })

  it('has no import cycle, type-only imports included', () => {
    expect(importCycles(graph)).toEqual([])
  })

  it('lets only the response-head hook replace writeHead, write or end on a response', () => {
    const replacing = [...graph.keys()].filter((file) =>
      /\.(writeHead|write|end)\s*=(?!=)/.test(readFileSync(`${src}/${file}`, 'utf8')),
    )
    expect(replacing).toEqual(['http/response-head.ts'])
  })

  it('keeps at most four files at the root, the entry points among them', () => {
    const root = [...graph.keys()].filter((file) => !file.includes('/'))
    expect(root.length).toBeLessThanOrEqual(4)
    expect(root).toEqual(expect.arrayContaining(ENTRY_POINTS))
  })

  it('lets only the entry points import the composition root, proxy/', () => {
    const importers = [...graph]
      .filter(
        ([file, imports]) =>
          !file.startsWith('proxy/') && imports.some((target) => target.startsWith('proxy/')),
      )
      .map(([file]) => file)
    expect(importers.sort()).toEqual(ENTRY_POINTS.slice().sort())
  })
})

describe('the checks themselves', () => {
  const broken = new Map([
    ['http/a.ts', ['config/b.ts']],
    ['config/b.ts', ['http/a.ts']],
    ['mystery/c.ts', []],
  ])

  it('report an import that goes up a layer, and an undeclared folder', () => {
    expect(layerViolations(broken, LAYERS)).toEqual([
      'http/a.ts imports config/b.ts (http → config)',
      "mystery/c.ts: folder 'mystery' is not a declared layer",
    ])
  })

  it('report a cycle', () => {
    expect(importCycles(broken)).toEqual(['http/a.ts → config/b.ts → http/a.ts'])
  })
})
