import { violationsFromErrors } from './ajv-violations.js'
import type { ContractSide, ContractViolation } from './contract-types.js'
import type { ParameterRule } from './operation-rules.js'

/** Where the values of one check come from: the path's parameters, the query, the headers. */
export interface ParameterValues {
  readonly path: Readonly<Record<string, string>>
  readonly query: URLSearchParams
  readonly headers: Readonly<Record<string, string>>
}

/**
 * Checks parameters or headers: a required one must be there (`'query.limit' is required`),
 * and each present one must fit its schema once its text is read as the schema's type (Ajv's
 * `coerceTypes: 'array'`: `'42'` for an integer passes, `'abc'` is "must be integer, got
 * string"). An array comes as repeated keys (`style: form`, `explode: true`, the default), or
 * comma-separated with `explode: false`.
 *
 * @example
 * checkParameters(rules, { path: { id: 'abc' }, query, headers }, 'request', 'GET /pets/{id}')
 */
export function checkParameters(
  rules: readonly ParameterRule[],
  values: ParameterValues,
  side: ContractSide,
  operation: string,
): ContractViolation[] {
  const violations: ContractViolation[] = []
  for (const rule of rules) {
    const value = sentValue(rule, values)
    if (value === undefined) {
      if (rule.required) violations.push(missing(rule, side, operation))
      continue
    }
    const errors = rule.check?.(value) ?? []
    violations.push(
      ...violationsFromErrors(errors, value, { in: side, operation, prefix: rule.pointer, text: true }),
    )
  }
  return violations
}

function sentValue(rule: ParameterRule, values: ParameterValues): string | string[] | undefined {
  if (rule.in === 'path') return values.path[rule.name]
  if (rule.in === 'header') {
    const value = values.headers[rule.name]
    return value !== undefined && rule.array ? value.split(',').map((item) => item.trim()) : value
  }
  const all = values.query.getAll(rule.name)
  if (all.length === 0) return undefined
  if (!rule.array) return all[0]
  return rule.explode ? all : all.flatMap((item) => item.split(','))
}

function missing(rule: ParameterRule, side: ContractSide, operation: string): ContractViolation {
  const what = rule.in === 'header' ? `header '${rule.name}'` : `${rule.in} parameter '${rule.name}'`
  return {
    in: side,
    operation,
    pointer: rule.pointer,
    message: `${what} is required by the document and was not sent`,
    expected: rule.name,
    actual: 'absent',
  }
}
