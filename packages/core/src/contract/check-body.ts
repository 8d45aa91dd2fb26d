import { violationsFromErrors } from './ajv-violations.js'
import type { ContractCheck, ContractSide, ContractViolation } from './contract-types.js'
import { contentEssence, listMediaTypes, pickMediaType } from './media-types.js'
import type { BodyRule } from './operation-rules.js'
import { readJsonForCheck } from './read-body.js'

/** The message whose body is checked. */
export interface BodyMessage {
  readonly headers: Readonly<Record<string, string>>
  /** Absent: not collected (an answer's body is then not checked); empty: no body. */
  readonly body?: Uint8Array
}

/**
 * Checks a body against a request body or a response's content: a required request body, or an
 * answer's declared content, must be there; its content type must be one the document declares;
 * a JSON one must parse and fit its schema.
 *
 * @example
 * checkBody(rule, { headers: { 'content-type': 'application/json' }, body }, 'response', 'GET /pets', 1_048_576)
 */
export function checkBody(
  rule: BodyRule,
  message: BodyMessage,
  side: ContractSide,
  operation: string,
  maxBodyBytes: number,
): ContractCheck {
  const body = message.body
  if (body === undefined || body.byteLength === 0) {
    const expected = rule.required || (side === 'response' && body !== undefined && rule.media.length > 0)
    return { violations: expected ? [missingBody(rule, side, operation)] : [] }
  }
  if (rule.media.length === 0) return { violations: [] }
  const contentType = message.headers['content-type']
  const media = pickMediaType(rule.media, contentType)
  if (media === undefined) return { violations: [wrongContentType(rule, contentType, side, operation)] }
  // An event stream never ends and is not one JSON value: it is skipped, and the check says so.
  if (contentEssence(contentType) === 'text/event-stream') {
    return { violations: [], skipped: 'an event stream (text/event-stream) is not checked' }
  }
  if (media.check === undefined) return { violations: [] }
  const read = readJsonForCheck(body, message.headers, maxBodyBytes)
  if (read.kind === 'skipped') return { violations: [], skipped: read.reason }
  const base = { in: side, operation }
  if (read.kind === 'invalid') {
    return {
      violations: [
        { ...base, pointer: '', message: `the ${media.key} body ${read.message}`, expected: media.key },
      ],
    }
  }
  return { violations: violationsFromErrors(media.check(read.value), read.value, { ...base, prefix: '' }) }
}

function missingBody(rule: BodyRule, side: ContractSide, operation: string): ContractViolation {
  const expected = listMediaTypes(rule.media)
  const what = side === 'request' ? 'a body is required' : 'a body is declared'
  return {
    in: side,
    operation,
    pointer: '',
    message: `${what} by the document (${expected}) and none came`,
    expected,
    actual: 'no body',
  }
}

function wrongContentType(
  rule: BodyRule,
  contentType: string | undefined,
  side: ContractSide,
  operation: string,
): ContractViolation {
  const expected = listMediaTypes(rule.media)
  return {
    in: side,
    operation,
    pointer: 'content-type',
    message: `content-type must be ${expected}, got ${contentType === undefined ? 'none' : `'${contentType}'`}`,
    expected,
    actual: contentType ?? 'none',
  }
}
