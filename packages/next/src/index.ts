export type {
  CorsDevProxyConfig,
  CorsDevProxyOptions,
  RouteConfig,
  RouteOptions,
  Routes,
} from '@cors-dev-proxy/core'
export { serverFetch, serverUrl } from '@cors-dev-proxy/core'
export type { NextProxyHandler } from './create-next-proxy.js'
export { createNextProxy } from './create-next-proxy.js'
export type { NextAppLike, NextAppOptions, NextFactory, NextServer } from './create-next-server.js'
export { createNextServer } from './create-next-server.js'
export { isNextUpgrade } from './next-upgrades.js'
export type { NextConfigInput, NextConfigLike } from './with-cors-dev-proxy.js'
export { PHASE_DEVELOPMENT_SERVER, withCorsDevProxy } from './with-cors-dev-proxy.js'
