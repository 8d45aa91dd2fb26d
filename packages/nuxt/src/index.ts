export type {
  CorsDevProxyConfig,
  CorsDevProxyOptions,
  RouteConfig,
  RouteOptions,
  Routes,
} from '@cors-dev-proxy/core'
export { corsDevProxyModule, corsDevProxyModule as default } from './module.js'
export type { CorsDevProxyModuleOptions } from './module-options.js'
