/*
 * The answer `openapi: { mock: 'missing' }` gives for an operation the target does not implement
 * yet, read from the document as Prism's mock server reads it: the operation's lowest declared
 * 2xx response (or the one `Prefer: code=<status>` names), its first JSON media type, and a body
 * from the named example (`Prefer: example=<name>`), else the media type's `example`, else its
 * first `examples` entry, else the schema's own example, else one generated from the schema.
 * Pure functions over a dereferenced Operation Object (no `$ref` left), OpenAPI 3.0 or 3.1.
 */
import { type MockPreference, readMockPreference } from './prefer-header.js'
import { sampleSchema } from './sample-schema.js'

/** An operation of the document: its Operation Object, dereferenced, and the document's version. */
export interface DocumentOperation {
  readonly definition: Readonly<Record<string, unknown>>
  readonly version: '3.0' | '3.1'
}

/** A mocked answer, ready to send. */
export interface DocumentMockAnswer {
  readonly status: number
  /** The media type answered; `''` when the response declares no content (a 204). */
  readonly contentType: string
  readonly body: string
  /** The name of the example the body is, when it is one of the media type's `examples`. */
  readonly example?: string
}

type Json = Readonly<Record<string, unknown>>

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A JSON media type: `application/json`, `application/problem+json`, `application/vnd.x+json; v=1`. */
const JSON_MEDIA = /^[\w.+-]+\/(?:[\w.-]+\+)?json\s*(?:;|$)/i

/**
 * The response to answer with, and its status: the one `Prefer: code=` names when the operation
 * declares it (exactly or by its range), else the lowest 2xx (`2XX` counts as 200, after an
 * exact 200); `undefined` when the operation declares no 2xx (`default` is not one).
 */
function pickResponse(responses: Json, code: number | undefined): [number, Json] | undefined {
  if (code !== undefined) {
    const declared = responses[String(code)] ?? rangeOf(responses, String(code)[0] as string)
    if (isObject(declared)) return [code, declared]
  }
  const exact = Object.keys(responses)
    .filter((key) => /^2\d\d$/.test(key))
    .map(Number)
    .sort((a, b) => a - b)
  const range = rangeOf(responses, '2')
  const lowest = exact[0]
  if (lowest !== undefined && (lowest <= 200 || range === undefined)) {
    const response = responses[String(lowest)]
    return isObject(response) ? [lowest, response] : undefined
  }
  return isObject(range) ? [200, range] : undefined
}

/** The `<digit>XX` response, written in either case. */
function rangeOf(responses: Json, digit: string): unknown {
  return responses[`${digit}XX`] ?? responses[`${digit}xx`]
}

/** The media type to answer with: the first JSON one, else the first; a range (`*\/*`) answers JSON. */
function pickMedia(content: Json): [string, Json] | undefined {
  const types = Object.keys(content).filter((type) => isObject(content[type]))
  const type = types.find((name) => JSON_MEDIA.test(name)) ?? types[0]
  if (type === undefined) return undefined
  return [type.includes('*') ? 'application/json' : type, content[type] as Json]
}

/** The body's value from the media type's examples, in Prism's order; `undefined` when it has none. */
function pickExample(media: Json, preference: MockPreference): { value: unknown; name?: string } | undefined {
  const examples = isObject(media.examples) ? media.examples : {}
  const named = preference.example === undefined ? undefined : examples[preference.example]
  if (isObject(named) && 'value' in named) return { value: named.value, name: preference.example as string }
  if ('example' in media) return { value: media.example }
  for (const [name, example] of Object.entries(examples)) {
    if (isObject(example) && 'value' in example) return { value: example.value, name }
  }
  return undefined
}

/** The schema's own example: 3.0's `example`, or the first of 3.1's (JSON Schema's) `examples`. */
function schemaExample(schema: Json, version: DocumentOperation['version']): { value: unknown } | undefined {
  if ('example' in schema) return { value: schema.example }
  if (version === '3.1' && Array.isArray(schema.examples) && schema.examples.length > 0) {
    return { value: schema.examples[0] }
  }
  return undefined
}

/** The body as sent: JSON for a JSON media type (or any value that is not a string), else the string. */
function serialize(value: unknown, contentType: string): string {
  if (typeof value === 'string' && !JSON_MEDIA.test(contentType)) return value
  return JSON.stringify(value) ?? ''
}

/**
 * The document's answer for `operation`, as `mock: 'missing'` sends it, given the request's
 * `Prefer` header (`example=<name>`, `code=<status>`, as Prism reads them); `undefined` when the
 * operation declares no 2xx response (nor the `code` asked for). Asynchronous because a body
 * generated from the schema loads `openapi-sampler` on first use.
 *
 * @example
 * await loadDocumentMockAnswer({ definition: getPet, version: '3.1' }, 'example=cat')
 * // { status: 200, contentType: 'application/json', body: '{"id":1,"name":"Tom"}', example: 'cat' }
 */
export async function loadDocumentMockAnswer(
  operation: DocumentOperation,
  prefer?: string,
): Promise<DocumentMockAnswer | undefined> {
  const preference = readMockPreference(prefer)
  const responses = operation.definition.responses
  const picked = isObject(responses) ? pickResponse(responses, preference.code) : undefined
  if (picked === undefined) return undefined
  const [status, response] = picked
  const media = isObject(response.content) ? pickMedia(response.content) : undefined
  if (media === undefined) return { status, contentType: '', body: '' }
  const [contentType, definition] = media
  const schema = isObject(definition.schema) ? definition.schema : undefined
  const example =
    pickExample(definition, preference) ??
    (schema === undefined ? undefined : schemaExample(schema, operation.version))
  if (example !== undefined) {
    const body = serialize(example.value, contentType)
    return 'name' in example
      ? { status, contentType, body, example: example.name as string }
      : { status, contentType, body }
  }
  if (schema === undefined) return { status, contentType, body: '' }
  return { status, contentType, body: serialize(await sampleSchema(schema), contentType) }
}
