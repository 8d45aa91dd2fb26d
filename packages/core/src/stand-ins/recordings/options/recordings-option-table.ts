/*
 * The recordings' route options in the option table (config/option-table.ts): `record` and
 * `replay`; the shared `recordings` option is `RECORDINGS_OPTION` below.
 */
import { type RichOptionEntry, richOption } from '../../../config/option-entry.js'

/** A route's options for its recordings: `record` and `replay`. */
export const RECORDING_ROUTE_OPTIONS: readonly RichOptionEntry[] = [
  {
    name: 'record',
    level: 'route',
    doc: [
      'Writes each exchange of the route to a file in the project (`recordings.dir`, one JSON file',
      'per distinct request holding its answers in order, secrets masked), for `replay` to answer',
      "from later. A recording is on disk when the proxy's `close()` resolves. The inspector's record",
      "switch turns it on and off live on a route with `record: true` or `replay: 'fallback'`.",
      "`'missing'` replays what has a recording and forwards and records what has none.",
    ],
    defaultText: 'false',
    example: 'true',
    resolvedBy: 'resolve-route.ts (checkBoolean, forwarding routes only)',
    startup: (route) => (route.kind === 'forward' && route.record ? 'record' : undefined),
  },
  {
    name: 'replay',
    level: 'route',
    doc: [
      "Answers from the recordings: `'fallback'` when the target cannot be reached, or does not",
      "answer within the route's `timeout` when it has one (offline mode); `'only'` without ever",
      'contacting the target. A replayed answer carries `X-Cors-Dev-Proxy-Replayed`; a request with',
      "no recording gets 504 (`'fallback'`) or 404 (`'only'`) naming the closest recording.",
    ],
    defaultText: 'undefined (never replays)',
    example: "'fallback'",
    fixValue: "'fallback'",
    resolvedBy: 'resolve-recordings-options.ts (checkReplay)',
    startup: (route) =>
      route.kind === 'forward' && route.replay !== undefined ? `replay: ${route.replay}` : undefined,
  },
  {
    name: 'match',
    level: 'route',
    doc: [
      "How the route's requests find their recordings: `ignoreQuery` leaves query keys out (`['_t']`,",
      'recording and replaying), `matchHeaders` names request headers the key holds (none by',
      "default), `body: 'subset'` lets a request match a recording whose JSON body it contains; or a",
      'function `(request, recorded) => boolean` asked for each recording of the route.',
    ],
    defaultText: 'undefined (method, path, query and body as data)',
    example: "{ ignoreQuery: ['_t'], matchHeaders: ['x-tenant'], body: 'subset' }",
    fixValue: "{ ignoreQuery: ['_t'] }",
    resolvedBy: 'resolve-match-options.ts (checkMatch)',
  },
]

/** Where the routes with `record` or `replay` keep their recordings: the shared `recordings`. */
export const RECORDINGS_OPTION: RichOptionEntry = richOption({
  name: 'recordings',
  level: 'global',
  doc: [
    'Where the routes with `record` or `replay` keep their recordings, and the bounds (see',
    '`RecordingsOptions`).',
  ],
  defaultText:
    "{ dir: 'cors-dev-proxy/recordings', mask: true, maxFiles: 1000, maxAnswers: 20, maxBodyBytes: 1048576, maxGap: 1000 }",
  example: "{ dir: 'test/recordings', maxFiles: 200 }",
  fixValue: "{ dir: 'cors-dev-proxy/recordings' }",
  resolvedBy: 'resolve-recordings-options.ts',
})
