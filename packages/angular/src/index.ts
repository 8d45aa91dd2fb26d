export type {
  CorsDevProxyConfig,
  CorsDevProxyOptions,
  RouteConfig,
  RouteOptions,
  Routes,
} from '@cors-dev-proxy/core'
export type { AngularProxyConfig, AngularProxyEntry, ViteProxyServer } from './angular-proxy.js'
export { angularProxy } from './angular-proxy.js'
export type { NgServeArrayEntry, NgServeRouteOptions, NgServeRoutes } from './ng-serve-routes.js'
export type { HttpxyServer, WebpackDevServerFields } from './webpack-dev-server-fields.js'
