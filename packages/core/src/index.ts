export type { CheckCorsOptions, CheckCorsRequest, CheckCorsResult } from './check/check-cors.js'
export { checkCors } from './check/check-cors.js'
export { ClientAbort } from './client-abort.js'
export { rewriteSetCookie } from './cookie-rewrite.js'
export type {
  ChromiumCorsMessageInput,
  CorsError,
  CorsErrorKind,
  CorsInitiator,
} from './cors/chromium-messages.js'
export { chromiumCorsMessage, corsErrorText } from './cors/chromium-messages.js'
export type {
  ClassifyRequestInput,
  PreflightReason,
  RequestClassification,
} from './cors/classify-request.js'
export { classifyRequest, isSafelistedMethod, normalizeMethod } from './cors/classify-request.js'
export type { CorsDecider, CorsDecision, CorsHeader, CorsResponse } from './cors/cors-decision.js'
export { appendVary, applyCorsDecision, createCorsDecider, isCorsPreflight } from './cors/cors-decision.js'
export type { CorsFixContext } from './cors/cors-fix.js'
export { corsFix } from './cors/cors-fix.js'
export type { CorsMiddleware, CorsMiddlewareHooks } from './cors/cors-middleware.js'
export { createCorsMiddleware, endPreflight } from './cors/cors-middleware.js'
export type { CorsOptions, CorsOriginFunction, CorsOriginResult } from './cors/cors-options.js'
export { isLoopbackOrigin } from './cors/default-origin.js'
export type { CorsDiagnosis, DiagnoseResponseInput } from './cors/diagnose-response.js'
export { diagnoseResponse } from './cors/diagnose-response.js'
export type {
  CorsPreflightResponseInput,
  CorsRequestInput,
  CorsResponseInput,
  CorsVerdict,
} from './cors/evaluate-cors.js'
export { checkAccess, evaluateCors } from './cors/evaluate-cors.js'
export type { HeadersInput } from './cors/header-list.js'
export type { OpaqueOrigin, ParsedOrigin, TupleOrigin } from './cors/parse-origin.js'
export { isSameOrigin, OPAQUE_ORIGIN, originOf, parseOrigin, serializeOrigin } from './cors/parse-origin.js'
export {
  isForbiddenMethod,
  isForbiddenRequestHeader,
  isSafelistedRange,
  mimeEssence,
} from './cors/request-header-rules.js'
export type {
  CorsOriginPolicy,
  ResolveCorsContext,
  ResolvedCorsOptions,
} from './cors/resolve-cors-options.js'
export { resolveCorsOptions } from './cors/resolve-cors-options.js'
export type { CorsDevProxy } from './create-cors-dev-proxy.js'
export { createCorsDevProxy } from './create-cors-dev-proxy.js'
export { describeExchange, describeProtocol, describeRoutes } from './describe-routes.js'
export { didYouMean, editDistance } from './did-you-mean.js'
export type { CorsDevProxyErrorCode } from './errors.js'
export { CorsDevProxyError } from './errors.js'
export { createLoggedMiddleware } from './exchange-log.js'
export type {
  ForwardDeps,
  ForwardRoute,
  RequestUpstreamOptions,
  UpstreamResponse,
} from './forward-request.js'
export { forwardRequest, requestUpstream, sendUpstreamResponse } from './forward-request.js'
export { connectionListedHeaders, HOP_BY_HOP_HEADERS } from './hop-by-hop.js'
export { CALLBACK_NAME_RULE, isValidCallbackName, MAX_CALLBACK_NAME_LENGTH } from './jsonp/callback-name.js'
export type { InterceptableResponse } from './jsonp/jsonp-intercept.js'
export { interceptJsonAnswer, MAX_JSONP_SOURCE_BYTES } from './jsonp/jsonp-intercept.js'
export type { JsonpMiddleware, JsonpMiddlewareOptions } from './jsonp/jsonp-middleware.js'
export { admitJsonpRequest, createJsonpMiddleware } from './jsonp/jsonp-middleware.js'
export { isJsonContentType, jsonpCallbackOf, wrapJsonText } from './jsonp/jsonp-request.js'
export type { JsonpResponse } from './jsonp/jsonp-response.js'
export {
  JSONP_CONTENT_TYPE,
  jsonpBody,
  sendJsonp,
  sendJsonpCallbackError,
  sendJsonpMethodNotAllowed,
} from './jsonp/jsonp-response.js'
export type { Logger } from './logger.js'
export { consoleLogSink, createLogger } from './logger.js'
export type { RouteMatch } from './match-route.js'
export { isOriginForm, matchRoute, prefixMatches } from './match-route.js'
export type { MockBackend, ResolvedMockBackendOptions } from './mock/mock-backend.js'
export { createMockBackend, resolveMockBackendOptions } from './mock/mock-backend.js'
export type { MockEcho } from './mock/mock-echo.js'
export type { MockProtocol, MockResponse } from './mock/mock-http.js'
export type { MockRequestLog } from './mock/mock-log.js'
export type { MockBackendOptions, MockCorsMode } from './mock/mock-options.js'
export type { MockSwitchError, MockSwitches, MockSwitchesResult } from './mock/mock-switches.js'
export { MAX_MOCK_DELAY, parseMockSwitches } from './mock/mock-switches.js'
export { MOCK_WEBSOCKET_PATH } from './mock/mock-websocket.js'
export type { RunningMockBackend, StartMockBackendOptions } from './mock/start-mock-backend.js'
export { startMockBackend } from './mock/start-mock-backend.js'
export { normalizePath, splitPathAndQuery } from './normalize-path.js'
export type {
  CookieRewrite,
  CorsDevProxyOptions,
  LogLevel,
  LogSink,
  PathRewrite,
  ProxyRequest,
  ProxyResponse,
  RouteConfig,
  RouteOptions,
  Routes,
} from './options.js'
export type { PathRewriter, PathRewriterOptions } from './path-rewrite.js'
export { createPathRewriter, joinTargetPath } from './path-rewrite.js'
export type { FailureContext, UpstreamFailure } from './proxy-error.js'
export {
  describeUpstreamError,
  errorBody,
  errorCode,
  logUpstreamFailure,
  sendUpstreamFailure,
  targetLabel,
} from './proxy-error.js'
export { refuseConnect, refuseConnectOn, refuseRequest } from './refuse-request.js'
export type { UpstreamHeaders } from './request-headers.js'
export { buildUpstreamHeaders, clientHost, isEncrypted } from './request-headers.js'
export { resolveOptions } from './resolve-options.js'
export type { ResolveRouteHooks, RouteDefaults } from './resolve-route.js'
export { ROUTE_DEFAULTS, resolveRoute } from './resolve-route.js'
export type { ResolvedCorsDevProxyOptions, ResolvedRoute } from './resolved-route.js'
export type { ClientConnection } from './response-headers.js'
export { buildClientHeaders } from './response-headers.js'
export type { NextFunction, RoutePipeline, RoutePipelineDeps, RouteStep } from './route-pipeline.js'
export { composeSteps, createRoutePipeline } from './route-pipeline.js'
export type { UpstreamPool, UpstreamPoolOptions } from './upstream-pool.js'
export { createUpstreamPool, httpOrigin } from './upstream-pool.js'
export type { ValidatedTarget } from './validate-target.js'
export { validateTarget } from './validate-target.js'
export type { UpgradeDeps } from './websocket-upgrade.js'
export { forwardUpgrade } from './websocket-upgrade.js'
