import type { ResolvedForwardRoute } from '../../config/resolved-route.js'
import type { ProxyRequest, ProxyResponse } from '../../http/proxy-types.js'
import { sendText } from '../../http/send-text.js'
import type { Logger } from '../../log/logger.js'
import { closestRecording, type Difference, describeDifferences } from './recording-diff.js'
import type { RequestKey } from './recording-key.js'
import type { RecordingStore } from './recording-store.js'
import { unmatchedFixes } from './unmatched-fix.js'
import { encodeUnmatchedNote, UNMATCHED_DIFF_HEADER } from './unmatched-note.js'

/*
 * The answer to a request no recording matches under `replay: 'only'`: 404 with a JSON body a
 * person reads (what was asked, the closest recording, each part that differs from it, how to
 * record it), one log line with the same differences, and `X-Cors-Dev-Proxy-Unmatched` holding
 * them in one line, by which the inspector's exchange record tells this answer from the
 * backend's own 404 (as `X-Cors-Dev-Proxy-Replayed` tells a replay). Beside it,
 * `X-Cors-Dev-Proxy-Unmatched-Diff` holds the differences and the fixes as data
 * (unmatched-note.ts), which the overlay's card and the inspector's detail show.
 */

/** The header that marks the proxy's answer to a request no recording matches. */
export const UNMATCHED_HEADER = 'x-cors-dev-proxy-unmatched'

/** A header value: printable ASCII only (Node refuses the rest), at most 500 characters. */
function headerValue(text: string): string {
  const ascii = text.replace(/[^\x20-\x7e]/g, '?')
  return ascii.length > 500 ? `${ascii.slice(0, 497)}...` : ascii
}

/**
 * The log line's key: one line per route, closest recording and kinds of part that differ (a
 * `?_t=1`, then a `?_t=2`, fold into one line with a count; a call that differs from another
 * recording, or in another part, has its own). Built from the recordings on disk and the five
 * part names, never from the request's own text, so a client cannot open new keys at will.
 */
function unmatchedLogKey(prefix: string, closest: string | undefined, found: readonly Difference[]): string {
  const parts = [...new Set(found.map((difference) => difference.part))].sort().join(',')
  return `replay ${prefix} no match ${closest ?? '(none)'} ${parts}`
}

/**
 * Answers 404 naming the closest recording and how the request differs from it.
 *
 * @example
 * await answerUnmatched(route, store, logger, req, res, key)
 */
export async function answerUnmatched(
  route: ResolvedForwardRoute,
  store: RecordingStore,
  logger: Logger,
  req: ProxyRequest,
  res: ProxyResponse,
  key: RequestKey,
): Promise<void> {
  const { prefix } = route
  const method = req.method ?? 'GET'
  const request = {
    method,
    path: key.path,
    body: key.body,
    headers: key.headers === undefined ? undefined : Object.fromEntries(key.headers),
  }
  const closest = closestRecording(await store.index(prefix).recordings(), request, route.match)
  const error = `no recording matches ${method} ${req.url} (route '${prefix}' has replay: 'only')`
  const file = closest === undefined ? undefined : store.describe(prefix, { ...key, fileName: closest.name })
  const summary =
    closest === undefined ? 'no recording for this route yet' : describeDifferences(closest.differences)
  logger.limited(
    'warn',
    unmatchedLogKey(prefix, closest?.name, closest?.differences ?? []),
    () =>
      `404 ${method} ${req.url}: ${error}${file === undefined ? '' : `; closest ${file} differs in ${summary}`}`,
  )
  if (res.destroyed || res.headersSent) return
  const body = {
    error,
    closest: file ?? null,
    differences: closest?.differences.map((difference) => ({ ...difference })) ?? [],
    fix: `To record it, set record: true (or record: 'missing') on route '${prefix}' with its target up and make the call once, or import a HAR: cors-dev-proxy import-har file.har --route ${prefix}. If the part that differs does not matter to the answer, leave it out with the route's match option (ignoreQuery, body: 'subset').`,
  }
  const target = route.hasTarget ? route.target.href.replace(/\/$/, '') : undefined
  const note = encodeUnmatchedNote({
    route: prefix,
    closest: file ?? null,
    differences: body.differences,
    fixes: unmatchedFixes({ prefix, target, match: route.match }, body.differences),
  })
  sendText(res, 404, 'application/json; charset=utf-8', `${JSON.stringify(body, null, 2)}\n`, [
    [UNMATCHED_HEADER, headerValue(file === undefined ? summary : `${file}: ${summary}`)],
    [UNMATCHED_DIFF_HEADER, note],
  ])
}
