import type { ErrorObject } from 'ajv'
import { isSecretField, isSecretParam, MASK, maskHeaderValue } from '../http/mask-secrets.js'
import type { ContractSide, ContractViolation } from './contract-types.js'

/** Where the checked value sits: the side, the operation, and how its pointers are written. */
export interface ViolationPlace {
  readonly in: ContractSide
  readonly operation: string
  /** Put before each error's instance path: `''` for a body, `'query.limit'` for a parameter. */
  readonly prefix: string
  /** The value is text from the URL or a header, read as its schema's type: messages quote it as sent (`got 'abc'`). */
  readonly text?: boolean
}

/**
 * One violation per distinct failing place, worded for a person: "must have required property
 * 'name'" at `/0`, "must be integer, got string" at `/age`. Ajv's own summaries are dropped
 * where they only repeat: an `if` that failed its `then` (the discriminator's branches), and the
 * errors of each `anyOf`/`oneOf` branch under a failed `anyOf`/`oneOf`, which keeps its summary
 * (no branch matched: each branch's errors would blame the wrong schema).
 *
 * @example
 * violationsFromErrors(validate.errors, { id: 1 }, { in: 'response', operation: 'GET /pets', prefix: '' })
 */
export function violationsFromErrors(
  errors: readonly ErrorObject[],
  data: unknown,
  place: ViolationPlace,
): ContractViolation[] {
  if (errors.length === 0) return []
  const summaries = errors.filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf')
  const kept = errors.filter(
    (error) =>
      error.keyword !== 'if' &&
      !summaries.some(
        (summary) => summary !== error && error.schemaPath.startsWith(`${summary.schemaPath}/`),
      ),
  )
  const byPlace = new Map<string, ContractViolation>()
  for (const error of kept) {
    const violation = describeError(error, data, place)
    byPlace.set(`${violation.pointer}\n${violation.message}`, violation)
  }
  return [...byPlace.values()]
}

/**
 * Whether the value at this place is a credential, by the inspector's rules: a secret-looking
 * header, query or path parameter (`header.authorization`, `query.api_key`), or a body field
 * named like one at any depth (`/user/password`). Its value is never quoted in a violation,
 * which reaches the log, the HAR and the page.
 */
function isSecretPlace(place: ViolationPlace, instancePath: string): boolean {
  const dot = place.prefix.indexOf('.')
  if (dot > 0) {
    const where = place.prefix.slice(0, dot)
    const name = place.prefix.slice(dot + 1)
    const probe = 'a=b c'
    if (where === 'header' || where === 'cookie')
      return where === 'cookie' || maskHeaderValue(name, probe) !== probe
    if (isSecretParam(name) || isSecretField(name)) return true
  }
  return instancePath
    .split('/')
    .some((token) => token !== '' && isSecretField(token.replace(/~1/g, '/').replace(/~0/g, '~')))
}

function describeError(error: ErrorObject, data: unknown, place: ViolationPlace): ContractViolation {
  const value = valueAt(data, error.instancePath)
  const base = { in: place.in, operation: place.operation, pointer: `${place.prefix}${error.instancePath}` }
  const params = error.params as Record<string, unknown>
  const secret = isSecretPlace(place, error.instancePath)
  const plain = place.text === true ? asSent : asJson
  const short = secret ? () => `'${MASK}'` : plain
  switch (error.keyword) {
    case 'type': {
      const got = place.text === true ? short(value) : typeName(value)
      return {
        ...base,
        message: `must be ${String(params.type)}, got ${got}`,
        expected: String(params.type),
        actual: got,
      }
    }
    case 'required':
      return {
        ...base,
        message: `must have required property '${String(params.missingProperty)}'`,
        expected: `property '${String(params.missingProperty)}'`,
        actual: 'absent',
      }
    case 'enum':
      return {
        ...base,
        message: `must be one of ${plain(params.allowedValues)}, got ${short(value)}`,
        expected: plain(params.allowedValues),
        actual: short(value),
      }
    case 'const':
      return {
        ...base,
        message: `must be ${plain(params.allowedValue)}, got ${short(value)}`,
        expected: plain(params.allowedValue),
        actual: short(value),
      }
    case 'additionalProperties':
      return {
        ...base,
        message: `must not have property '${String(params.additionalProperty)}': the schema allows no other properties`,
        actual: `property '${String(params.additionalProperty)}'`,
      }
    case 'false schema':
      return { ...base, message: directionalMessage(place.in), actual: short(value) }
    default:
      return {
        ...base,
        message: withValue(error.message ?? `breaks '${error.keyword}'`, short(value)),
        actual: short(value),
      }
  }
}

/** The only `false` schemas of a converted document: a `readOnly` property in a request, a `writeOnly` one in an answer (to-json-schema.ts). */
function directionalMessage(side: ContractSide): string {
  return side === 'request'
    ? 'must not be sent: the document marks it readOnly (set by the server)'
    : 'must not be answered: the document marks it writeOnly (sent by the client only)'
}

/** Ajv's own message, with the value after it when the value is short (a scalar, not an object). */
function withValue(message: string, shown: string): string {
  return shown.startsWith('{') || shown.startsWith('[') || shown === 'nothing'
    ? message
    : `${message}, got ${shown}`
}

/** The JSON type of a value as JSON Schema names it. */
function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

/** A value in a message: JSON, cut at 60 characters. */
function asJson(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

/** A parameter's value as it was sent, quoted: `'abc'`; a list (repeated keys) as JSON. */
function asSent(value: unknown): string {
  return typeof value === 'string'
    ? `'${value.length > 60 ? `${value.slice(0, 57)}...` : value}'`
    : asJson(value)
}

/** The value a JSON pointer (RFC 6901) names in `data`. */
function valueAt(data: unknown, pointer: string): unknown {
  if (pointer === '') return data
  let node = data
  for (const token of pointer.slice(1).split('/')) {
    if (typeof node !== 'object' || node === null) return undefined
    node = (node as Record<string, unknown>)[token.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return node
}
