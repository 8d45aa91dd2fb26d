import type { AllowedOrigins } from '@cors-dev-proxy/core/adapter'
import { type ExportedRegex, escapeRegex, exportRegExp, type RegexDialect } from './export-regex.js'

const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])'
/** 0 to 65535: an origin with another port does not parse, so the core admits none. */
const PORT = '(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})'

/**
 * The core's default origin rule (`isLoopbackOrigin`) as a pattern: `http` or `https` on
 * `localhost`, `*.localhost`, 127.0.0.0/8 or `[::1]`, any port. Case-insensitive, since the core
 * parses the origin (which lowercases scheme and host) before it tests the host.
 */
const LOOPBACK = `(?i:^https?://(?:localhost|[^\\s/?#@:\\[\\]]+\\.localhost|127\\.${OCTET}\\.${OCTET}\\.${OCTET}|\\[::1\\])(?::${PORT})?$)`

/**
 * One pattern that matches exactly the origins a `match` policy admits, in `dialect`: the
 * listed origins compared whole and case-sensitively (as the core compares strings), the
 * loopback rule when it is the default, and each RegExp as written (searched, not anchored,
 * like `RegExp.prototype.test`). A RegExp the dialect cannot carry gives a `problem` naming it.
 *
 * @example
 * allowedOriginPattern({ loopback: false, origins: ['http://localhost:5173'], patterns: [] }, 'pcre')
 * // { source: '^(?:http://localhost:5173)$' }
 */
export function allowedOriginPattern(allowed: AllowedOrigins, dialect: RegexDialect): ExportedRegex {
  const parts: string[] = []
  if (allowed.origins.length > 0) parts.push(`^(?:${allowed.origins.map(escapeRegex).join('|')})$`)
  if (allowed.loopback) parts.push(LOOPBACK)
  for (const pattern of allowed.patterns) {
    const exported = exportRegExp(pattern, dialect)
    if ('problem' in exported)
      return { problem: `the origin pattern ${String(pattern)} uses ${exported.problem}` }
    parts.push(exported.source)
  }
  // An empty list admits nothing: a pattern that never matches keeps the export well-formed.
  return { source: parts.length === 0 ? '^$.' : parts.join('|') }
}
