// The version matrix: runs the adapter suites (test/adapters) once per supported dev-server
// version, each under the Node version it must work with, then prints a summary table and
// exits non-zero when any cell failed. Run from anywhere: `pnpm test:matrix`.
//
//   vite 6, 7, 8               Node 20 (the machine's node)
//   webpack-dev-server 5       Node 20
//   webpack-dev-server 6       Node 24 (it needs >= 22.15; `pnpm test` installs it in .tools/node24
//                              first, through scripts/prepare-test-tools.mjs)
//   rsbuild 2                  Node 20 (@rsbuild/core 2 supports ^20.19)
//   @rspack/dev-server 2       Node 20 (the webpack adapter on Rspack's dev server; it supports ^20.19)
//
// Each cell chooses its dev server through an environment variable the suites read
// (CDP_VITE / CDP_WDS, the npm aliases installed at the root).
//
// `--cells current` runs the cells marked `current` (each adapter against the newest dev server
// that runs on the repository's Node: vite 8, webpack-dev-server 5, rsbuild 2, @rspack/dev-server
// 2), as `pnpm test` does; `--cells previous` the others (vite 6 and 7, webpack-dev-server 6 on
// Node 24), which CI runs after `pnpm test`. Without the flag, every cell.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const root = fileURLToPath(new URL('../..', import.meta.url))
const node20 = process.execPath
const node24 = `${root}.tools/node24/node_modules/.bin/node`
const vitest = `${root}node_modules/vitest/vitest.mjs`
const config = 'test/matrix/vitest.config.ts'

const cells = [
  {
    name: 'vite 6',
    node: node20,
    nodeMajor: 20,
    env: { CDP_VITE: 'vite6' },
    files: [
      'test/adapters/vite.test.ts',
      'test/adapters/vite-middleware-mode.test.ts',
      'test/adapters/request-intact.test.ts',
    ],
  },
  {
    name: 'vite 7',
    node: node20,
    nodeMajor: 20,
    env: { CDP_VITE: 'vite7' },
    files: [
      'test/adapters/vite.test.ts',
      'test/adapters/vite-middleware-mode.test.ts',
      'test/adapters/request-intact.test.ts',
    ],
  },
  {
    name: 'vite 8',
    current: true,
    node: node20,
    nodeMajor: 20,
    env: { CDP_VITE: 'vite8' },
    files: [
      'test/adapters/vite.test.ts',
      'test/adapters/vite-middleware-mode.test.ts',
      'test/adapters/request-intact.test.ts',
    ],
  },
  {
    name: 'webpack-dev-server 5',
    current: true,
    node: node20,
    nodeMajor: 20,
    env: { CDP_WDS: 'wds5' },
    files: ['test/adapters/webpack.test.ts', 'test/adapters/request-intact.test.ts'],
  },
  {
    name: 'webpack-dev-server 6',
    node: node24,
    nodeMajor: 24,
    env: { CDP_WDS: 'wds6' },
    files: ['test/adapters/webpack.test.ts', 'test/adapters/request-intact.test.ts'],
  },
  {
    name: 'rsbuild 2',
    current: true,
    node: node20,
    nodeMajor: 20,
    env: { CDP_FRONT: 'rsbuild' },
    files: ['test/adapters/rsbuild.test.ts', 'test/adapters/request-intact.test.ts'],
  },
  {
    name: '@rspack/dev-server 2',
    current: true,
    node: node20,
    nodeMajor: 20,
    env: { CDP_FRONT: 'rspack' },
    files: ['test/adapters/rspack.test.ts', 'test/adapters/request-intact.test.ts'],
  },
]

/** The version a node binary reports, or undefined when it cannot run. */
function nodeVersion(binary) {
  if (!existsSync(binary)) return undefined
  const result = spawnSync(binary, ['-p', 'process.version'], { encoding: 'utf8' })
  return result.status === 0 ? result.stdout.trim() : undefined
}

function run(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

/** Runs a command with its output collected (stdout and stderr interleaved); resolves with the exit code and the output. */
function runCollected(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : undefined, ...env },
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }))
  })
}

