import { didYouMean } from '../../../config/did-you-mean.js'
import { describeType, isPlainObject, optionEntry } from '../../../config/option-path.js'
import { HTTP_TOKEN } from '../../../http/http-token.js'

/*
 * One mocked answer checked: the same rules at start-up (a `mocks` entry in the config, where a
 * mistake throws) and at request time (a mock file, or what a function returned, where a mistake
 * is a 500 naming the file or the key). So the check returns its problem instead of throwing.
 */

/** A mocked answer ready to write: every field filled in. */
export interface ResolvedMockAnswer {
  readonly status: number
  /** Lower-case names; a repeated field (`set-cookie`) as an array. `content-type` always set. */
  readonly headers: Readonly<Record<string, string | readonly string[]>>
  readonly body: Buffer
}

/** What is wrong with an answer: the field, and the problem in words. */
export interface MockAnswerProblem {
  /** `status`, `headers['x-a']`, `json`...; `''` for the answer as a whole. */
  readonly field: string
  readonly problem: string
}

/** The fields an answer takes. */
export const MOCK_ANSWER_FIELDS: readonly string[] = Object.freeze(['status', 'headers', 'json', 'body'])

/** RFC 9110 section 5.5: never CR, LF or NUL in a field value. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/
/** What the dev server frames or the connection owns: a mock cannot set them. */
const FRAMING = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'upgrade',
  'trailer',
])
/** Statuses that carry no content (RFC 9110 sections 15.3.5 and 15.4.5). */
const NO_CONTENT = new Set([204, 205, 304])
const JSON_TYPE = 'application/json; charset=utf-8'
const TEXT_TYPE = 'text/plain; charset=utf-8'

function headersOf(value: unknown): Record<string, string | readonly string[]> | MockAnswerProblem {
  if (value === undefined) return {}
  if (!isPlainObject(value)) {
    return {
      field: 'headers',
      problem: `must be an object of header name → value, got ${describeType(value)}`,
    }
  }
  const headers: Record<string, string | readonly string[]> = {}
  for (const [name, item] of Object.entries(value)) {
    const field = optionEntry('headers', name)
    if (!HTTP_TOKEN.test(name)) return { field, problem: 'is not a valid header name' }
    const lower = name.toLowerCase()
    if (FRAMING.has(lower)) return { field, problem: 'is set by the dev server: remove it' }
    const values = Array.isArray(item) ? item : [item]
    if (values.length === 0 || !values.every((one) => typeof one === 'string' && FIELD_VALUE.test(one))) {
      return {
        field,
        problem: `must be a string (or strings) without CR, LF or NUL, got ${describeType(item)}`,
      }
    }
    headers[lower] = Array.isArray(item) ? Object.freeze([...(item as string[])]) : (item as string)
  }
  return headers
}

function bodyOf(answer: Record<string, unknown>): Buffer | MockAnswerProblem {
  const { json, body } = answer
  if (json !== undefined && body !== undefined) {
    return { field: 'body', problem: 'is set beside json: give one of them' }
  }
  if (body !== undefined) {
    if (typeof body === 'string') return Buffer.from(body)
    if (body instanceof Uint8Array) return Buffer.from(body)
    return {
      field: 'body',
      problem: `must be a string or bytes (use json for data), got ${describeType(body)}`,
    }
  }
  if (json === undefined) return Buffer.alloc(0)
  try {
    return Buffer.from(JSON.stringify(json))
  } catch (error) {
    return { field: 'json', problem: `cannot be sent as JSON: ${(error as Error).message}` }
  }
}

const isProblem = (value: unknown): value is MockAnswerProblem =>
  isPlainObject(value) && typeof value.problem === 'string' && typeof value.field === 'string'

/**
 * Checks and completes one answer: `status` (200 to 599, default 200), `headers`, and `json` or
 * `body` (the Content-Type follows from which one, unless `headers` set it). Returns the problem
 * instead of throwing.
 *
 * @example
 * mockAnswerOf({ json: { id: 1 } }) // { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: <Buffer 7b ...> }
 * mockAnswerOf({ status: 'ok' }) // { field: 'status', problem: 'must be a whole number from 200 to 599, got a string ("ok")' }
 */
export function mockAnswerOf(value: unknown): ResolvedMockAnswer | MockAnswerProblem {
  if (!isPlainObject(value)) {
    return {
      field: '',
      problem: `must be an object { status, headers, json | body }, got ${describeType(value)}`,
    }
  }
  for (const name of Object.keys(value)) {
    if (MOCK_ANSWER_FIELDS.includes(name)) continue
    const close = didYouMean(name, MOCK_ANSWER_FIELDS)
    return {
      field: name,
      problem: `is not an answer field${close ? ` (did you mean \`${close}\`?)` : ''}; known: ${MOCK_ANSWER_FIELDS.join(', ')}`,
    }
  }
  const status = value.status ?? 200
  if (!Number.isInteger(status) || (status as number) < 200 || (status as number) > 599) {
    return {
      field: 'status',
      problem: `must be a whole number from 200 to 599, got ${describeType(value.status)}`,
    }
  }
  const headers = headersOf(value.headers)
  if (isProblem(headers)) return headers
  const body = bodyOf(value)
  if (isProblem(body)) return body
  if (NO_CONTENT.has(status as number) && body.byteLength > 0) {
    return {
      field: value.json === undefined ? 'body' : 'json',
      problem: `must be left out: a ${status} answer has no content`,
    }
  }
  if (headers['content-type'] === undefined && body.byteLength > 0) {
    headers['content-type'] = value.json === undefined ? TEXT_TYPE : JSON_TYPE
  }
  return Object.freeze({ status: status as number, headers: Object.freeze(headers), body })
}

/**
 * Whether `mockAnswerOf` found a problem.
 *
 * @example
 * if (isMockAnswerProblem(answer)) send500(answer.problem)
 */
export function isMockAnswerProblem(
  value: ResolvedMockAnswer | MockAnswerProblem,
): value is MockAnswerProblem {
  return 'problem' in value
}
