import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const src = (path: string) => fileURLToPath(new URL(`./packages/${path}`, import.meta.url))

// Tests import the packages' sources so that a change is tested without a rebuild;
// the CommonJS/ESM config tests and the CLI tests load the built `dist` on purpose.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@cors-dev-proxy\/core\/client$/, replacement: src('core/src/client/index.ts') },
      { find: /^@cors-dev-proxy\/core\/adapter$/, replacement: src('core/src/adapter.ts') },
      { find: /^@cors-dev-proxy\/core$/, replacement: src('core/src/index.ts') },
      { find: /^@cors-dev-proxy\/vite$/, replacement: src('vite/src/index.ts') },
      { find: /^@cors-dev-proxy\/webpack$/, replacement: src('webpack/src/index.ts') },
      { find: /^@cors-dev-proxy\/rsbuild$/, replacement: src('rsbuild/src/index.ts') },
      { find: /^@cors-dev-proxy\/nuxt$/, replacement: src('nuxt/src/index.ts') },
    ],
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    // test/adapters runs once per Vite / webpack-dev-server version, from test/matrix/run-matrix.mjs.
    exclude: ['**/node_modules/**', '**/dist/**', 'test/matrix/**', 'test/adapters/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most files wait on sockets, child processes and Chromium rather than compute: two at a time
    // overlap those waits (Vitest's default on a 2-core machine is one, availableParallelism - 1).
    maxWorkers: 2,
  },
})
