import { INSPECTOR_DEFAULTS } from './defaults.js'
import { CorsDevProxyError } from './errors.js'
import { INSPECTOR_OPTION_NAMES } from './nested-option-names.js'
import { describeType, isPlainObject } from './option-path.js'
import { assertKnownKeys } from './unknown-options.js'
import { checkWholeNumber } from './validate-values.js'

/** `InspectorOptions` with every field filled in; `undefined` in the resolved model means `inspector: false`. */
export interface ResolvedInspectorOptions {
  /** Exchanges the ring keeps. */
  readonly exchanges: number
  /** Bytes of each body copied while an inspector is connected (0: none). */
  readonly bodyLimit: number
}

const EXAMPLE = '{ inspector: { exchanges: 500, bodyLimit: 65536 } }'

const checkInteger = (value: unknown, option: string, min: number, max: number) =>
  checkWholeNumber(value, option, min, max, EXAMPLE)

/**
 * Resolves `inspector` (a boolean or `InspectorOptions`) once: `false` gives `undefined` (no
 * recording, no inspector), `true` or nothing the defaults, an object its checked values over
 * the defaults.
 *
 * @example
 * resolveInspectorOptions({ exchanges: 50 }, 'options.inspector') // { exchanges: 50, bodyLimit: 65536 }
 */
export function resolveInspectorOptions(
  value: unknown,
  option: string,
): ResolvedInspectorOptions | undefined {
  if (value === false) return undefined
  if (value === undefined || value === true) return INSPECTOR_DEFAULTS
  if (!isPlainObject(value)) {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      option,
      `must be true, false or an object ({ exchanges, bodyLimit }), got ${describeType(value)}`,
      EXAMPLE,
    )
  }
  assertKnownKeys(value, INSPECTOR_OPTION_NAMES, 'inspector', (key) => `${option}.${key}`)
  return Object.freeze({
    exchanges:
      checkInteger(value.exchanges, `${option}.exchanges`, 1, 10_000) ?? INSPECTOR_DEFAULTS.exchanges,
    bodyLimit:
      checkInteger(value.bodyLimit, `${option}.bodyLimit`, 0, 16 * 1024 * 1024) ??
      INSPECTOR_DEFAULTS.bodyLimit,
  })
}
