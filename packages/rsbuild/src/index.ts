export type {
  CorsDevProxyConfig,
  CorsDevProxyOptions,
  RouteConfig,
  RouteOptions,
  Routes,
} from '@cors-dev-proxy/core'
export { pluginCorsDevProxy } from './cors-dev-proxy-plugin.js'
