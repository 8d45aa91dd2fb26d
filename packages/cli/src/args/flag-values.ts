import type { LogLevel } from '@cors-dev-proxy/core'
import type { CommandSpec } from './command-spec.js'
import { invalidFlagValue } from './parse-flags.js'
import { UsageError } from './usage-error.js'

const PORT = /^\d{1,5}$/
const LOG_LEVELS: readonly string[] = ['silent', 'error', 'warn', 'info', 'debug']
const TARGET_SCHEMES: readonly string[] = ['http:', 'https:', 'ws:', 'wss:']

/**
 * A `--port` value: an integer from 0 to 65535 (0 lets the system pick a free port).
 *
 * @example
 * readPort(spec, 'port', '8080') // 8080
 */
export function readPort(spec: CommandSpec, name: string, value: string): number {
  const port = PORT.test(value) ? Number(value) : Number.NaN
  if (!(port >= 0 && port <= 65_535)) {
    throw invalidFlagValue(spec, name, value, 'an integer from 0 to 65535 (0 picks a free port)')
  }
  return port
}

/**
 * A whole number of milliseconds, at least 1.
 *
 * @example
 * readMilliseconds(spec, 'timeout', '5000') // 5000
 */
export function readMilliseconds(spec: CommandSpec, name: string, value: string): number {
  const ms = /^\d{1,9}$/.test(value) ? Number(value) : 0
  if (ms < 1) throw invalidFlagValue(spec, name, value, 'a whole number of milliseconds, e.g. 5000')
  return ms
}

/**
 * A `--log` value, one of the core's levels.
 *
 * @example
 * readLogLevel(spec, 'debug') // 'debug'
 */
export function readLogLevel(spec: CommandSpec, value: string): LogLevel {
  if (!LOG_LEVELS.includes(value)) throw invalidFlagValue(spec, 'log', value, LOG_LEVELS.join(', '))
  return value as LogLevel
}

/**
 * A path prefix given to `--route` or `--mock`: it starts with `/`.
 */
function readPrefix(flag: string, prefix: string, example: string): string {
  if (!prefix.startsWith('/')) {
    throw new UsageError(
      `${flag} needs a path prefix that starts with "/", got ${JSON.stringify(prefix)}`,
      example,
    )
  }
  return prefix
}

/**
 * A `--route PREFIX=TARGET` value, e.g. `/api=http://127.0.0.1:3000`: the prefix and the target
 * URL (`http:`, `https:`, `ws:` or `wss:`; a `ws:` target also forwards WebSocket upgrades).
 *
 * @example
 * readRoute('/api=http://127.0.0.1:3000', 'cors-dev-proxy serve --route /api=http://127.0.0.1:3000')
 * // ['/api', 'http://127.0.0.1:3000']
 */
export function readRoute(value: string, example: string): [prefix: string, target: string] {
  const equals = value.indexOf('=')
  if (equals === -1) {
    throw new UsageError(
      `--route must be PREFIX=TARGET, e.g. /api=http://127.0.0.1:3000, got ${JSON.stringify(value)}`,
      example,
    )
  }
  const prefix = readPrefix('--route', value.slice(0, equals), example)
  const target = value.slice(equals + 1)
  if (!URL.canParse(target) || !TARGET_SCHEMES.includes(new URL(target).protocol)) {
    throw new UsageError(
      `--route ${prefix}= needs an http:, https:, ws: or wss: URL as its target, got ${JSON.stringify(target)}`,
      example,
    )
  }
  return [prefix, target]
}

/**
 * A `--mock PREFIX` value: a path prefix answered by the built-in mock backend.
 *
 * @example
 * readMockPrefix('/mock', 'cors-dev-proxy serve --mock /mock') // '/mock'
 */
export function readMockPrefix(value: string, example: string): string {
  return readPrefix('--mock', value, example)
}