// The CommonJS/ESM config tests load the built webpack adapter (and, through it, the core).
console.log('[matrix] building packages/webpack (and packages/core) for the config tests')
if ((await run(node20, [`${root}node_modules/typescript/bin/tsc`, '-b', 'packages/webpack'])) !== 0) {
  console.error('[matrix] build failed')
  process.exit(1)
}

/**
 * Two cells at a time: a cell is mostly one file of dev servers waiting on sockets (each cell's own
 * config runs one file at a time), so two overlap on 2 cores; the 7 cells took 81 s one after
 * another. Each cell's output is printed whole when it ends, so the two do not interleave.
 * `MATRIX_CONCURRENCY=1` runs them one after another.
 */
const CONCURRENCY = Math.max(1, Number(process.env.MATRIX_CONCURRENCY) || 2)

async function runCell(cell) {
  const version = nodeVersion(cell.node)
  const started = Date.now()
  let outcome
  if (version === undefined) {
    outcome = `FAIL: no node at ${cell.node} (run pnpm test:tools, which installs it)`
  } else if (Number(version.slice(1).split('.')[0]) !== cell.nodeMajor) {
    outcome = `FAIL: expected Node ${cell.nodeMajor}, ${cell.node} is ${version}`
  } else {
    console.log(`[matrix] ${cell.name} on Node ${version} (${cell.node}): started`)
    const { code, output } = await runCollected(
      cell.node,
      [vitest, 'run', '--config', config, ...cell.files],
      cell.env,
    )
    console.log(`\n[matrix] ${cell.name} on Node ${version} (${cell.node})\n${output}`)
    outcome = code === 0 ? 'pass' : `FAIL (exit ${code})`
  }
  return {
    cell: cell.name,
    node: version ?? '-',
    result: outcome,
    seconds: Math.round((Date.now() - started) / 1000),
  }
}

/**
 * Seconds each cell took on a quiet 2-core machine, two at a time (the webpack-dev-server cells
 * start a dev server per test). The longest start first, so that none runs on alone at the end.
 */
const QUIET_SECONDS = {
  'vite 6': 10,
  'vite 7': 11,
  'vite 8': 19,
  'webpack-dev-server 5': 57,
  'webpack-dev-server 6': 38,
  'rsbuild 2': 7,
  '@rspack/dev-server 2': 6,
}
const { values: flags } = parseArgs({ options: { cells: { type: 'string' } } })
if (flags.cells !== undefined && !['current', 'previous'].includes(flags.cells)) {
  console.error(`[matrix] --cells takes current or previous, not ${flags.cells}`)
  process.exit(2)
}
const chosen = (cell) => flags.cells === undefined || (flags.cells === 'current') === (cell.current === true)
const startOrder = cells
  .map((cell, index) => ({ index, seconds: QUIET_SECONDS[cell.name] ?? 0 }))
  .filter(({ index }) => chosen(cells[index]))
  .sort((a, b) => b.seconds - a.seconds)
  .map(({ index }) => index)

const matrixStarted = Date.now()
const results = new Array(cells.length)
let next = 0
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < startOrder.length) {
      const index = startOrder[next++]
      results[index] = await runCell(cells[index])
    }
  }),
)
// In the table's order, only the cells that ran.
const ran = results.filter((entry) => entry !== undefined)

/** A plain-text table: one row per cell, columns padded to their widest value. */
function table(rows) {
  const columns = Object.keys(rows[0])
  const width = (column) => Math.max(column.length, ...rows.map((row) => String(row[column]).length))
  const line = (values) =>
    values.map((value, index) => String(value).padEnd(width(columns[index]))).join('  ')
  return [
    line(columns),
    line(columns.map((column) => '-'.repeat(width(column)))),
    ...rows.map((row) => line(Object.values(row))),
  ].join('\n')
}

console.log(
  `\n[matrix] summary (${Math.round((Date.now() - matrixStarted) / 1000)} s, ${CONCURRENCY} cells at a time)\n${table(ran)}`,
)
const failed = ran.filter((entry) => entry.result !== 'pass')
if (failed.length > 0) {
  console.error(`[matrix] ${failed.length} of ${ran.length} cells failed`)
  process.exit(1)
}
console.log(`[matrix] all ${ran.length} cells passed`)
