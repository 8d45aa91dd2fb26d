import { defineConfig } from 'vitest/config'
import base from '../../vitest.config.js'

// The adapter suites against real dev servers, run once per cell of the version matrix by
// run-matrix.mjs (the default `vitest run` excludes them, so CI runs each cell once). The base's
// unit and integration projects are left out: this config runs its own files, as one project.
const { projects: _projects, ...baseTest } = base.test ?? {}

export default defineConfig({
  ...base,
  root: new URL('../..', import.meta.url).pathname,
  test: {
    ...baseTest,
    include: ['test/adapters/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    // Dev servers and builds compete for 2 cores: one file at a time keeps the run predictable.
    fileParallelism: false,
    // One module graph for the cell's files: each imported our sources and the dev server again,
    // which was most of a cell's CPU (vite 8 cell: 11.6 s of user CPU isolated, 7.3 s shared). The
    // suites close every server they start and read the dev server's version from the cell's
    // environment, which is the same for all its files.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
