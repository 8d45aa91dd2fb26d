import type { ContractSide } from './contract-types.js'

/** A JSON Schema as Ajv compiles it. */
export type JsonSchema = Record<string, unknown> | boolean

/** What a conversion needs besides the schema. */
export interface SchemaConversion {
  readonly version: '3.0' | '3.1'
  /** Which side the schema checks: `readOnly` properties are refused in requests, `writeOnly` ones in answers. */
  readonly side: ContractSide
  /** The value a circular `#/…` reference points to in the dereferenced document. */
  readonly resolveRef: (ref: string) => unknown
}

/** Keywords whose value is one subschema. */
const ONE_SCHEMA = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'additionalItems',
]
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems']
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']
/** OpenAPI 3.0 keywords that are not JSON Schema: annotations, or rewritten below. */
const OPENAPI_30_ONLY = new Set(['nullable', 'example', 'discriminator', 'xml', 'externalDocs', 'deprecated'])

/**
 * Turns an OpenAPI Schema Object into the JSON Schema Ajv checks with: for 3.0 (draft-07 for
 * Ajv), `nullable` becomes a `null` type, boolean `exclusiveMinimum`/`exclusiveMaximum` become
 * numbers, and `example`, `xml` and the rest are dropped; for both versions a `readOnly`
 * property is made not required and not allowed in a request (OpenAPI 3.0.3 section 4.7.25.5:
 * "SHOULD NOT be sent as part of the request"), a `writeOnly` one the same in an answer. A
 * circular reference left by the dereference becomes a local definition. The input is never changed.
 *
 * @example
 * toJsonSchema({ type: 'string', nullable: true }, { version: '3.0', side: 'response', resolveRef })
 * // { type: ['string', 'null'] }
 */
export function toJsonSchema(schema: unknown, conversion: SchemaConversion): JsonSchema {
  const definitions = new Map<string, Record<string, unknown>>()
  const root = convertNode(schema, conversion, definitions)
  if (definitions.size === 0) return root
  const key = conversion.version === '3.1' ? '$defs' : 'definitions'
  return { allOf: [root], [key]: Object.fromEntries(definitions) }
}

type Definitions = Map<string, Record<string, unknown>>

function convertNode(schema: unknown, conversion: SchemaConversion, definitions: Definitions): JsonSchema {
  if (typeof schema === 'boolean') return schema
  if (typeof schema !== 'object' || schema === null) return {}
  const source = schema as Record<string, unknown>
  if (typeof source.$ref === 'string' && source.$ref.startsWith('#/')) {
    return localReference(source.$ref, conversion, definitions)
  }
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(source)) {
    if (conversion.version === '3.0' && OPENAPI_30_ONLY.has(key)) continue
    out[key] = convertKeyword(key, value, conversion, definitions)
  }
  hideDirectionalProperties(source, out, conversion.side)
  return conversion.version === '3.0' ? convert30Keywords(source, out) : out
}

function convertKeyword(
  key: string,
  value: unknown,
  conversion: SchemaConversion,
  definitions: Definitions,
): unknown {
  if (ONE_SCHEMA.includes(key) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return convertNode(value, conversion, definitions)
  }
  if ((SCHEMA_LISTS.includes(key) || key === 'items') && Array.isArray(value)) {
    return value.map((item) => convertNode(item, conversion, definitions))
  }
  if (SCHEMA_MAPS.includes(key) && typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, convertNode(item, conversion, definitions)]),
    )
  }
  return value
}

/**
 * A `readOnly` property in a request, or a `writeOnly` one in an answer, becomes the schema
 * `false` (so sending it is a violation, which ajv-violations.ts words) and leaves `required`.
 */
function hideDirectionalProperties(
  source: Record<string, unknown>,
  out: Record<string, unknown>,
  side: ContractSide,
): void {
  const properties = source.properties
  if (typeof properties !== 'object' || properties === null) return
  const flag = side === 'request' ? 'readOnly' : 'writeOnly'
  const hidden = Object.entries(properties)
    .filter(([, property]) => (property as Record<string, unknown> | null)?.[flag] === true)
    .map(([name]) => name)
  if (hidden.length === 0) return
  out.properties = {
    ...(out.properties as object),
    ...Object.fromEntries(hidden.map((name) => [name, false])),
  }
  if (Array.isArray(out.required))
    out.required = out.required.filter((name) => !hidden.includes(name as string))
}

/** OpenAPI 3.0's own spellings, in JSON Schema: `nullable` and the boolean exclusive bounds. */
function convert30Keywords(source: Record<string, unknown>, out: Record<string, unknown>): JsonSchema {
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof source[exclusive] !== 'boolean') continue
    delete out[exclusive]
    if (source[exclusive] === true && typeof source[bound] === 'number') {
      out[exclusive] = source[bound]
      delete out[bound]
    }
  }
  if (source.nullable !== true) return out
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null]
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] }
  return { anyOf: [out, { type: 'null' }] }
}

/** A circular reference: its target converted once into `definitions`, referenced from there. */
function localReference(ref: string, conversion: SchemaConversion, definitions: Definitions): JsonSchema {
  const key = ref.slice(2).replace(/[^\w.-]+/g, '_')
  if (!definitions.has(key)) {
    const placeholder: Record<string, unknown> = {}
    definitions.set(key, placeholder)
    const converted = convertNode(conversion.resolveRef(ref), conversion, definitions)
    Object.assign(placeholder, typeof converted === 'boolean' ? (converted ? {} : { not: {} }) : converted)
  }
  return { $ref: `#/${conversion.version === '3.1' ? '$defs' : 'definitions'}/${key}` }
}
