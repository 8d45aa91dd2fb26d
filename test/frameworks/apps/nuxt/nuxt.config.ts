import { routes } from '../routes.mjs'

// A plain object: Nuxt reads it as defineNuxtConfig would return it, and the repository's
// typecheck needs no Nuxt installed.
export default {
  modules: ['@cors-dev-proxy/nuxt'],
  corsDevProxy: { routes },
  devtools: { enabled: false },
  telemetry: false,
  compatibilityDate: '2025-07-15',
}
