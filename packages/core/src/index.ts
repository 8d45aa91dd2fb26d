export type { CheckCorsOptions, CheckCorsRequest, CheckCorsResult } from './browser/check-cors.js'
export { checkCors } from './browser/check-cors.js'
export type {
  ChromiumCorsMessageInput,
  CorsError,
  CorsErrorKind,
  CorsInitiator,
} from './browser/chromium-messages.js'
export { chromiumCorsMessage, corsErrorText } from './browser/chromium-messages.js'
export type {
  ClassifyRequestInput,
  PreflightReason,
  RequestClassification,
} from './browser/classify-request.js'
export { classifyRequest, isSafelistedMethod } from './browser/classify-request.js'
export type { CorsFixContext } from './browser/cors-fix.js'
export { corsFix } from './browser/cors-fix.js'
export type { CorsDiagnosis, DiagnoseResponseInput } from './browser/diagnose-response.js'
export { diagnoseResponse } from './browser/diagnose-response.js'
export type {
  CorsPreflightResponseInput,
  CorsRequestInput,
  CorsResponseInput,
  CorsVerdict,
} from './browser/evaluate-cors.js'
export { checkAccess, evaluateCors } from './browser/evaluate-cors.js'
export {
  isForbiddenMethod,
  isForbiddenRequestHeader,
  isSafelistedRange,
  mimeEssence,
} from './browser/request-header-rules.js'
export { CALLBACK_NAME_RULE, isValidCallbackName, MAX_CALLBACK_NAME_LENGTH } from './config/callback-name.js'
export type { CorsOptions, CorsOriginFunction, CorsOriginResult } from './config/cors-options.js'
export { didYouMean, editDistance } from './config/did-you-mean.js'
export type { CorsDevProxyErrorCode } from './config/errors.js'
export { CorsDevProxyError } from './config/errors.js'
export type { MockBackendOptions, MockCorsMode } from './config/mock-options.js'
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
} from './config/options.js'
export type { PathRewriter, PathRewriterOptions } from './config/path-rewrite.js'
export { createPathRewriter, joinTargetPath } from './config/path-rewrite.js'
export type {
  CorsOriginPolicy,
  ResolveCorsContext,
  ResolvedCorsOptions,
} from './config/resolve-cors-options.js'
export { resolveCorsOptions } from './config/resolve-cors-options.js'
export { resolveOptions } from './config/resolve-options.js'
export type { RouteDefaults } from './config/resolve-route.js'
export { ROUTE_DEFAULTS, resolveRoute } from './config/resolve-route.js'
export type { ResolvedCorsDevProxyOptions, ResolvedRoute } from './config/resolved-route.js'
export type { ValidatedTarget } from './config/validate-target.js'
export { validateTarget } from './config/validate-target.js'
export type { CorsDecider, CorsDecision, CorsHeader, CorsResponse } from './cors/cors-decision.js'
export { appendVary, applyCorsDecision, createCorsDecider, isCorsPreflight } from './cors/cors-decision.js'
export type { CorsMiddleware, CorsMiddlewareHooks } from './cors/cors-middleware.js'
export { createCorsMiddleware, endPreflight } from './cors/cors-middleware.js'
export type { CorsDevProxy } from './create-cors-dev-proxy.js'
export { createCorsDevProxy } from './create-cors-dev-proxy.js'
export { createRoutePipeline } from './create-route-pipeline.js'
export { createLoggedMiddleware } from './exchange-log.js'
export { ClientAbort } from './forward/client-abort.js'
export { rewriteSetCookie } from './forward/cookie-rewrite.js'
export type {
  ForwardDeps,
  ForwardRoute,
  RequestUpstreamOptions,
  UpstreamResponse,
} from './forward/forward-request.js'
export { forwardRequest, requestUpstream, sendUpstreamResponse } from './forward/forward-request.js'
export type { FailureContext, UpstreamFailure } from './forward/proxy-error.js'
export {
  describeUpstreamError,
  errorBody,
  errorCode,
  logUpstreamFailure,
  sendUpstreamFailure,
  targetLabel,
} from './forward/proxy-error.js'
export type { UpstreamHeaders } from './forward/request-headers.js'
export { buildUpstreamHeaders } from './forward/request-headers.js'
export type { ClientConnection } from './forward/response-headers.js'
export { buildClientHeaders } from './forward/response-headers.js'
export type { UpstreamPool, UpstreamPoolOptions } from './forward/upstream-pool.js'
export { createUpstreamPool, httpOrigin } from './forward/upstream-pool.js'
export type { UpgradeDeps } from './forward/websocket-upgrade.js'
export { forwardUpgrade } from './forward/websocket-upgrade.js'
export type { HeadersInput } from './http/header-list.js'
export { connectionListedHeaders, HOP_BY_HOP_HEADERS } from './http/hop-by-hop.js'
export { isLoopbackOrigin } from './http/loopback-origin.js'
export { normalizeMethod } from './http/method.js'
export { normalizePath, splitPathAndQuery } from './http/normalize-path.js'
export type { OpaqueOrigin, ParsedOrigin, TupleOrigin } from './http/parse-origin.js'
export { isSameOrigin, OPAQUE_ORIGIN, originOf, parseOrigin, serializeOrigin } from './http/parse-origin.js'
export { clientHost, isEncrypted } from './http/request-origin.js'
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
export { describeExchange, describeProtocol, describeRoutes } from './log/describe-routes.js'
export type { Logger } from './log/logger.js'
export { consoleLogSink, createLogger } from './log/logger.js'
export type { MockBackend, ResolvedMockBackendOptions } from './mock/mock-backend.js'
export { createMockBackend, resolveMockBackendOptions } from './mock/mock-backend.js'
export type { MockEcho } from './mock/mock-echo.js'
export type { MockProtocol, MockResponse } from './mock/mock-http.js'
export type { MockRequestLog } from './mock/mock-log.js'
export type { MockSwitchError, MockSwitches, MockSwitchesResult } from './mock/mock-switches.js'
export { MAX_MOCK_DELAY, parseMockSwitches } from './mock/mock-switches.js'
export { MOCK_WEBSOCKET_PATH } from './mock/mock-websocket.js'
export type { RunningMockBackend, StartMockBackendOptions } from './mock/start-mock-backend.js'
export { startMockBackend } from './mock/start-mock-backend.js'
export type { RouteMatch } from './pipeline/match-route.js'
export { isOriginForm, matchRoute, prefixMatches } from './pipeline/match-route.js'
export { refuseConnect, refuseConnectOn, refuseRequest } from './pipeline/refuse-request.js'
export type { NextFunction, RouteStep } from './pipeline/route-pipeline.js'
export { composeSteps } from './pipeline/route-pipeline.js'
