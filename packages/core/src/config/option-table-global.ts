import { RECORDINGS_OPTION } from '../stand-ins/recordings/options/recordings-option-table.js'
import { option, richOption } from './option-entry.js'
import type { LogLevel, LogSink } from './option-value-types.js'
import { checkBoolean, checkLogLevel, checkLogSink } from './validate-values.js'

/** The options only the shared options (the second argument) take. */
export const GLOBAL_ONLY_OPTIONS = {
  /**
   * How much to log: `'debug'` adds one line per answered request with both hops, the protocols, the status
   * and the time (`h2 GET /api/users → http://localhost:3000/users 200 12 ms`).
   */
  log: option<LogLevel>({
    name: 'log',
    level: 'global',
    doc: [
      "How much to log: `'debug'` adds one line per answered request with both hops, the",
      'protocols, the status and the time (`h2 GET /api/users → http://localhost:3000/users 200 12 ms`).',
    ],
    defaultText: "'info'",
    example: "'debug'",
    fixValue: "'debug'",
    check: checkLogLevel,
    default: 'info',
  }),
  /** Where cors-dev-proxy's own lines go: `{ info, warn, error }`. */
  logger: option<LogSink>({
    name: 'logger',
    level: 'global',
    doc: [
      "Where cors-dev-proxy's own lines go: `{ info, warn, error }`. The adapters pass the dev",
      "server's logger (Vite's, webpack's infrastructure logger, Rsbuild's, Nuxt's) unless this is set.",
    ],
    defaultText: "console, or the dev server's logger",
    example: '{ info: console.log, warn: console.warn, error: console.error }',
    fixValue: 'console',
    check: checkLogSink,
  }),
  /**
   * For `createCorsDevProxy(...).middleware` mounted with `app.use` alone: with `ws` routes, the first
   * request it sees subscribes it to that server's `'upgrade'` event, as http-proxy-middleware does with
   * `ws: true`.
   */
  subscribeUpgrade: option<boolean>({
    name: 'subscribeUpgrade',
    level: 'global',
    doc: [
      'For `createCorsDevProxy(...).middleware` mounted with `app.use` alone: with `ws` routes, the',
      "first request it sees subscribes it to that server's `'upgrade'` event, as",
      'http-proxy-middleware does with `ws: true`. `false` leaves the wiring to you',
      "(`server.on('upgrade', proxy.upgrade)`). Wiring both never handles an upgrade twice. The",
      'adapters wire upgrades themselves and ignore it.',
    ],
    defaultText: 'true',
    example: 'false',
    check: (value, option) => checkBoolean(value, option, 'subscribeUpgrade'),
    default: true,
  }),
  /**
   * The CORS overlay: the Vite, webpack/Rspack, Rsbuild and Nuxt adapters add a small dev-only script to
   * your pages (`/__cors-dev-proxy/client.js`) that watches `fetch`, `XMLHttpRequest`, `EventSource` and
   * `WebSocket` without changing what they return or send, and, when a call to another origin fails, asks
   * the dev server why (`POST /__cors-dev-proxy/explain`) and shows the answer in a
   * `<cors-dev-proxy-overlay>` element: Chromium's console text, the cause, and the route to add.
   */
  overlay: option<boolean>({
    name: 'overlay',
    level: 'global',
    doc: [
      'The CORS overlay: the Vite, webpack/Rspack, Rsbuild and Nuxt adapters add a small dev-only',
      'script to your pages (`/__cors-dev-proxy/client.js`) that watches `fetch`, `XMLHttpRequest`,',
      '`EventSource` and `WebSocket` without changing what they return or send, and, when a call to',
      'another origin fails, asks the dev server why (`POST /__cors-dev-proxy/explain`) and shows',
      "the answer in a `<cors-dev-proxy-overlay>` element: Chromium's console text, the cause, and",
      'the route to add. `false` removes the script and the element entirely (and the `explain`',
      'endpoint with them). `cors-dev-proxy serve` never injects it.',
    ],
    defaultText: 'true',
    example: 'false',
    check: (value, option) => checkBoolean(value, option, 'overlay'),
    default: true,
  }),
  inspector: richOption({
    name: 'inspector',
    level: 'global',
    doc: [
      'The exchange inspector at `/__cors-dev-proxy/`: the recent exchanges of every route (a ring',
      'of `exchanges` entries; `Authorization`, `Cookie`, `Set-Cookie` and token-like query values',
      'masked), live over server-sent events, a HAR 1.2 export at `/__cors-dev-proxy/har`, and',
      'replay. Bodies are copied only while an inspector is connected. `false` records nothing and',
      'answers 404 under `/__cors-dev-proxy/` (except what the overlay needs); an object sets the',
      "ring's size and the body limit (see `InspectorOptions`).",
    ],
    defaultText: 'true (200 exchanges, 65536 bytes of each body)',
    example: '{ exchanges: 500, bodyLimit: 131072 }',
    fixValue: '{ exchanges: 500 }',
    resolvedBy: 'resolve-inspector-options.ts',
  }),
  recordings: RECORDINGS_OPTION,
}
