import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { importCycles, layerViolations, readImportGraph } from './import-graph.js'

const src = fileURLToPath(new URL('../../src', import.meta.url))

/** What every stand-in for the backend (`stand-ins/<name>/`) may import: the layers below it and the stand-ins' shared part. */
const STAND_IN = ['http', 'config', 'log', 'browser', 'pipeline', 'cors', 'forward', 'jsonp', 'stand-ins']

/** The stand-ins for the backend, each a layer of its own: none imports another. */
const STAND_INS = [
  'stand-ins/mock-backend',
  'stand-ins/route-mocks',
  'stand-ins/recordings',
  'stand-ins/control',
] as const

/**
 * The layers of `packages/core/src` and what each may import, lowest first (ARCHITECTURE.md
 * explains them). A folder imports its own files and the folders listed here, never a layer
 * above it; `proxy/` (the composition root) wires every layer together, and the root files
 * (the public entry points) sit on top of it. The stand-ins for the backend sit above the
 * request's steps (`cors/`, `forward/`, `jsonp/`, `pipeline/`) and below `inspector/` and
 * `proxy/`; each `stand-ins/<name>/` is a layer that may import the shared files directly in
 * `stand-ins/` but no other stand-in.
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
  'stand-ins': ['http', 'config', 'pipeline', 'forward'],
  ...Object.fromEntries(STAND_INS.map((layer) => [layer, STAND_IN])),
  // The in-memory replay of export-msw: the recordings' selection and the mocks' keys, over no Node.
  'stand-ins/replay-session': [...STAND_IN, 'stand-ins/recordings', 'stand-ins/route-mocks'],
  client: [],
  inspector: ['http', 'config', 'log', 'browser', 'pipeline', 'client', 'stand-ins', ...STAND_INS],
  fetch: ['http', 'config'],
  proxy: [
    'http',
    'config',
    'log',
    'browser',
    'pipeline',
    'cors',
    'forward',
    'jsonp',
    'stand-ins',
    ...STAND_INS,
    'stand-ins/replay-session',
    'client',
    'inspector',
    'fetch',
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
    'stand-ins',
    ...STAND_INS,
    'stand-ins/replay-session',
    'client',
    'inspector',
    'fetch',
    'proxy',
  ],
}

/** The public entry points: the only files outside `proxy/` that may import it. */
const ENTRY_POINTS = ['index.ts', 'adapter.ts', 'replay-dispatcher.ts']

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

  it('lets only the response-head hook and its body taps replace writeHead, write or end on a response', () => {
    const replacing = [...graph.keys()].filter((file) =>
      /\.(writeHead|write|end)\s*=(?!=)/.test(readFileSync(`${src}/${file}`, 'utf8')),
    )
    // body-taps.ts holds the taps that were the second half of response-head.ts (a 405-line file).
    expect(replacing.sort()).toEqual(['http/body-taps.ts', 'http/response-head.ts'])
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
    ['stand-ins/recordings/d.ts', ['stand-ins/e.ts', 'stand-ins/route-mocks/f.ts', 'inspector/g.ts']],
  ])

  it('report an import that goes up a layer, and an undeclared folder', () => {
    expect(layerViolations(broken, LAYERS)).toEqual([
      'http/a.ts imports config/b.ts (http → config)',
      "mystery/c.ts: folder 'mystery' is not a declared layer",
      'stand-ins/recordings/d.ts imports stand-ins/route-mocks/f.ts (stand-ins/recordings → stand-ins/route-mocks)',
      'stand-ins/recordings/d.ts imports inspector/g.ts (stand-ins/recordings → inspector)',
    ])
  })

  it('report a cycle', () => {
    expect(importCycles(broken)).toEqual(['http/a.ts → config/b.ts → http/a.ts'])
  })
})
