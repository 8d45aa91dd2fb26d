/*
 * stand-ins/recordings/: `record` and `replay` (docs/guide/record-replay.md) and the HAR import.
 * The file format (recording-format.ts, version 3: each answer's `seq` in the route's session),
 * a request's key and file name (recording-key.ts, multipart-form.ts; route-key.ts applies the
 * route's `match`: ignored query keys, named headers), the secrets a key masks but an answer
 * depends on (request-secrets.ts), kept only as salted scrypt verifiers (secret-verifier.ts,
 * secret-answers.ts), answers masked as the inspector masks them (recorded-answer.ts), the
 * bounded store (recording-store.ts, writing through ../atomic-file.ts) and its per-route index
 * (route-index.ts: every file, the session counter, the recorded writes), the record tap
 * (record-tap.ts, one answer per call: resend-filter.ts), replay (create-replayer.ts: which file
 * answers, find-recording.ts, with `body: 'subset'` or a `match` function; which of its answers,
 * session-order.ts; how, replay-answer.ts; none, unmatched-answer.ts with recording-diff.ts) and
 * `import-har` (har-import.ts). route-recordings.ts gives the backend a step before the forwarder
 * and the forwarder's fallback, only for routes that set `record` or `replay`; under `record:
 * 'missing'` the step replays what has a recording and lets the rest go on to be recorded.
 */
import type { Logger } from '../../log/logger.js'
import type { StandIn } from '../stand-in.js'
import type { RecordingStore } from './recording-store.js'
import { createRouteRecordings, type RecordSwitch } from './route-recordings.js'

/** What the recordings stand-in needs from the proxy. */
export interface RecordingsStandInDeps {
  /** The recordings folder, when a route has `record` or `replay`. */
  readonly recordings?: RecordingStore | undefined
  readonly logger: Logger
  /** The route's live state, whose `record` switch the step reads per request. */
  readonly control?: { readonly state: RecordSwitch } | undefined
}

/**
 * The recordings of a forwarding route with `record` or `replay`: a step before the target
 * (`record` taps the forwarded answer; `replay: 'only'` answers from the files) and the
 * forwarder's fallback (`replay: 'fallback'` answers where the target fails).
 *
 * @example
 * const slot = recordingsStandIn(route, { recordings, logger, control })
 */
export const recordingsStandIn: StandIn<RecordingsStandInDeps> = function recordingsStandIn(route, deps) {
  if (route.kind !== 'forward' || deps.recordings === undefined) return undefined
  return createRouteRecordings(route, deps.recordings, deps.logger, deps.control?.state)
}
