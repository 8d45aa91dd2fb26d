import type { LogSink } from '../../config/options.js'
import { normalizePath, prefixMatches, splitPathAndQuery } from '../../http/normalize-path.js'
import { createLogger } from '../../log/logger.js'
import type { ResolvedRecordingsOptions } from './options/resolve-recordings-options.js'
import { recordedAnswer } from './recorded-answer.js'
import { type KeyMatch, requestKey } from './recording-key.js'
import { createRecordingStore } from './recording-store.js'
import { relativePath } from './route-key.js'

/*
 * A HAR 1.2 file (Chromium's DevTools "Save all as HAR", or our inspector's export) turned into
 * recordings of one route: each entry under the route's prefix becomes an answer in its
 * request's file, in the order the entries started, masked like a recorded exchange.
 */

/** What an import did. */
export interface HarImportResult {
  /** Entries written as answers. */
  readonly imported: number
  /** Entries whose URL is not under the route's prefix. */
  readonly outside: number
  /** Entries that cannot be replayed (no response, a failed request, an unreadable body). */
  readonly unusable: number
  /** Distinct request files written. */
  readonly files: number
}

/** A HAR that is not one: the reason says what is missing. */
export class HarFormatError extends Error {
  override readonly name = 'HarFormatError'
}

interface HarPair {
  name?: unknown
  value?: unknown
}

interface HarEntry {
  startedDateTime?: unknown
  request?: {
    method?: unknown
    url?: unknown
    headers?: unknown
    postData?: { text?: unknown; mimeType?: unknown }
  }
  response?: {
    status?: unknown
    headers?: unknown
    content?: { text?: unknown; encoding?: unknown; mimeType?: unknown }
  }
}

function pairsOf(headers: unknown): [string, string][] {
  if (!Array.isArray(headers)) return []
  return (headers as HarPair[]).flatMap((pair) =>
    typeof pair?.name === 'string' && typeof pair.value === 'string' && !pair.name.startsWith(':')
      ? [[pair.name, pair.value] as [string, string]]
      : [],
  )
}

/** The entries of a HAR, or a `HarFormatError` saying why it is not one. */
function entriesOf(har: unknown): HarEntry[] {
  const log = (har as { log?: { entries?: unknown } } | null)?.log
  if (log === undefined || log === null || !Array.isArray(log.entries)) {
    throw new HarFormatError('is not a HAR file: it has no log.entries array')
  }
  return log.entries as HarEntry[]
}

/** A HAR's body as bytes: its content decoded already (HAR holds the decoded text), base64 or text. */
function contentBytes(content: NonNullable<HarEntry['response']>['content']): Buffer {
  if (typeof content?.text !== 'string') return Buffer.alloc(0)
  return content.encoding === 'base64' ? Buffer.from(content.text, 'base64') : Buffer.from(content.text)
}

/** An event stream's text as pieces, one per event (HAR has no timing between them). */
function eventPieces(body: Buffer, at: number): [Buffer, number][] {
  return body
    .toString('utf8')
    .split(/(?<=\n\n)/)
    .filter((piece) => piece !== '')
    .map((piece) => [Buffer.from(piece), at])
}

/**
 * Writes the entries of `har` under the route `prefix` into the recordings folder (a relative
 * one under `base`), keyed by the route's `match` rules when given (as the replay keys them); resolves
 * when every file is on disk. Throws `HarFormatError` when `har` is not a HAR.
 *
 * @example
 * const result = await importHar(JSON.parse(text), '/api', resolved.recordings, console, process.cwd())
 * // { imported: 12, outside: 30, unusable: 1, files: 9 }
 */
export async function importHar(
  har: unknown,
  prefix: string,
  options: ResolvedRecordingsOptions,
  sink: LogSink,
  base: string,
  match?: KeyMatch,
): Promise<HarImportResult> {
  const entries = [...entriesOf(har)].sort((a, b) =>
    String(a.startedDateTime ?? '').localeCompare(String(b.startedDateTime ?? '')),
  )
  const store = createRecordingStore(options, createLogger('info', sink), base)
  const files = new Set<string>()
  let imported = 0
  let outside = 0
  let unusable = 0
  for (const entry of entries) {
    const { request, response } = entry
    if (typeof request?.method !== 'string' || typeof request.url !== 'string') {
      unusable++
      continue
    }
    let url: URL
    try {
      url = new URL(request.url)
    } catch {
      unusable++
      continue
    }
    const [rawPath] = splitPathAndQuery(url.pathname)
    const path = normalizePath(rawPath)
    if (!prefixMatches(prefix, path)) {
      outside++
      continue
    }
    // Chromium writes status 0 for a request that failed or was blocked: nothing to replay.
    const status = Number(response?.status)
    if (!Number.isInteger(status) || status < 100 || status > 599) {
      unusable++
      continue
    }
    const headers = pairsOf(response?.headers).filter(
      // The HAR holds the decoded body: its encoding and length no longer apply.
      ([name]) => !['content-encoding', 'content-length'].includes(name.toLowerCase()),
    )
    const type = headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1]
    const body = contentBytes(response?.content)
    const stream = (type ?? '').includes('text/event-stream')
    const answer = recordedAnswer(
      { status, headers, chunks: stream ? eventPieces(body, 0) : [[body, 0]], headAt: 0 },
      options,
    )
    const postData = request.postData
    const key = requestKey(
      {
        method: request.method,
        path: relativePath(prefix, `${path}${url.search}`),
        body:
          typeof postData?.text === 'string' && postData.text !== '' ? Buffer.from(postData.text) : undefined,
        contentType: typeof postData?.mimeType === 'string' ? postData.mimeType : undefined,
        authorization: pairsOf(request.headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1],
        headers: Object.fromEntries(
          pairsOf(request.headers).map(([name, value]) => [name.toLowerCase(), value]),
        ),
      },
      options,
      match,
    )
    const started = typeof entry.startedDateTime === 'string' ? entry.startedDateTime : answer.recordedAt
    store.append(prefix, key, request.method, { ...answer, recordedAt: started })
    files.add(key.fileName)
    imported++
  }
  await store.flush()
  return { imported, outside, unusable, files: files.size }
}
