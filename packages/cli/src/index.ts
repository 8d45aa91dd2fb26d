// The `cors-dev-proxy` package: the CLI (bin `cors-dev-proxy`), and `defineConfig` for its
// configuration file, so `cors-dev-proxy.config.ts` needs no other import; `loadConfig` reads that
// file as the commands do (for @cors-dev-proxy/playwright's `configFile`).

export type { CorsDevProxyConfig } from '@cors-dev-proxy/core'
export { defineConfig } from '@cors-dev-proxy/core'
export type { LoadedConfig } from './config/load-config.js'
export { loadConfig } from './config/load-config.js'
