export type { CorsOptions, CorsOriginFunction, CorsOriginResult } from './cors/cors-options.js'
export type { CorsDevProxyErrorCode } from './errors.js'
export { CorsDevProxyError } from './errors.js'
export type { MockBackendOptions, MockCorsMode } from './mock/mock-options.js'
export type {
  CookieRewrite,
  CorsDevProxyOptions,
  LogLevel,
  LogSink,
  PathRewrite,
  ProxyRequest,
  RouteConfig,
  RouteOptions,
  Routes,
} from './options.js'
export type { ResolvedCorsDevProxyOptions, ResolvedRoute } from './resolved-route.js'
