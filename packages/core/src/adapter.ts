// '@cors-dev-proxy/core/adapter': what the dev-server adapters and the CLI share, and nothing a
// config file needs. Documented on the docs' API page ("Writing an adapter"); semver applies to it like
// to the main entry.

export type { AllowedOrigins, CorsOriginPolicy } from './config/cors-origin-policy.js'
export { consoleLogSink } from './config/defaults.js'
export { splitConfig } from './config/define-config.js'
export { editDistance } from './config/did-you-mean.js'
export type { ResolvedCorsOptions } from './config/resolve-cors-options.js'
export type {
  ResolvedCorsDevProxyOptions,
  ResolvedForwardRoute,
  ResolvedJsonpOptions,
  ResolvedMockRoute,
  ResolvedRoute,
} from './config/resolved-route.js'
export { WRITTEN_ROUTE } from './config/written-route.js'
// The OpenAPI checker for the CLI's `check --openapi`: load-contract.ts imports swagger-parser
// and Ajv by dynamic `import()` only, so this entry still loads neither (test/contract/lazy-load.test.ts).
export type {
  Contract,
  ContractCheck,
  ContractOperation,
  ContractRequest,
  ContractResponse,
  ContractViolation,
} from './contract/contract-types.js'
export { loadContract } from './contract/load-contract.js'
export type { NodeOptionsHost } from './fetch/refuse-node-options.js'
export { refuseNodeOptions } from './fetch/refuse-node-options.js'
export { isHostAllowed } from './http/allowed-hosts.js'
export { answerSocket } from './http/answer-socket.js'
export { MASK } from './http/mask-secrets.js'
// The target path a route sends a rewritten path to, as the proxy joins them (`check --openapi`).
export { joinTargetPath } from './http/rewrite-path.js'
export { publishServerUrl } from './http/server-fetch.js'
// The JSON the inspector's endpoints answer, for clients of its HTTP API (the CLI's `mcp`).
export type { ExplainedCall } from './inspector/call-explainer.js'
export type { CallExplanation, FailedCall } from './inspector/call-explanation.js'
export type { ExchangeCorsVerdict, ExchangeView } from './inspector/exchange-view.js'
export type { WebSocketCarrier } from './inspector/explain-websocket.js'
export { INSPECTOR_ANSWER_HEADER, INSPECTOR_BASE } from './inspector/inspector-guard.js'
export type { Logger } from './log/logger.js'
export type { RouteMatch } from './pipeline/match-route.js'
export { matchRoute, prefixMatches } from './pipeline/match-route.js'
export type { FetchHost } from './proxy/create-fetch-handler.js'
export { createFetchHandlerFor } from './proxy/create-fetch-handler.js'
export type { DevServerHost, DevServerProxy } from './proxy/dev-server-proxy.js'
export { createDevServerProxy } from './proxy/dev-server-proxy.js'
export { resolveProxyOptions as resolveOptions } from './proxy/resolve-proxy-options.js'
export type { AppMiddleware, BeforeAppOptions } from './proxy/serve-before-app.js'
export { serveBeforeApp } from './proxy/serve-before-app.js'
export type { ControlView, RouteControlView } from './stand-ins/control/control-board.js'
export { MOCK_SWITCH_HELP } from './stand-ins/mock-backend/mock-switches.js'
export type { ResolvedMockBackendOptions } from './stand-ins/mock-backend/options/resolve-echo-backend-options.js'
export type { HarImportResult } from './stand-ins/recordings/har-import.js'
export { HarFormatError, importHar } from './stand-ins/recordings/har-import.js'
export type { ResolvedRecordingsOptions } from './stand-ins/recordings/options/resolve-recordings-options.js'
// A route's recordings read and rewritten from outside a proxy (the CLI's `recordings verify`).
export type {
  RecordedAnswer,
  RecordedBody,
  RecordedRequest,
  RecordingFile,
  SecretAnswers,
} from './stand-ins/recordings/recording-format.js'
export type {
  LiveAnswer,
  RouteRecordingFile,
  RouteRecordingFolder,
} from './stand-ins/recordings/route-recording-files.js'
export { readRouteRecordings, replaceLastAnswer } from './stand-ins/recordings/route-recording-files.js'
export type { ExportedReplayData } from './stand-ins/replay-session/export-replay-data.js'
export { exportReplayData } from './stand-ins/replay-session/export-replay-data.js'
