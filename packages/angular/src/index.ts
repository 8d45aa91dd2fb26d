export type {
  CorsDevProxyConfig,
  CorsDevProxyOptions,
  RouteConfig,
  RouteOptions,
  Routes,
} from '@cors-dev-proxy/core'
export type { AngularProxyConfig, AngularProxyEntry, ViteProxyServer } from './angular-proxy.js'
export { angularProxy } from './angular-proxy.js'
export type { HttpxyServer, WebpackDevServerFields } from './webpack-dev-server-fields.js'
