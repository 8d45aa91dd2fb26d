export type {
  CorsDevProxyConfig,
  CorsDevProxyOptions,
  RouteConfig,
  RouteOptions,
  Routes,
} from '@cors-dev-proxy/core'
export type { WebpackCorsDevProxyOptions, WebpackDevServerSetup } from './cors-dev-proxy.js'
export { corsDevProxy } from './cors-dev-proxy.js'
export type { DevServerLike, DevServerMiddleware, NamedMiddleware } from './dev-server-types.js'
export type { StorybookRouter } from './storybook-middleware.js'
export { storybookMiddleware, storybookPreviewHead } from './storybook-middleware.js'
