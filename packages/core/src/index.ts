// The public API of @cors-dev-proxy/core: what the docs' API page (docs/reference/api.md) documents, nothing else. What the
// adapters (and the CLI) share lives behind '@cors-dev-proxy/core/adapter' (adapter.ts).

export type { AddressSpace } from './browser/address-space.js'
export { addressSpaceOfAddress } from './browser/address-space.js'
export type {
  BrowserAnswer,
  BrowserCall,
  BrowserCallResult,
  BrowserExchange,
  BrowserRequest,
  BrowserSend,
} from './browser/browser-call.js'
export type { BrowserModel, BrowserModelOptions } from './browser/browser-model.js'
export { createBrowserModel } from './browser/browser-model.js'
export type { CheckCorsOptions, CheckCorsRequest, CheckCorsResult } from './browser/check-cors.js'
export { checkCors } from './browser/check-cors.js'
export type { CorsError, CorsErrorKind, CorsInitiator } from './browser/chromium-messages.js'
// The browser model: the Fetch standard's and Chromium's rules, as pure functions
export type {
  ClassifyRequestInput,
  PreflightReason,
  RequestClassification,
} from './browser/classify-request.js'
export { classifyRequest } from './browser/classify-request.js'
export type {
  CorsPreflightResponseInput,
  CorsRequestInput,
  CorsResponseInput,
  CorsVerdict,
} from './browser/evaluate-cors.js'
export { evaluateCors } from './browser/evaluate-cors.js'
export type {
  LocalNetworkAccessInput,
  LocalNetworkAccessPrediction,
  LocalNetworkPermission,
} from './browser/local-network-access.js'
export { predictLocalNetworkAccess } from './browser/local-network-access.js'
export type { NetworkSend, NetworkSendOptions } from './browser/network-send.js'
export { createNetworkSend } from './browser/network-send.js'
export type {
  PreflightCache,
  PreflightCacheEntry,
  PreflightCacheKey,
  PreflightCacheQuery,
} from './browser/preflight-cache.js'
export { createPreflightCache } from './browser/preflight-cache.js'
export type { RequestBodyInput } from './browser/request-body.js'
export { ALPN_NEGOTIATION_FAILED } from './browser/streaming-upload.js'
// Our CORS policy, standalone
export type { CorsOptions, CorsOriginFunction, CorsOriginResult } from './config/cors-options.js'
export type { CorsDevProxyConfig } from './config/define-config.js'
export { defineConfig } from './config/define-config.js'
export type { CorsDevProxyErrorCode } from './config/errors.js'
export { CorsDevProxyError } from './config/errors.js'
export type { InspectorOptions } from './config/inspector-options.js'
export type {
  CookieRewrite,
  CorsDevProxyOptions,
  JsonpOptions,
  LogLevel,
  LogSink,
  PathRewrite,
  RouteConfig,
  RouteOptions,
  Routes,
} from './config/options.js'
export type { CorsMiddleware } from './cors/cors-middleware.js'
export { createCorsMiddleware } from './cors/cors-middleware.js'
export type { HeadersInput } from './http/header-list.js'
export { isLoopbackOrigin } from './http/loopback-origin.js'
export type { OpaqueOrigin, ParsedOrigin, TupleOrigin } from './http/parse-origin.js'
export { isSameOrigin, parseOrigin, serializeOrigin } from './http/parse-origin.js'
export type { NextFunction, ProxyRequest, ProxyResponse } from './http/proxy-types.js'
// Server-side code (SSR) calling the same routes
export { SERVER_URL_VARIABLE, serverFetch, serverUrl } from './http/server-fetch.js'
// JSONP, server side (the browser helper is '@cors-dev-proxy/core/client')
export type { JsonpMiddleware, JsonpMiddlewareOptions } from './jsonp/jsonp-middleware.js'
export { createJsonpMiddleware } from './jsonp/jsonp-middleware.js'
// The proxy
export type { CorsDevProxy } from './proxy/create-cors-dev-proxy.js'
export type {
  FetchConnectionInfo,
  FetchHandler,
  FetchHandlerOptions,
  FetchWebSocketAnswer,
  FetchWebSocketBridge,
  NodeIncoming,
  NodeOutgoing,
  WebSocketPeer,
} from './proxy/create-fetch-handler.js'
export { createFetchHandler } from './proxy/create-fetch-handler.js'
export { createCorsDevProxy } from './proxy/node-middleware.js'
export type { MockBackend } from './stand-ins/mock-backend/mock-backend.js'
export { createMockBackend } from './stand-ins/mock-backend/mock-backend.js'
export type { MockEcho } from './stand-ins/mock-backend/mock-echo.js'
export type { MockRequestLog } from './stand-ins/mock-backend/mock-log.js'
// The mock backend
export type {
  MockBackendOptions,
  MockCorsMode,
} from './stand-ins/mock-backend/options/echo-backend-options.js'
export type {
  RunningMockBackend,
  StartMockBackendOptions,
} from './stand-ins/mock-backend/start-mock-backend.js'
export { startMockBackend } from './stand-ins/mock-backend/start-mock-backend.js'
export type {
  MatchFunction,
  MatchOption,
  MatchRequest,
  MatchRules,
} from './stand-ins/recordings/options/route-match-options.js'
// Mocks beside real routes (a route's `mocks`)
export type {
  MockAnswer,
  MockFunction,
  MockRequest,
  MocksOption,
} from './stand-ins/route-mocks/options/route-mocks-options.js'
