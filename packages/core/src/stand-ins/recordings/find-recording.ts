import { maskHeaderValue } from '../../http/mask-secrets.js'
import type { ProxyRequest } from '../../http/proxy-types.js'
import type { Logger } from '../../log/logger.js'
import type { ResolvedMatch } from './options/resolve-match-options.js'
import type { MatchRequest } from './options/route-match-options.js'
import type { RecordedRequest, RecordingFile } from './recording-format.js'
import type { RequestKey } from './recording-key.js'
import type { RecordingStore } from './recording-store.js'

/*
 * Which recording answers a request. Without `match` (or with rules only), the file of its key,
 * read from disk as it is now. With `body: 'subset'` and no such file, a recording of the same
 * method, path, query and named headers whose JSON body the request's contains (the most fields
 * first). With a `match` function, the function decides, asked for the request's own file first,
 * then for the route's other recordings in file name order.
 */

/** A recording, under its file name. */
export interface FoundRecording {
  readonly name: string
  readonly recording: RecordingFile
}

/** A key's body (`json {…}`, `form a=1`, text) as data: JSON data, else the text it holds. */
export function bodyData(body: string | undefined): unknown {
  if (body === undefined) return undefined
  if (body.startsWith('json ')) {
    try {
      return JSON.parse(body.slice(5)) as unknown
    } catch {
      return body
    }
  }
  return body
}

/** A path's query pairs sorted, so two paths compare whatever their order. */
export function samePath(a: string, b: string): boolean {
  const sorted = (path: string) => {
    const question = path.indexOf('?')
    if (question < 0) return path
    return `${path.slice(0, question)}?${path
      .slice(question + 1)
      .split('&')
      .filter((pair) => pair !== '')
      .sort()
      .join('&')}`
  }
  return sorted(a) === sorted(b)
}

/** Whether every field of `recorded` is in `given` with the same value (arrays and values compared whole). */
export function isSubset(recorded: unknown, given: unknown): boolean {
  if (recorded === null || typeof recorded !== 'object' || Array.isArray(recorded)) {
    return JSON.stringify(recorded) === JSON.stringify(given)
  }
  if (given === null || typeof given !== 'object' || Array.isArray(given)) return false
  const inner = given as Record<string, unknown>
  return Object.entries(recorded).every(([name, value]) => name in inner && isSubset(value, inner[name]))
}

/** A request or a recorded one as a `match` function sees it. */
export function matchView(
  request: RecordedRequest,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  match: ResolvedMatch,
): MatchRequest {
  const question = request.path.indexOf('?')
  const query = new URLSearchParams(question < 0 ? '' : request.path.slice(question + 1))
  for (const name of match.ignoreQuery) query.delete(name)
  const shown: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined)
      shown[name] = maskHeaderValue(name, Array.isArray(value) ? value.join(', ') : value)
  }
  return {
    method: request.method,
    path: question < 0 ? request.path : request.path.slice(0, question),
    query: Object.fromEntries(query),
    headers: shown,
    body: bodyData(request.body),
  }
}

/** The request as the key sees it. */
function keyed(method: string, key: RequestKey): RecordedRequest {
  return { method, path: key.path, body: key.body }
}

/** With `body: 'subset'`: the recording of the same request but for fields the request adds. */
async function subsetRecording(
  store: RecordingStore,
  prefix: string,
  method: string,
  key: RequestKey,
): Promise<FoundRecording | undefined> {
  const given = bodyData(key.body)
  if (given === null || typeof given !== 'object') return undefined
  const headers = JSON.stringify(key.headers ?? [])
  let best: [FoundRecording, number] | undefined
  for (const found of await store.index(prefix).recordings()) {
    const { request } = found.recording
    if (request.method !== method || !samePath(request.path, key.path)) continue
    if (JSON.stringify(Object.entries(request.headers ?? {})) !== headers) continue
    const recorded = bodyData(request.body)
    if (recorded === null || typeof recorded !== 'object' || !isSubset(recorded, given)) continue
    const size = request.body?.length ?? 0
    if (best === undefined || size > best[1]) best = [found, size]
  }
  return best?.[0]
}

/** With a `match` function: the first recording it accepts, the request's own first. */
async function testedRecording(
  store: RecordingStore,
  prefix: string,
  req: ProxyRequest,
  key: RequestKey,
  match: ResolvedMatch,
  logger: Logger,
): Promise<FoundRecording | undefined> {
  const test = match.test
  if (test === undefined) return undefined
  const request = matchView(keyed(req.method ?? 'GET', key), req.headers, match)
  const all = await store.index(prefix).recordings()
  const ordered = [
    ...all.filter(({ name }) => name === key.fileName),
    ...all.filter(({ name }) => name !== key.fileName),
  ]
  for (const found of ordered) {
    const recorded = found.recording.request
    try {
      if (test(request, matchView(recorded, recorded.headers ?? {}, match))) return found
    } catch (error) {
      logger.limited(
        'warn',
        `match ${prefix} threw`,
        () =>
          `route '${prefix}': match threw (${error instanceof Error ? error.message : String(error)}); taken as false`,
      )
    }
  }
  return undefined
}

/**
 * The recording that answers `req` (its key `key`) on the route `prefix`, `undefined` when none does.
 *
 * @example
 * const found = await findRecording(store, route.prefix, route.match, req, key, logger)
 */
export async function findRecording(
  store: RecordingStore,
  prefix: string,
  match: ResolvedMatch | undefined,
  req: ProxyRequest,
  key: RequestKey,
  logger: Logger,
): Promise<FoundRecording | undefined> {
  if (match?.test !== undefined) return testedRecording(store, prefix, req, key, match, logger)
  const recording = await store.read(prefix, key)
  if (recording !== undefined) return { name: key.fileName, recording }
  if (match?.body === 'subset') return subsetRecording(store, prefix, req.method ?? 'GET', key)
  return undefined
}
