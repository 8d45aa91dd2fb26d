import { isValidJsonpParam, JSONP_PARAM_RULE } from '../../../config/callback-name.js'
import { MOCK_DEFAULTS } from '../../../config/defaults.js'
import { CorsDevProxyError } from '../../../config/errors.js'
import { MOCK_OPTION_NAMES } from '../../../config/nested-option-names.js'
import { describeType, isPlainObject, nestedExample } from '../../../config/option-path.js'
import { assertKnownKeys } from '../../../config/unknown-options.js'
import { parseOrigin } from '../../../http/parse-origin.js'
import type { MockBackendOptions, MockCorsMode } from './echo-backend-options.js'

/** {@link MockBackendOptions} with every default filled in. */
export interface ResolvedMockBackendOptions {
  readonly cors: MockCorsMode
  /** The fixed `Access-Control-Allow-Origin` of `reflect` mode, or `undefined` to reflect. */
  readonly origin: string | undefined
  /** The default of the `?credentials=` switch, or `undefined` for the mode's own. */
  readonly credentials: boolean | undefined
  readonly jsonpParam: string
  readonly bodyLimit: number
  readonly logLimit: number
}

const CORS_MODES: readonly string[] = ['off', 'reflect', 'wildcard']

/**
 * Validates the mock backend's options once and fills in the defaults (`true` means all
 * defaults). Throws `CorsDevProxyError` naming the option under `option` (`mock` for
 * `createMockBackend`, `routes['/api'].mock` on a route), with an example written the way
 * that caller writes it.
 *
 * @example
 * resolveMockBackendOptions({ cors: 'reflect' }, "routes['/api'].mock").bodyLimit // 1048576
 */
export function resolveMockBackendOptions(
  options: MockBackendOptions | boolean | undefined | unknown,
  option = 'mock',
): ResolvedMockBackendOptions {
  // A route writes `mock: { … }`; `createMockBackend` takes the object itself.
  const example = (inner: string): string => nestedExample(option, 'mock', inner)
  const source: unknown = options === true || options === undefined ? {} : options
  if (!isPlainObject(source)) {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      option,
      `must be true or an object of mock backend options, got ${describeType(source)}`,
      example("{ cors: 'reflect' }"),
    )
  }
  assertKnownKeys(source, MOCK_OPTION_NAMES, 'mock', (key) => `${option}.${key}`)
  const invalid = (key: string, problem: string, inner: string) =>
    new CorsDevProxyError(
      'INVALID_OPTION',
      `${option}.${key}`,
      `${problem}, got ${describeType(source[key])}`,
      example(inner),
    )
  const { cors = MOCK_DEFAULTS.cors, jsonpParam = MOCK_DEFAULTS.jsonpParam } = source as MockBackendOptions
  const { bodyLimit = MOCK_DEFAULTS.bodyLimit, logLimit = MOCK_DEFAULTS.logLimit } =
    source as MockBackendOptions
  const { origin, credentials } = source as MockBackendOptions
  if (!CORS_MODES.includes(cors)) {
    throw invalid('cors', "must be 'off', 'reflect' or 'wildcard'", "{ cors: 'reflect' }")
  }
  // The same rule as `jsonp.param` on a route: one name, one rule.
  if (!isValidJsonpParam(jsonpParam)) {
    throw invalid('jsonpParam', `must be ${JSONP_PARAM_RULE}`, "{ jsonpParam: 'callback' }")
  }
  if (!Number.isSafeInteger(bodyLimit) || bodyLimit < 0) {
    throw invalid('bodyLimit', 'must be a whole number of bytes (0 or more)', '{ bodyLimit: 1048576 }')
  }
  if (!Number.isSafeInteger(logLimit) || logLimit < 0) {
    throw invalid('logLimit', 'must be a whole number (0 or more)', '{ logLimit: 1000 }')
  }
  // An Access-Control-Allow-Origin value the browser can compare: one origin, or `null`.
  if (origin !== undefined && (typeof origin !== 'string' || parseOrigin(origin) === null)) {
    throw invalid(
      'origin',
      'must be an origin such as http://localhost:5173',
      "{ cors: 'reflect', origin: 'http://localhost:5173' }",
    )
  }
  if (credentials !== undefined && typeof credentials !== 'boolean') {
    throw invalid('credentials', 'must be true or false', '{ credentials: true }')
  }
  return Object.freeze({ cors, origin, credentials, jsonpParam, bodyLimit, logLimit })
}
