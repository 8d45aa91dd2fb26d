import { didYouMean } from '../../../config/did-you-mean.js'
import { CorsDevProxyError } from '../../../config/errors.js'
import { describeType, isPlainObject, optionEntry, quote } from '../../../config/option-path.js'
import { validateTarget } from '../../../config/validate-target.js'
import { compilePathPattern, parsePatternKey } from '../../../http/path-pattern.js'
import type { FailWith } from './control-options.js'

/** Latency, failures and throttle after validation: what the control step reads per request. */
export interface ResolvedFaults {
  /** `[min, max]` milliseconds (equal for a fixed latency); `undefined`: none. */
  readonly latency: readonly [min: number, max: number] | undefined
  /** 0 to 1; 0: never fails. */
  readonly failRate: number
  readonly failWith: FailWith
  /** Bytes per second each way; `undefined`: no limit. */
  readonly throttle: number | undefined
}

/** One `faults` entry: a method (or any) and a path pattern relative to the route's prefix. */
export interface ResolvedFaultRule {
  /** The key as written (`'GET /users/:id'`), for the inspector and the log. */
  readonly key: string
  /** The method it takes; `undefined`: any. */
  readonly method: string | undefined
  /** The compiled path pattern, matched against the path after the prefix, without its query. */
  readonly pattern: RegExp
  readonly faults: ResolvedFaults
}

/** One named target of `targets`, validated as `target` is. */
export interface ResolvedTargetChoice {
  readonly name: string
  readonly url: URL
  readonly socketPath: string | undefined
  readonly websocket: boolean
}

/**
 * What a route's control step works from (`latency`, `failRate`, `failWith`, `throttle`,
 * `faults`, `targets`), resolved once; `undefined` on a route that uses none of them, which
 * then has no control step at all.
 */
export interface ResolvedControl {
  /** The route-wide faults; `undefined` when only `faults` entries or `targets` are set. */
  readonly faults: ResolvedFaults | undefined
  readonly rules: readonly ResolvedFaultRule[]
  /** The named targets, in the order written; empty without `targets`. */
  readonly targets: readonly ResolvedTargetChoice[]
  /**
   * The target in use at start-up: the first of `targets`, or the one the override file or
   * environment variable picked (`stand-ins/control/target-overrides.ts`); `undefined` without `targets`.
   */
  readonly initial: string | undefined
}

/** The fault options' names, in the order the docs list them. */
export const FAULT_OPTION_NAMES: readonly string[] = Object.freeze([
  'latency',
  'failRate',
  'failWith',
  'throttle',
])
const CONTROL_NAMES = [...FAULT_OPTION_NAMES, 'faults', 'targets']
/** Node's timers fire at once past 2^31 - 1 ms. */
const MAX_DELAY = 2_147_483_647
/** What a target's name may hold, so `CORS_DEV_PROXY_TARGETS=/api=staging` can name it. */
const TARGET_NAME = /^[\w.-]{1,64}$/

function invalid(option: string, problem: string, example: string): CorsDevProxyError {
  return new CorsDevProxyError('INVALID_OPTION', option, problem, example)
}

function isDelay(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_DELAY
}

function checkLatency(value: unknown, option: string): ResolvedFaults['latency'] {
  if (value === undefined || value === 0) return undefined
  if (isDelay(value)) return Object.freeze([value, value] as const)
  if (
    Array.isArray(value) &&
    value.length === 2 &&
    isDelay(value[0]) &&
    isDelay(value[1]) &&
    value[0] <= value[1]
  ) {
    return value[1] === 0 ? undefined : Object.freeze([value[0], value[1]] as const)
  }
  throw invalid(
    option,
    `must be milliseconds (0 to ${MAX_DELAY}) or [min, max] with min <= max, got ${describeType(value)}`,
    '{ latency: 300 } or { latency: [100, 400] }',
  )
}

function checkFailRate(value: unknown, option: string): number {
  if (value === undefined) return 0
  if (typeof value === 'number' && value >= 0 && value <= 1) return value
  throw invalid(
    option,
    `must be a number from 0 (never) to 1 (always), got ${describeType(value)}`,
    '{ failRate: 0.2 }',
  )
}

function checkFailWith(value: unknown, option: string): FailWith {
  if (value === undefined) return 503
  if (
    value === 'reset' ||
    (Number.isInteger(value) && (value as number) >= 400 && (value as number) <= 599)
  ) {
    return value as FailWith
  }
  throw invalid(
    option,
    `must be a status from 400 to 599 or 'reset' (drop the connection), got ${describeType(value)}`,
    "{ failWith: 503 } or { failWith: 'reset' }",
  )
}

function checkThrottle(value: unknown, option: string): number | undefined {
  if (value === undefined) return undefined
  if (Number.isInteger(value) && (value as number) >= 1) return value as number
  throw invalid(
    option,
    `must be a whole number of bytes per second (1 or more), got ${describeType(value)}`,
    '{ throttle: 16384 }',
  )
}

/**
 * The four fault options of `object`, each checked at `optionOf(name)`; `undefined` when none is
 * set. Also what the inspector's API checks a live change with.
 *
 * @example
 * resolveFaults({ latency: 300 }, (name) => name)?.latency // [300, 300]
 */
