// The `cors-dev-proxy` package: the CLI (bin `cors-dev-proxy`), and `defineConfig` for its
// configuration file, so `cors-dev-proxy.config.ts` needs no other import.

export type { CorsDevProxyConfig } from '@cors-dev-proxy/core'
export { defineConfig } from '@cors-dev-proxy/core'
