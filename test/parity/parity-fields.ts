import type { Answer } from './parity-client.js'

/**
 * What one check observed through one server: flat fields (`status`, `header vary`, `echo path`...)
 * so that a difference names exactly what differs. The suite normalizes values before comparing
 * them: each server's own `host:port` becomes `<proxy>` and its port alone `<proxy port>`, the
 * backend's `<backend>`.
 */
export type Observation = Record<string, unknown>

/**
 * Response headers compared on every answer. Not compared, because each server writes its own
 * for its own connection: Date, Server, Connection, Keep-Alive, Transfer-Encoding, and
 * Content-Length (the body is compared instead; the preflight check compares it too).
 */
const COMPARED_HEADERS = [
  'content-type',
  'cache-control',
  'location',
  'set-cookie',
  'vary',
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-expose-headers',
  'access-control-max-age',
]

/**
 * `Vary` is a set of names (RFC 9110 §12.5.5): the dev proxy merges the backend's and its own
 * into one line, nginx and Caddy add theirs as a line of their own. Compared as the sorted set.
 */
function varySet(lines: string[] | undefined): string | undefined {
  if (lines === undefined) return undefined
  const names = new Set(lines.flatMap((line) => line.split(',').map((name) => name.trim().toLowerCase())))
  return [...names]
    .filter((name) => name !== '')
    .sort()
    .join(', ')
}

/** Request headers the echo shows, compared by value. */
const ECHO_HEADERS = [
  'host',
  'origin',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'x-forwarded-port',
  'x-real-ip',
  'x-token',
  'x-custom',
  'content-type',
  'content-length',
]

/**
 * `Connection` belongs to one hop (RFC 9110 §7.6.1): undici (the dev proxy) sends
 * `keep-alive`, nginx and Caddy rely on HTTP/1.1's default. Left out of the names compared.
 */
const PER_HOP = new Set(['connection'])

/** The mock backend's JSON echo, field by field: what arrived upstream. */
function echoFields(body: string): Observation | undefined {
  let echo: { method: string; path: string; query: unknown; headers: Record<string, unknown>; body: unknown }
  try {
    echo = JSON.parse(body)
  } catch {
    return undefined
  }
  if (typeof echo?.headers !== 'object' || typeof echo.path !== 'string') return undefined
  const fields: Observation = {
    'echo method': echo.method,
    'echo path': echo.path,
    'echo query': echo.query,
    'echo body': echo.body,
  }
  for (const name of ECHO_HEADERS) fields[`echo header ${name}`] = echo.headers[name]
  // Every header that arrived, by name: shows a header one server adds or drops.
  fields['echo header names'] = Object.keys(echo.headers)
    .filter((name) => !PER_HOP.has(name))
    .sort()
    .join(',')
  return fields
}

/** Status, the compared headers (and `extra` ones), and the body: the echo's fields, or the text. */
export function answerFields(answer: Answer, extra: readonly string[] = []): Observation {
  const fields: Observation = { status: answer.status }
  for (const name of [...COMPARED_HEADERS, ...extra]) {
    const lines = answer.headers[name]
    // An absent header is `null`, so an expectation can ask for its absence.
    fields[`header ${name}`] = (name === 'vary' ? varySet(lines) : lines?.join(' | ')) ?? null
  }
  return { ...fields, ...(echoFields(answer.body) ?? { body: answer.body }) }
}
