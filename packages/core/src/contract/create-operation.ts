import { checkBody } from './check-body.js'
import { checkParameters } from './check-parameters.js'
import type {
  ContractCheck,
  ContractOperation,
  ContractRequest,
  ContractResponse,
  ContractViolation,
} from './contract-types.js'
import type { PathTemplate } from './operation-paths.js'
import type { OperationRules } from './operation-rules.js'
import { responseKeyFor } from './response-status.js'

/** An answer has no path parameters nor query: shared, never changed. */
const NO_PATH: Readonly<Record<string, string>> = Object.freeze({})
const NO_QUERY = new URLSearchParams()

/** An operation's facts, its compiled rules and its path matcher. */
export interface OperationParts {
  readonly method: string
  readonly pathTemplate: string
  readonly definition: Readonly<Record<string, unknown>>
  readonly rules: OperationRules
  readonly path: PathTemplate
  readonly maxBodyBytes: number
}

/**
 * The {@link ContractOperation} over compiled rules: each check runs the steps of its side in
 * order and joins their violations. A check never throws: what cannot be read is a violation
 * or a `skipped` reason.
 *
 * @example
 * createOperation({ method: 'GET', pathTemplate: '/pets/{id}', definition, rules, path, maxBodyBytes: 1_048_576 })
 */
export function createOperation(parts: OperationParts): ContractOperation {
  const id = `${parts.method} ${parts.pathTemplate}`
  const statuses = Object.freeze([...parts.rules.responses.keys()])
  // The key each status falls under, found once: a status is a number from 100 to 999, so this stays small.
  const keys = new Map<number, string | undefined>()
  const keyFor = (status: number): string | undefined => {
    if (keys.has(status)) return keys.get(status)
    const key = responseKeyFor(status, statuses)
    keys.set(status, key)
    return key
  }
  return Object.freeze({
    id,
    method: parts.method,
    pathTemplate: parts.pathTemplate,
    definition: parts.definition,
    statuses,
    checkRequest: (request: ContractRequest) => checkRequest(parts, id, request),
    checkResponse: (response: ContractResponse) => checkResponse(parts, id, statuses, keyFor, response),
  })
}

function checkRequest(parts: OperationParts, id: string, request: ContractRequest): ContractCheck {
  const values = {
    path: parts.path.match(request.pathname) ?? {},
    // Most calls have no query: the shared empty one, not a parse per request.
    query: request.search === '' || request.search === '?' ? NO_QUERY : new URLSearchParams(request.search),
    headers: request.headers,
  }
  const violations = checkParameters(parts.rules.parameters, values, 'request', id)
  if (parts.rules.requestBody === undefined) return { violations }
  if (request.bodySkipped !== undefined) return { violations, skipped: request.bodySkipped }
  const body = checkBody(parts.rules.requestBody, request, 'request', id, parts.maxBodyBytes)
  return joined(violations, body)
}

function checkResponse(
  parts: OperationParts,
  id: string,
  statuses: readonly string[],
  keyFor: (status: number) => string | undefined,
  response: ContractResponse,
): ContractCheck {
  const key = keyFor(response.status)
  const rule = key === undefined ? undefined : parts.rules.responses.get(key)
  if (rule === undefined) {
    const expected = statuses.join(', ')
    return {
      violations: [
        {
          in: 'response',
          operation: id,
          pointer: 'status',
          message: `status ${response.status} is not declared by the document (it declares ${expected})`,
          expected,
          actual: String(response.status),
        },
      ],
    }
  }
  const values = { path: NO_PATH, query: NO_QUERY, headers: response.headers }
  const headers = checkParameters(rule.headers, values, 'response', id)
  const noBody = parts.method === 'HEAD' || response.status === 204 || response.status === 304
  if (noBody) return { violations: headers }
  return joined(headers, checkBody(rule.content, response, 'response', id, parts.maxBodyBytes))
}

function joined(violations: readonly ContractViolation[], check: ContractCheck): ContractCheck {
  const all = [...violations, ...check.violations]
  return check.skipped === undefined ? { violations: all } : { violations: all, skipped: check.skipped }
}
