import { compilePathPattern, matchPathPattern, parsePatternKey } from '../../http/path-pattern.js'
import { canonicalJson } from '../recordings/key-parts.js'
import type { MatchFunction, MatchRequest } from '../recordings/options/route-match-options.js'
import type { RecordedAnswer } from '../recordings/recording-format.js'
import { pickAnswer, type SessionState } from '../recordings/session-order.js'
import type { ReplayAnswer, ReplayData, ReplayRecording } from './replay-data.js'
import { type ComparedRequest, compareRequest, headerLines, splitPath } from './replay-key.js'
import { mockResponse, recordedResponse } from './replay-response.js'

/*
 * A replay in memory, with no Node and no file: `@cors-dev-proxy/core/replay-session`, which
 * the module `cors-dev-proxy export-msw` writes imports, so its MSW handlers answer in Vitest
 * (msw/node) and in the browser (Storybook, msw-storybook-addon) as the proxy's `replay: 'only'`
 * does. A request under the prefix gets, in the proxy's order, a mock (files first, the most
 * specific first, then the config's fixed keys), else its recording's answer that the recorded
 * session's state calls for (recordings/session-order.ts, the proxy's own selection: after a
 * replayed write, reads give what was recorded after it), else `undefined`, for the caller's
 * next handler (MSW's `onUnhandledRequest`).
 */

/** What a session may add to its data. */
export interface ReplayOptions {
  /**
   * The route's `match` function, when its config has one (a function cannot be exported):
   * asked as the proxy asks it, the request's own recording first.
   */
  readonly match?: MatchFunction
}

/** One route's replay, with its place in the recorded session. */
export interface ReplaySession {
  /** The answer to `request`, or `undefined` when it is not under the prefix or nothing matches. Never rejects. */
  answer(request: Request): Promise<Response | undefined>
  /** Starts the recorded session over (position 0, nothing served yet), as a proxy's start does. */
  reset(): void
}

function relativeOf(prefix: string, url: URL): string | undefined {
  const { pathname, search } = url
  if (prefix === '/') return `${pathname}${search}`
  if (pathname !== prefix && !pathname.startsWith(`${prefix}/`)) return undefined
  const rest = pathname.slice(prefix.length)
  return `${rest === '' ? '/' : rest}${search}`
}

/** An answer as the proxy's selection takes it. */
function recorded(answer: ReplayAnswer): RecordedAnswer {
  const { body, chunks, recordedAt } = answer
  return { ...answer, body, chunks, recordedAt: recordedAt ?? '' }
}

/** A recording's request as the match compares it. */
function comparedRecording(recording: ReplayRecording, data: ReplayData): ComparedRequest {
  const { pathname, query } = splitPath(recording.path, data.match.ignoreQuery)
  const headers = headerLines((name) => recording.headers?.[name], data.match.matchHeaders)
  return { method: recording.method, pathname, query, body: recording.body, headers }
}

function bodyData(body: string | undefined): unknown {
  if (body?.startsWith('json ')) {
    try {
      return JSON.parse(body.slice(5)) as unknown
    } catch {
      return body
    }
  }
  return body
}

function isSubset(recorded: unknown, given: unknown): boolean {
  if (recorded === null || typeof recorded !== 'object' || Array.isArray(recorded)) {
    return canonicalJson(recorded) === canonicalJson(given)
  }
  if (given === null || typeof given !== 'object' || Array.isArray(given)) return false
  const inner = given as Record<string, unknown>
  return Object.entries(recorded).every(([name, value]) => name in inner && isSubset(value, inner[name]))
}

function matchView(compared: ComparedRequest, headers: Record<string, string>): MatchRequest {
  return {
    method: compared.method,
    path: compared.pathname,
    query: Object.fromEntries(new URLSearchParams(compared.query)),
    headers,
    body: bodyData(compared.body),
  }
}

/** The recording that answers `request`: the exact one, else by `body: 'subset'`, or as `match` decides. */
function findRecording(
  compared: ComparedRequest,
  request: Request,
  known: readonly (readonly [ReplayRecording, ComparedRequest])[],
  data: ReplayData,
  options: ReplayOptions,
): ReplayRecording | undefined {
  const same = (a: ComparedRequest, b: ComparedRequest, body: boolean) =>
    a.method === b.method &&
    a.pathname === b.pathname &&
    a.query === b.query &&
    a.headers === b.headers &&
    (!body || a.body === b.body)
  const own = known.find(([, recorded]) => same(compared, recorded, true))
  if (options.match !== undefined) {
    const view = matchView(compared, Object.fromEntries(request.headers))
    const ordered = own === undefined ? known : [own, ...known.filter((entry) => entry !== own)]
    for (const [recording, recorded] of ordered) {
      try {
        if (options.match(view, matchView(recorded, { ...recording.headers }))) return recording
      } catch {
        // A throw counts as false, as on the proxy.
      }
    }
    return undefined
  }
  if (own !== undefined || data.match.body !== 'subset') return own?.[0]
  const given = bodyData(compared.body)
  if (given === null || typeof given !== 'object') return undefined
  let best: ReplayRecording | undefined
  for (const [recording, recorded] of known) {
    if (!same(compared, recorded, false)) continue
    const data = bodyData(recorded.body)
    if (data === null || typeof data !== 'object' || !isSubset(data, given)) continue
    if (best === undefined || (recording.body?.length ?? 0) > (best.body?.length ?? 0)) best = recording
  }
  return best
}

/**
 * A replay session over `data` (what `export-msw` inlines). Mocks and recordings answer as on
 * the proxy; the session's state is this object's, started over by `reset()`.
 *
 * @example
 * const session = createReplaySession(data)
 * const response = await session.answer(new Request('http://localhost/api/items'))
 */
export function createReplaySession(data: ReplayData, options: ReplayOptions = {}): ReplaySession {
  const known = data.recordings.map((recording) => [recording, comparedRecording(recording, data)] as const)
  const answers = new Map(data.recordings.map((recording) => [recording, recording.answers.map(recorded)]))
  const mocks = data.mocks.flatMap((mock) => {
    const key = parsePatternKey(mock.key)
    return key === undefined ? [] : [{ mock, method: key.method, pattern: compilePathPattern(key.path) }]
  })
  let state: SessionState = { position: 0, served: new Map() }
  const answer = async (request: Request): Promise<Response | undefined> => {
    const relative = relativeOf(data.prefix, new URL(request.url))
    if (relative === undefined) return undefined
    const pathname = relative.split('?')[0] ?? relative
    const preflight = request.method === 'OPTIONS' && request.headers.has('access-control-request-method')
    for (const { mock, method, pattern } of mocks) {
      if (method === undefined ? preflight : method !== request.method) continue
      if (matchPathPattern(pattern, pathname) !== undefined) return mockResponse(mock)
    }
    const compared = await compareRequest(request, relative, data.match, data.maskNames)
    const recording = findRecording(compared, request, known, data, options)
    if (recording === undefined) return undefined
    const write = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(request.method.toUpperCase())
    const picked = pickAnswer(state, write, recording.file, answers.get(recording) ?? [], data.writes)
    return picked === undefined ? undefined : recordedResponse(picked.answer, recording.file, data.maxGap)
  }
  return {
    answer: (request) => answer(request).catch(() => undefined),
    reset() {
      state = { position: 0, served: new Map() }
    },
  }
}
