import { mimeEssence } from '../http/mime.js'
import { violationsFromErrors } from './ajv-violations.js'
import type { ContractCheck, ContractSide, ContractViolation } from './contract-types.js'
import { listMediaTypes, pickMediaType } from './media-types.js'
import type { BodyRule } from './operation-rules.js'
import { readJsonForCheck } from './read-body.js'

/** The message whose body is checked. */
export interface BodyMessage {
  readonly headers: Readonly<Record<string, string>>
  readonly body?: Uint8Array
}

/**
 * Checks a body against a request body or a response's content: a required body must be there;
 * a body's content type must be one the document declares; a JSON one must parse and fit its
 * schema. A message without a body, where none is required, passes.
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
  const base = { in: side, operation }
  const empty = message.body === undefined || message.body.byteLength === 0
  if (empty) {
    return {
      violations: rule.required
        ? [
            {
              ...base,
              pointer: '',
              message: `a body is required by the document (${listMediaTypes(rule.media)}) and none came`,
              expected: listMediaTypes(rule.media),
              actual: 'no body',
            },
          ]
        : [],
    }
  }
  if (rule.media.length === 0) return { violations: [] }
  const contentType = message.headers['content-type']
  const media = pickMediaType(rule.media, contentType)
  if (media === undefined) return { violations: [wrongContentType(rule, contentType, side, operation)] }
  // An event stream never ends and is not one JSON value: it is skipped, and the check says so.
  if (mimeEssence(contentType) === 'text/event-stream') {
    return { violations: [], skipped: 'an event stream (text/event-stream) is not checked' }
  }
  if (media.check === undefined) return { violations: [] }
  const read = readJsonForCheck(message.body as Uint8Array, message.headers, maxBodyBytes)
  if (read.kind === 'skipped') return { violations: [], skipped: read.reason }
  if (read.kind === 'invalid')
    return {
      violations: [
        { ...base, pointer: '', message: `the ${media.key} body ${read.message}`, expected: media.key },
      ],
    }
  return { violations: violationsFromErrors(media.check(read.value), read.value, { ...base, prefix: '' }) }
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
