import { decodeContent } from '../../http/content-decoding.js'
import { isJsonMimeType } from '../../http/mime.js'
import { normalizePath, splitPathAndQuery } from '../../http/normalize-path.js'
import { pathAfterPrefix } from '../../http/path-pattern.js'
import type { Logger } from '../../log/logger.js'
import { maskedText, recordedHeaders } from '../file-masking.js'
import type { MockableExchange, MockWriter } from './mock-endpoint.js'
import { isMockAnswerProblem, mockAnswerOf } from './options/route-mock-answer.js'
import type { RouteMocks } from './route-mocks.js'

/*
 * "Mock this answer": the inspector's exchange written as a mock file of its route, so the next
 * request to that path is answered from it. The file holds what the page got, minus what belongs
 * to one connection or to cors-dev-proxy (framing, the date, our own marks, and the CORS headers
 * a route with `cors` adds again), with every secret masked by the recordings' rules, the body
 * decoded and as JSON data when it is JSON. Its key is the exact method and path, so it wins over
 * a pattern of the config.
 */

/** The masking the files get: the inspector's rules (a mock file is meant to be committed). */
const MASKED = Object.freeze({ mask: true, maskNames: Object.freeze([]) })
/** A body the inspector kept is at most its `bodyLimit`; decoded, this much at most. */
const DECODED_LIMIT = 16 * 1024 * 1024

type Outcome = { readonly status: number; readonly body: unknown }

const refuse = (error: string): Outcome => ({ status: 409, body: { error } })

/** The answer's headers as a file holds them: lower-case names, a repeated field as an array. */
function fileHeaders(lines: readonly string[], dropCors: boolean): Record<string, string | string[]> {
  const pairs: [string, string][] = []
  for (let index = 0; index + 1 < lines.length; index += 2)
    pairs.push([lines[index] as string, lines[index + 1] as string])
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of recordedHeaders(pairs, MASKED)) {
    if (name.startsWith('x-cors-dev-proxy-') || name === 'content-encoding') continue
    if (dropCors && (name.startsWith('access-control-') || name === 'vary')) continue
    const previous = headers[name]
    headers[name] =
      previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value]
  }
  return headers
}

/** The body as a file holds it: `json` data, `body` text, or why it cannot be mocked from here. */
function fileBody(
  record: MockableExchange,
  lines: readonly string[],
  contentType: string | undefined,
): Record<string, unknown> | string {
  const kept = record.responseBody
  if (kept === undefined) {
    return 'its body was not kept: bodies are copied only while an inspector is open, so call it again with this page open'
  }
  if (record.bodiesTruncated)
    return "its body was cut at the inspector's bodyLimit: raise inspector.bodyLimit"
  const encoding = lines.findIndex((line, index) => index % 2 === 0 && line === 'content-encoding')
  const body = encoding === -1 ? kept : decodeContent(kept, lines[encoding + 1] ?? '', DECODED_LIMIT)
  if (!Buffer.isBuffer(body)) return `its body's Content-Encoding cannot be undone here (${body})`
  if (body.byteLength === 0) return {}
  const text = body.toString('utf8')
  if (!Buffer.from(text, 'utf8').equals(body))
    return 'its body is binary: write the file yourself, with body as text'
  const masked = maskedText(text, contentType, MASKED)
  if (isJsonMimeType(contentType)) {
    try {
      return { json: JSON.parse(masked) as unknown }
    } catch {
      // Not JSON after all: kept as the text it is.
    }
  }
  return { body: masked }
}

/** The mock key of an exchange: its method and exact path after the prefix; `undefined` off the route. */
function keyOf(record: MockableExchange, prefix: string): string | undefined {
  const [path] = splitPathAndQuery(record.url)
  const normalized = normalizePath(path)
  if (prefix !== '/' && normalized !== prefix && !normalized.startsWith(`${prefix}/`)) return undefined
  return `${record.method} ${pathAfterPrefix(prefix, normalized)}`
}

/** Writes one exchange's mock file; never rejects. */
async function writeMock(
  mocks: RouteMocks,
  record: MockableExchange,
  lines: readonly string[],
  logger: Logger,
): Promise<Outcome> {
  const key = keyOf(record, mocks.route.prefix)
  if (key === undefined || /\s/.test(key.slice(record.method.length + 1)))
    return refuse(`its path is not one a mock key can name`)
  if (record.status === 0 || record.aborted) return refuse('it has no complete answer to mock')
  const headers = fileHeaders(lines, mocks.route.cors !== undefined)
  const content = fileBody(
    record,
    lines,
    typeof headers['content-type'] === 'string' ? headers['content-type'] : undefined,
  )
  if (typeof content === 'string') return refuse(content)
  const file = { status: record.status, headers, ...content }
  const checked = mockAnswerOf(file)
  if (isMockAnswerProblem(checked)) return refuse(`its ${checked.field || 'answer'} ${checked.problem}`)
  try {
    const written = await mocks.folder.write(key, `${JSON.stringify(file, null, 2)}\n`)
    logger.info(`mock written: ${written} answers ${key} on route '${mocks.route.prefix}' from now on`)
    return { status: 201, body: { key, file: written } }
  } catch (error) {
    return { status: 500, body: { error: `the mock file was not written: ${(error as Error).message}` } }
  }
}

/**
 * The inspector's "Mock this answer" over the routes with `mocks`: an exchange of another route
 * is refused with the option to add, one that was mocked already too.
 *
 * `headerLinesOf` reads an exchange's answer header lines (`[name, value, …]`, names lower-case):
 * the inspector's `responseHeaderLines`, handed in by the proxy that wires both.
 *
 * @example
 * const writer = createMockWriter(proxy.mocks, logger, responseHeaderLines)
 * await writer.write(ring.get(12)) // { status: 201, body: { key: 'GET /users/42', file: 'cors-dev-proxy/mocks/api/GET _users_42.json' } }
 */
export function createMockWriter<Exchange extends MockableExchange>(
  routes: readonly RouteMocks[],
  logger: Logger,
  headerLinesOf: (record: Exchange) => readonly string[],
): MockWriter<Exchange> {
  const byPrefix = new Map(routes.map((mocks) => [mocks.route.prefix, mocks]))
  return {
    routes: () => routes.map((mocks) => ({ route: mocks.route.prefix, folder: mocks.folder.label('') })),
    async write(record) {
      const mocks = byPrefix.get(record.route)
      if (mocks === undefined) {
        return refuse(
          `route '${record.route}' has no mocks: add mocks: true to it, and this answer can be one`,
        )
      }
      const lines = headerLinesOf(record)
      if (lines.includes('x-cors-dev-proxy-mocked')) return refuse('this answer came from a mock already')
      return writeMock(mocks, record, lines, logger)
    },
  }
}
