// '@cors-dev-proxy/core/replay-dispatcher': a route's recordings and mocks served to code under
// test that calls `fetch`, through an undici dispatcher, with no backend and no MSW. Node only.
// Semver applies to it like to the main entry.

export type {
  ReplayDispatcher,
  ReplayDispatcherOptions,
} from './proxy/replay-dispatcher.js'
export { replayDispatcher } from './proxy/replay-dispatcher.js'
