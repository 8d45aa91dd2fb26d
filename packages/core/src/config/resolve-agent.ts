import { Agent as HttpAgent } from 'node:http'
import { Agent as HttpsAgent } from 'node:https'
import { CorsDevProxyError } from './errors.js'
import { describeType } from './option-path.js'

/** What an `http.Agent`/`https.Agent` given as `agent` means for the route's undici pool. */
export interface ResolvedAgent {
  /** The agent as given: one pool per agent (and target). */
  readonly source: object
  /** `maxSockets`: most connections to the target; `null` for Node's default, `Infinity`. */
  readonly connections: number | null
  /** `keepAlive`: `false` (Node's default for `new http.Agent()`) closes each connection after its request. */
  readonly keepAlive: boolean
  /** The TLS options of an `https.Agent` (`ca`, `cert`, `key`...), for the connector's `tls.connect`. */
  readonly tls: Readonly<Record<string, unknown>>
}

/** `tls.connect` options an `https.Agent` carries that undici's connector passes on as they are. */
const TLS_OPTIONS = new Set([
  'ca',
  'cert',
  'key',
  'pfx',
  'passphrase',
  'rejectUnauthorized',
  'servername',
  'ciphers',
  'minVersion',
  'maxVersion',
  'secureProtocol',
  'ecdhCurve',
  'crl',
  'sigalgs',
  'checkServerIdentity',
])

/**
 * Agent options with nothing to do here: Node's own bookkeeping, or timing of idle sockets
 * that undici's pool manages itself (keep-alive timeouts learned per target).
 */
const POOLING_OPTIONS = new Set([
  'keepAlive',
  'keepAliveMsecs',
  'maxSockets',
  'maxFreeSockets',
  'maxTotalSockets',
  'scheduling',
  'timeout',
  'noDelay',
  'path',
  'maxCachedSessions',
  // What Node 22+ records on an https.Agent about itself.
  'defaultPort',
  'protocol',
])

/** The fix when an agent cannot be mapped: the route without it (pooling and keep-alive are built in). */
const WITHOUT_AGENT = "{ '/api': 'http://localhost:3000' }"

/**
 * http-proxy's `agent`, mapped onto the route's undici pool: `maxSockets` (the most connections),
 * `keepAlive` (`false` closes each connection after its request, undici's `pipelining: 0`), and an
 * `https.Agent`'s TLS options (`ca`, `cert`, `key`, `rejectUnauthorized`...). Refused at start-up:
 * anything that is not a plain `http.Agent` or `https.Agent` (a proxy agent such as
 * https-proxy-agent makes its own connections, which undici's pool cannot use) and agent
 * options with no counterpart here (`lookup`, `family`, `localAddress`...), named.
 *
 * @example
 * resolveAgent(new https.Agent({ ca, maxSockets: 10 }), "routes['/api'].agent")
 */
export function resolveAgent(value: unknown, option: string): ResolvedAgent | undefined {
  if (value === undefined || value === false) return undefined
  if (!(value instanceof HttpAgent)) {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      option,
      `must be an http.Agent or https.Agent (its maxSockets, keepAlive and TLS options are applied), got ${describeType(value)}; remove it otherwise`,
      WITHOUT_AGENT,
    )
  }
  const kind = value.constructor
  if (kind !== HttpAgent && kind !== HttpsAgent) {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      option,
      `is a ${kind.name || 'subclass of http.Agent'}, which makes its own connections (a proxy agent?): undici's pool cannot use them. Only http.Agent and https.Agent options (maxSockets, keepAlive, TLS) are mapped`,
      WITHOUT_AGENT,
    )
  }
  const options = (value as HttpAgent & { options: Record<string, unknown> }).options ?? {}
  const tls: Record<string, unknown> = {}
  for (const [name, setting] of Object.entries(options)) {
    if (setting === undefined) continue
    if (TLS_OPTIONS.has(name)) tls[name] = setting
    else if (!POOLING_OPTIONS.has(name)) {
      throw new CorsDevProxyError(
        'INVALID_OPTION',
        option,
        `has the agent option ${JSON.stringify(name)}, which cors-dev-proxy cannot apply to its connections (it maps maxSockets, keepAlive and the TLS options)`,
        WITHOUT_AGENT,
      )
    }
  }
  const maxSockets = value.maxSockets
  return Object.freeze({
    source: value,
    connections: Number.isFinite(maxSockets) && maxSockets > 0 ? maxSockets : null,
    keepAlive: (value as HttpAgent & { keepAlive?: boolean }).keepAlive === true,
    tls: Object.freeze(tls),
  })
}
