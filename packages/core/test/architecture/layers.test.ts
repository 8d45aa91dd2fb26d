import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { importCycles, layerViolations, readImportGraph } from './import-graph.js'

const src = fileURLToPath(new URL('../../src', import.meta.url))

/** What every stand-in for the backend (`stand-ins/<name>/`) may import: the layers below it and the stand-ins' shared part. */
const STAND_IN = [
  'http',
  'config',
  'log',
  'browser',
  'pipeline',
  'cors',
  'forward',
  'jsonp',
  'contract',
  'stand-ins',
]

/** The stand-ins for the backend, each a layer of its own: none imports another. */
const STAND_INS = [
  'stand-ins/mock-backend',
  'stand-ins/route-mocks',
  'stand-ins/recordings',
  'stand-ins/control',
] as const

/**
 * Each stand-in's options (`stand-ins/<name>/options/`: its option types, its entries of the
 * option table and its resolver). A stand-in owns its options so that it reads in one folder, but
 * they are part of the configuration layer: `config/`'s option table and route resolution read
 * them, so they import only `http/` and `config/` (whose helpers they use: errors, option paths,
 * validators), never the stand-in's own request-time files nor another stand-in's options. The
 * cycle check below keeps `config/` and them free of file cycles, type-only imports included.
 */
const STAND_IN_OPTIONS = STAND_INS.map((stand) => `${stand}/options`)

/**
 * Each stand-in's panel (`stand-ins/<name>/panel/`): its part of the pages, browser code joined
 * with client/'s into the served scripts (scripts/join-client-scripts.mjs). The page has nothing
 * else, so, as for client/, browser code imports only browser code: a panel imports client/ (the
 * inspector page's helpers and the types the server shares) and client/ the panels it shows (the
 * route mocks' "Mock this answer" in an exchange's detail), never another layer.
 */
const PANELS = STAND_INS.map((stand) => `${stand}/panel`)

/**
 * The contract's options (`contract/options/`: `openapi`'s types, entry and resolver), part of
 * the configuration layer as a stand-in's options are: `config/` reads them, they import only
 * `http/` and `config/`, never the checker in `contract/`.
 */
const CONTRACT_OPTIONS = 'contract/options'

/**
 * The layers of `packages/core/src` and what each may import, lowest first (ARCHITECTURE.md
 * explains them). A folder imports its own files and the folders listed here, never a layer
 * above it; `proxy/` (the composition root) wires every layer together, and the root files
 * (the public entry points) sit on top of it. The stand-ins for the backend sit above the
 * request's steps (`cors/`, `forward/`, `jsonp/`, `pipeline/`) and below `inspector/` and
 * `proxy/`; each `stand-ins/<name>/` is a layer that may import the shared files directly in
 * `stand-ins/` but no other stand-in. `contract/`, the OpenAPI checker, is a library low in the
 * stack: it reads the document and checks exchanges, importing only HTTP helpers and the error
 * type, so that the stand-ins (document mocks), the inspector and the proxy can all use it.
 */
const LAYERS: Readonly<Record<string, readonly string[]>> = {
  http: [],
  config: ['http', ...STAND_IN_OPTIONS, CONTRACT_OPTIONS],
  ...Object.fromEntries([...STAND_IN_OPTIONS, CONTRACT_OPTIONS].map((layer) => [layer, ['http', 'config']])),
  log: ['http', 'config'],
  browser: ['http'],
  pipeline: ['http', 'config', 'log'],
  cors: ['http', 'config', 'log', 'browser', 'pipeline'],
  forward: ['http', 'config', 'log', 'pipeline'],
  jsonp: ['http', 'config', 'log', 'pipeline'],
  // The OpenAPI contract: checks of each exchange and answers from the document, a feature as JSONP is.
  contract: ['http', 'config', 'log', 'pipeline', CONTRACT_OPTIONS],
  'stand-ins': ['http', 'config', 'pipeline', 'forward', 'contract'],
  ...Object.fromEntries(STAND_INS.map((layer) => [layer, [...STAND_IN, `${layer}/options`]])),
  // The in-memory replay of export-msw: the recordings' selection and the mocks' keys, over no Node.
  'stand-ins/replay-session': [
    ...STAND_IN,
    'stand-ins/recordings',
    'stand-ins/route-mocks',
    'stand-ins/recordings/options',
    'stand-ins/route-mocks/options',
  ],
  client: [...PANELS],
  ...Object.fromEntries(PANELS.map((layer) => [layer, ['client']])),
  inspector: [
    'http',
    'config',
    'log',
    'browser',
    'pipeline',
    'contract',
    'client',
    'stand-ins',
    ...STAND_INS,
  ],
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
    'contract',
    CONTRACT_OPTIONS,
    'stand-ins',
    ...STAND_INS,
    ...STAND_IN_OPTIONS,
    ...PANELS,
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
    'contract',
    CONTRACT_OPTIONS,
    'stand-ins',
    ...STAND_INS,
    ...STAND_IN_OPTIONS,
    ...PANELS,
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
    [
      'stand-ins/recordings/options/h.ts',
      ['config/i.ts', 'stand-ins/recordings/d.ts', 'stand-ins/control/options/j.ts'],
    ],
    ['stand-ins/control/k.ts', ['stand-ins/control/options/j.ts', 'stand-ins/recordings/options/h.ts']],
    ['stand-ins/control/panel/l.ts', ['client/m.ts', 'stand-ins/control/k.ts', 'config/i.ts']],
    ['client/m.ts', ['stand-ins/route-mocks/panel/n.ts']],
    ['contract/options/o.ts', ['config/i.ts', 'contract/p.ts']],
  ])

  it('report an import that goes up a layer, and an undeclared folder', () => {
    expect(layerViolations(broken, LAYERS)).toEqual([
      'http/a.ts imports config/b.ts (http → config)',
      "mystery/c.ts: folder 'mystery' is not a declared layer",
      'stand-ins/recordings/d.ts imports stand-ins/route-mocks/f.ts (stand-ins/recordings → stand-ins/route-mocks)',
      'stand-ins/recordings/d.ts imports inspector/g.ts (stand-ins/recordings → inspector)',
      'stand-ins/recordings/options/h.ts imports stand-ins/recordings/d.ts (stand-ins/recordings/options → stand-ins/recordings)',
      'stand-ins/recordings/options/h.ts imports stand-ins/control/options/j.ts (stand-ins/recordings/options → stand-ins/control/options)',
      'stand-ins/control/k.ts imports stand-ins/recordings/options/h.ts (stand-ins/control → stand-ins/recordings/options)',
      'stand-ins/control/panel/l.ts imports stand-ins/control/k.ts (stand-ins/control/panel → stand-ins/control)',
      'stand-ins/control/panel/l.ts imports config/i.ts (stand-ins/control/panel → config)',
      'contract/options/o.ts imports contract/p.ts (contract/options → contract)',
    ])
  })

  it('report a cycle', () => {
    expect(importCycles(broken)).toEqual(['http/a.ts → config/b.ts → http/a.ts'])
  })
})
