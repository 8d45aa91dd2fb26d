/**
 * Header fields that describe one connection, not the message, and so must not cross a proxy.
 * RFC 9110 section 7.6.1: an intermediary removes the Connection header, every field it names,
 * and "Proxy-Connection, Keep-Alive, TE, Transfer-Encoding, Upgrade" whether named or not.
 * `http2-settings` is the connection-specific field of the h2c upgrade (RFC 7540 section 3.2.1).
 * RFC 9113 section 8.2.2 forbids these same fields on HTTP/2 messages: setting one on an HTTP/2
 * response is a stream error, which is why the response side strips them before Node sees them.
 */
export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
])

const NO_NAMES: ReadonlySet<string> = new Set()

/**
 * The header names a `Connection` value lists (RFC 9110 section 7.6.1), lowercased. The common
 * values `keep-alive`, `close` and `upgrade` name no other header, so they take a fast path.
 *
 * @example
 * connectionListedHeaders('keep-alive, X-Secret') // Set { 'keep-alive', 'x-secret' }
 */
export function connectionListedHeaders(connection: string | string[] | undefined): ReadonlySet<string> {
  if (connection === undefined) return NO_NAMES
  const value = Array.isArray(connection) ? connection.join(',') : connection
  const lower = value.toLowerCase()
  if (lower === 'keep-alive' || lower === 'close' || lower === 'upgrade') return NO_NAMES
  const names = new Set<string>()
  for (const token of lower.split(',')) {
    const name = token.trim()
    if (name !== '') names.add(name)
  }
  return names
}
