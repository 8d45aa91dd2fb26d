import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { SlowFilesFirstSequencer } from './test/projects/slow-files-first.js'
import { OUTSIDE_PROJECTS, splitTestFiles, TEST_FILE_GLOBS } from './test/projects/test-projects.js'

const root = fileURLToPath(new URL('.', import.meta.url))
const src = (path: string) => fileURLToPath(new URL(`./packages/${path}`, import.meta.url))

/** Tests import the packages' sources, so that a change is tested without a rebuild. */
export const sourceAliases = [
  { find: /^@cors-dev-proxy\/core\/client$/, replacement: src('core/src/client/index.ts') },
  { find: /^@cors-dev-proxy\/core\/adapter$/, replacement: src('core/src/adapter.ts') },
  { find: /^@cors-dev-proxy\/core\/replay-session$/, replacement: src('core/src/replay-session.ts') },
  { find: /^@cors-dev-proxy\/core\/replay-dispatcher$/, replacement: src('core/src/replay-dispatcher.ts') },
  { find: /^@cors-dev-proxy\/core$/, replacement: src('core/src/index.ts') },
  { find: /^@cors-dev-proxy\/vite$/, replacement: src('vite/src/index.ts') },
  { find: /^@cors-dev-proxy\/webpack$/, replacement: src('webpack/src/index.ts') },
  { find: /^@cors-dev-proxy\/rsbuild$/, replacement: src('rsbuild/src/index.ts') },
  { find: /^@cors-dev-proxy\/nuxt$/, replacement: src('nuxt/src/index.ts') },
  { find: /^@cors-dev-proxy\/next$/, replacement: src('next/src/index.ts') },
  { find: /^@cors-dev-proxy\/angular$/, replacement: src('angular/src/index.ts') },
  { find: /^@cors-dev-proxy\/playwright$/, replacement: src('playwright/src/index.ts') },
]

/*
 * Four projects, split by what each file imports (test/projects/test-projects.ts): `unit` starts no
 * child process, browser or dev server and needs no build (`pnpm test:fast`, under a minute);
 * `integration` is everything else (the CLI tests and the CommonJS/ESM config tests load the built
 * `dist` on purpose, the docs tests read the built site) but `network`, the files that change the
 * machine's network, which run last and one at a time, and `stress`, the volume tests, which start
 * no browser and run beside `network`.
 */
const projects = splitTestFiles(root, sourceAliases)

export default defineConfig({
  resolve: { alias: sourceAliases },
  test: {
    // test/adapters runs once per Vite / webpack-dev-server version, from test/matrix/run-matrix.mjs.
    exclude: ['**/node_modules/**', '**/dist/**', ...OUTSIDE_PROJECTS.map((folder) => `${folder}/**`)],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll waits until its condition holds, 1 s by default: beside a second CPU-bound process
    // a connection closed or a log line written "at once" came later than that. The poll ends as
    // soon as the condition holds, so the longer wait costs a passing test nothing.
    expect: { poll: { timeout: 20_000 } },
    pool: 'forks',
    // Most files wait on sockets, child processes and Chromium rather than compute: two at a time
    // overlap those waits (Vitest's default on a 2-core machine is one, availableParallelism - 1).
    maxWorkers: 2,
    // On a fresh clone (no durations cached) the slowest files start first, so none runs on alone at the end.
    sequence: { sequencer: SlowFilesFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // Every test file but the integration ones, so that a file added under `--watch` is picked up.
          include: [...TEST_FILE_GLOBS],
          exclude: [...projects.integration, ...projects.network, ...projects.stress],
          // One module graph per worker instead of one per file: importing the sources again for each
          // of 150 files was most of this project's time (import 269 s of 470 s at load 13, 45 s
          // without isolation; CPU 260 s against 111 s). These files start no process and close what
          // they open, which is what sharing a worker asks of them.
          isolate: false,
          // A plain wait, not a bound on the code: beside a second CPU-bound process a file's
          // tests take several times as long (scrypt at its full cost, 8 MB uploads, 20 rounds of
          // a race), and 30 s ran out. A hang still fails, two minutes later.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      { extends: true, test: { name: 'integration', include: projects.integration } },
      {
        extends: true,
        test: {
          name: 'network',
          include: projects.network,
          // The lab's namespaces add a veth pair in the root namespace: every Chromium outside them
          // takes that as a network change and aborts its requests (a playground burst beside the
          // lab's tests waited 20 s for an answer, twice in three CI runs). These files run after
          // every other project, one at a time.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'stress',
          include: projects.stress,
          // Beside `network` (same group): its files wait on lost packets, these keep the CPU busy
          // and open no browser, which the network changes would disturb.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
})
