export type {
  CorsDevProxyConfig,
  CorsDevProxyOptions,
  RouteConfig,
  RouteOptions,
  Routes,
} from '@cors-dev-proxy/core'
export { corsDevProxy } from './cors-dev-proxy-plugin.js'
export type { AttachableServer } from './middleware-mode.js'
export { attachCorsDevProxy } from './middleware-mode.js'
