import type { ErrorObject } from 'ajv'
import { documentError } from './read-document.js'
import type { JsonSchema } from './to-json-schema.js'

/** Checks one value; the Ajv errors, empty when it is valid. */
export type SchemaCheck = (data: unknown) => readonly ErrorObject[]

/** Compiles converted schemas with one Ajv for bodies and one that coerces parameters' strings. */
export interface SchemaCompiler {
  /** `where`: the JSON pointer of the schema in the document, for the error of an invalid one. */
  body(schema: JsonSchema, where: string): SchemaCheck
  /** For parameters and headers: `'42'` is checked as `42` for an integer, a lone value as a one-item array. */
  parameter(schema: JsonSchema, where: string): SchemaCheck
}

/** What a check of a `Ajv` instance looks like, for both draft-07 and 2020-12 classes. */
interface AjvLike {
  compile(schema: JsonSchema): { (data: unknown): boolean; errors?: ErrorObject[] | null }
  addFormat(name: string, format: object): unknown
}

type AjvClass = new (options: object) => AjvLike

/**
 * The formats OpenAPI adds to JSON Schema's (OpenAPI 3.0.3 section 4.4, "Data Types"): the
 * number widths are checked where they can be, the rest accepted, so that Ajv never warns about
 * or refuses a document for using them.
 */
const OPENAPI_FORMATS: Readonly<Record<string, object>> = {
  int32: { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 },
  int64: { type: 'number', validate: (n: number) => Number.isInteger(n) },
  float: { type: 'number', validate: () => true },
  double: { type: 'number', validate: () => true },
  byte: { type: 'string', validate: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/ },
  binary: { type: 'string', validate: () => true },
  password: { type: 'string', validate: () => true },
}

/**
 * Loads Ajv (`Ajv2020` for OpenAPI 3.1, whose schemas are JSON Schema 2020-12; the draft-07
 * `Ajv` for 3.0's converted ones) and ajv-formats, here and only here, so a route without
 * `openapi` never loads them. `strict: false` because documents carry keywords JSON Schema
 * does not know (`example`, `xml`, `x-…`), `allErrors` to report every place at once,
 * `logger: false` so an unknown format stays silent instead of printing per schema.
 */
export async function createSchemaCompiler(version: '3.0' | '3.1', option: string): Promise<SchemaCompiler> {
  const [ajvModule, formatsModule] = await Promise.all([
    version === '3.1' ? import('ajv/dist/2020.js') : import('ajv'),
    import('ajv-formats'),
  ])
  // Both are CommonJS whose `module.exports` is the class or plugin: Node's import() gives it as `default`.
  const Ajv = ajvModule.default as unknown as AjvClass
  const addFormats = formatsModule.default as unknown as (ajv: AjvLike) => void
  const make = (coerceTypes: false | 'array'): AjvLike => {
    const ajv = new Ajv({ strict: false, allErrors: true, logger: false, coerceTypes })
    addFormats(ajv)
    for (const [name, format] of Object.entries(OPENAPI_FORMATS)) ajv.addFormat(name, format)
    return ajv
  }
  const bodies = make(false)
  const parameters = make('array')
  return {
    body: (schema, where) => compileWith(bodies, schema, where, option),
    parameter: (schema, where) => compileWith(parameters, schema, where, option),
  }
}

function compileWith(ajv: AjvLike, schema: JsonSchema, where: string, option: string): SchemaCheck {
  let validate: ReturnType<AjvLike['compile']>
  try {
    validate = ajv.compile(schema)
  } catch (error) {
    throw documentError(option, `has an invalid schema at ${where}: ${(error as Error).message}`)
  }
  return function checkSchema(data) {
    return validate(data) ? [] : (validate.errors ?? [])
  }
}
