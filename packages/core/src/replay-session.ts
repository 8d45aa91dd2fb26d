// '@cors-dev-proxy/core/replay-session': a route's recordings and mocks answered in memory, with
// no Node import, for the module `cors-dev-proxy export-msw` writes (MSW handlers in Vitest and
// in the browser). Semver applies to it like to the main entry.

export type {
  ReplayAnswer,
  ReplayData,
  ReplayMatchRules,
  ReplayMock,
  ReplayRecording,
} from './stand-ins/replay-session/replay-data.js'
export type { ReplayOptions, ReplaySession } from './stand-ins/replay-session/replay-session.js'
export { createReplaySession } from './stand-ins/replay-session/replay-session.js'