export function resolveFaults(
  object: Record<string, unknown>,
  optionOf: (name: string) => string,
): ResolvedFaults | undefined {
  const faults: ResolvedFaults = {
    latency: checkLatency(object.latency, optionOf('latency')),
    failRate: checkFailRate(object.failRate, optionOf('failRate')),
    failWith: checkFailWith(object.failWith, optionOf('failWith')),
    throttle: checkThrottle(object.throttle, optionOf('throttle')),
  }
  const set = FAULT_OPTION_NAMES.some((name) => object[name] !== undefined)
  return set ? Object.freeze(faults) : undefined
}

function resolveRule(key: string, value: unknown, option: string): ResolvedFaultRule {
  const example = "{ faults: { 'GET /users/:id': { failRate: 0.5, failWith: 500 } } }"
  const parts = parsePatternKey(key)
  if (parts === undefined) {
    throw invalid(
      option,
      "is not a path pattern: write 'METHOD /path' or '/path', relative to the route's prefix",
      example,
    )
  }
  if (!isPlainObject(value))
    throw invalid(option, `must be an object of fault options, got ${describeType(value)}`, example)
  for (const name of Object.keys(value)) {
    if (FAULT_OPTION_NAMES.includes(name)) continue
    const close = didYouMean(name, FAULT_OPTION_NAMES)
    throw new CorsDevProxyError(
      'UNKNOWN_OPTION',
      `${option}.${name}`,
      `is not a fault option${close ? ` (did you mean \`${close}\`?)` : ''}; known: ${FAULT_OPTION_NAMES.join(', ')}`,
      example,
    )
  }
  const faults =
    resolveFaults(value, (name) => `${option}.${name}`) ?? resolveFaults({ failRate: 0 }, () => option)
  return Object.freeze({
    key,
    method: parts.method,
    pattern: compilePathPattern(parts.path).regex,
    faults: faults as ResolvedFaults,
  })
}

/** `validateTarget` for one of `targets`, its example fix written as a `targets` entry. */
function targetAt(value: unknown, option: string, name: string) {
  try {
    return validateTarget(value, option)
  } catch (error) {
    if (!(error instanceof CorsDevProxyError)) throw error
    const problem = (error.message.split('\n')[0] ?? '').slice(`[cors-dev-proxy] ${option} `.length)
    throw new CorsDevProxyError(
      error.code,
      option,
      problem,
      `{ targets: { ${quote(name)}: 'http://localhost:3000' } }`,
    )
  }
}

function resolveTargets(value: unknown, option: string): readonly ResolvedTargetChoice[] {
  const example = "{ targets: { local: 'http://localhost:3000', staging: 'https://staging.example.com' } }"
  if (value === undefined) return []
  if (!isPlainObject(value) || Object.keys(value).length === 0) {
    throw invalid(
      option,
      `must be an object of name → target URL, the first one the default, got ${describeType(value)}`,
      example,
    )
  }
  return Object.freeze(
    Object.entries(value).map(([name, target]) => {
      const at = optionEntry(option, name)
      if (!TARGET_NAME.test(name)) {
        throw invalid(
          at,
          `is not a usable target name: letters, digits, '_', '-' and '.' only, up to 64`,
          example,
        )
      }
      const validated = targetAt(target, at, name)
      return Object.freeze({
        name,
        url: validated.url,
        socketPath: validated.socketPath,
        websocket: validated.websocket,
      })
    }),
  )
}

/**
 * Validates and resolves a route's control options once (`option(name)` names them in
 * errors): `undefined` when the route sets none, so it gets no control step and pays nothing.
 *
 * @example
 * resolveControl({ latency: [100, 400] }, (name) => `routes['/api'].${name}`)?.faults?.latency // [100, 400]
 */
export function resolveControl(
  options: Readonly<Record<string, unknown>>,
  option: (name: string) => string,
): ResolvedControl | undefined {
  if (!CONTROL_NAMES.some((name) => options[name] !== undefined)) return undefined
  const faults = options.faults
  if (faults !== undefined && !isPlainObject(faults)) {
    throw invalid(
      option('faults'),
      `must be an object of 'METHOD /path' → fault options, got ${describeType(faults)}`,
      "{ faults: { 'GET /users/:id': { failRate: 0.5, failWith: 500 } } }",
    )
  }
  const rules = Object.entries(faults ?? {}).map(([key, value]) =>
    resolveRule(key, value, optionEntry(option('faults'), key)),
  )
  const targets = resolveTargets(options.targets, option('targets'))
  return Object.freeze({
    faults: resolveFaults(options, option),
    rules: Object.freeze(rules),
    targets,
    initial: targets[0]?.name,
  })
}

/** `quote` for target names in messages. */
export function quoteNames(targets: readonly ResolvedTargetChoice[]): string {
  return targets.map((target) => quote(target.name)).join(', ')
}

/**
 * Refuses `targets` beside what already picks a target (`target`, `router`, `mock`): one route,
 * one way to choose where its requests go.
 */
export function checkTargetsAlone(
  options: Readonly<Record<string, unknown>>,
  prefix: string,
  option: string,
): void {
  if (options.targets === undefined) return
  for (const other of ['target', 'router', 'mock']) {
    const value = options[other]
    if (value === undefined || value === false) continue
    throw new CorsDevProxyError(
      'CONFLICTING_OPTIONS',
      option,
      `sets both \`targets\` and \`${other}\`: \`targets\` names the route's targets (the first the default), so drop \`${other}\``,
      `{ ${quote(prefix)}: { targets: { local: 'http://localhost:3000', staging: 'https://staging.example.com' } } }`,
    )
  }
}
