import { RECORDINGS_DEFAULTS } from '../../../config/defaults.js'
import { CorsDevProxyError } from '../../../config/errors.js'
import { RECORDINGS_OPTION_NAMES } from '../../../config/nested-option-names.js'
import { describeType, isPlainObject } from '../../../config/option-path.js'
import { assertKnownKeys } from '../../../config/unknown-options.js'
import { checkWholeNumber } from '../../../config/validate-values.js'

/** `RecordingsOptions` with every field filled in. */
export interface ResolvedRecordingsOptions {
  /** The folder as given: relative ones are resolved against the working directory, or the dev server's root. */
  readonly dir: string
  /** Whether secrets are masked at write time. */
  readonly mask: boolean
  /** Header and body field names masked besides the inspector's rules (lower-case). */
  readonly maskNames: readonly string[]
  readonly maxFiles: number
  readonly maxAnswers: number
  readonly maxBodyBytes: number
  readonly maxGap: number
}

const EXAMPLE = "{ recordings: { dir: 'cors-dev-proxy/recordings', maxFiles: 1000 } }"

const checkInteger = (value: unknown, option: string, min: number, max: number) =>
  checkWholeNumber(value, option, min, max, EXAMPLE)

function checkMask(value: unknown, option: string): readonly string[] | boolean {
  if (value === undefined) return true
  if (typeof value === 'boolean') return value
  if (Array.isArray(value) && value.every((name) => typeof name === 'string' && name !== '')) {
    return Object.freeze(value.map((name: string) => name.toLowerCase()))
  }
  throw new CorsDevProxyError(
    'INVALID_OPTION',
    option,
    `must be true, false or an array of header and field names, got ${describeType(value)}`,
    "{ recordings: { mask: ['x-tenant'] } }",
  )
}

/**
 * Resolves `recordings` once.
 *
 * @example
 * resolveRecordingsOptions({ maxFiles: 50 }, 'options.recordings').maxFiles // 50
 */
export function resolveRecordingsOptions(value: unknown, option: string): ResolvedRecordingsOptions {
  const given: Record<string, unknown> = value === undefined ? {} : (value as Record<string, unknown>)
  if (!isPlainObject(value) && value !== undefined) {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      option,
      `must be an object ({ dir, mask, maxFiles, maxAnswers, maxBodyBytes, maxGap }), got ${describeType(value)}`,
      EXAMPLE,
    )
  }
  assertKnownKeys(given, RECORDINGS_OPTION_NAMES, 'recordings', (key) => `${option}.${key}`)
  const dir = given.dir ?? RECORDINGS_DEFAULTS.dir
  if (typeof dir !== 'string' || dir.trim() === '' || dir.includes('\0')) {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      `${option}.dir`,
      `must be a folder path, got ${describeType(given.dir)}`,
      EXAMPLE,
    )
  }
  const mask = checkMask(given.mask, `${option}.mask`)
  return Object.freeze({
    dir,
    mask: mask !== false,
    maskNames: typeof mask === 'boolean' ? Object.freeze([]) : mask,
    maxFiles: checkInteger(given.maxFiles, `${option}.maxFiles`, 1, 100_000) ?? RECORDINGS_DEFAULTS.maxFiles,
    maxAnswers:
      checkInteger(given.maxAnswers, `${option}.maxAnswers`, 1, 1000) ?? RECORDINGS_DEFAULTS.maxAnswers,
    maxBodyBytes:
      checkInteger(given.maxBodyBytes, `${option}.maxBodyBytes`, 0, 64 * 1024 * 1024) ??
      RECORDINGS_DEFAULTS.maxBodyBytes,
    maxGap: checkInteger(given.maxGap, `${option}.maxGap`, 0, 60_000) ?? RECORDINGS_DEFAULTS.maxGap,
  })
}

/**
 * A route's `record`: `false` (off), `true` (every exchange) or `'missing'` (replay what has a
 * recording, forward and record what has none); `'missing'` cannot go with `replay: 'only'`.
 *
 * @example
 * checkRecord('missing', undefined, "routes['/api'].record") // 'missing'
 */
export function checkRecord(value: unknown, replay: unknown, option: string): boolean | 'missing' {
  if (value === undefined) return false
  if (value === true || value === false) return value
  if (value !== 'missing') {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      option,
      `must be true, false or 'missing' (replay what has a recording, record the rest), got ${describeType(value)}`,
      "{ '/api': { target: 'http://localhost:3000', record: 'missing' } }",
    )
  }
  if (replay === 'only') {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      option,
      "'missing' forwards what has no recording, which replay: 'only' never does: drop replay, or record",
      "{ '/api': { target: 'http://localhost:3000', record: 'missing' } }",
    )
  }
  return 'missing'
}

/**
 * A route's `replay`: `undefined` (off), `'fallback'` or `'only'`.
 *
 * @example
 * checkReplay('only', "routes['/api'].replay") // 'only'
 */
export function checkReplay(value: unknown, option: string): 'fallback' | 'only' | undefined {
  if (value === undefined || value === false) return undefined
  if (value === 'fallback' || value === 'only') return value
  throw new CorsDevProxyError(
    'INVALID_OPTION',
    option,
    `must be 'fallback' (answer from the recordings when the target is down) or 'only' (never contact the target), got ${describeType(value)}`,
    "{ '/api': { target: 'http://localhost:3000', replay: 'fallback' } }",
  )
}
