import type { ContractSide } from './contract-types.js'
import { isJsonMediaType, type MediaTypeEntry } from './media-types.js'
import type { SchemaCheck, SchemaCompiler } from './schema-compiler.js'
import { type SchemaConversion, toJsonSchema } from './to-json-schema.js'

/** A parameter (path, query, header) or a response header, ready to check. */
export interface ParameterRule {
  readonly name: string
  readonly in: 'path' | 'query' | 'header'
  readonly required: boolean
  /** `'query.limit'`, `'path.id'`, `'header.x-request-id'` (header names lowercase). */
  readonly pointer: string
  readonly check: SchemaCheck | undefined
  /** Whether the schema is an array: its values come as repeated keys, or comma-separated when `explode: false`. */
  readonly array: boolean
  readonly explode: boolean
}

/** A request body or a response's content. */
export interface BodyRule {
  readonly required: boolean
  readonly media: readonly MediaTypeEntry[]
}

/** One declared response: its content and its headers. */
export interface ResponseRule {
  readonly content: BodyRule
  readonly headers: readonly ParameterRule[]
}

/** Everything an operation checks, compiled once at load. */
export interface OperationRules {
  readonly parameters: readonly ParameterRule[]
  readonly requestBody: BodyRule | undefined
  /** By the response key as written (`'200'`, `'4XX'`, `'default'`). */
  readonly responses: ReadonlyMap<string, ResponseRule>
}

/** What compiling needs: the compilers, the conversion's document facts, where the operation sits. */
export interface RuleContext {
  readonly compiler: SchemaCompiler
  readonly version: SchemaConversion['version']
  readonly resolveRef: SchemaConversion['resolveRef']
  /** `openapi.yaml#/paths/~1pets/get`: where the operation sits, for the error of an invalid schema. */
  readonly where: string
}

type Node = Record<string, unknown>

/** Request headers OpenAPI says parameters must not describe (3.0.3 section 4.7.12): the message's own. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization'])

/**
 * Compiles an operation's parameters (the path item's, overridden by the operation's of the
 * same name and place), its request body and its responses, each schema once.
 *
 * @example
 * compileOperationRules(pathItem, pathItem.get, { compiler, version: '3.0', resolveRef, where })
 */
export function compileOperationRules(pathItem: Node, operation: Node, context: RuleContext): OperationRules {
  // Each parameter with where it is written, for the error of an invalid schema: the path item's, then the operation's.
  const itemWhere = context.where.slice(0, context.where.lastIndexOf('/'))
  const declared = new Map<string, [Node, string]>()
  for (const [list, where] of [
    [pathItem.parameters, itemWhere],
    [operation.parameters, context.where],
  ] as const) {
    asList(list).forEach((parameter, index) => {
      declared.set(`${String(parameter.in)}\n${String(parameter.name)}`, [
        parameter,
        `${where}/parameters/${index}`,
      ])
    })
  }
  const parameters = [...declared.values()]
    .filter(([parameter]) => ['path', 'query', 'header'].includes(String(parameter.in)))
    .filter(
      ([parameter]) =>
        !(parameter.in === 'header' && IGNORED_HEADERS.has(String(parameter.name).toLowerCase())),
    )
    .map(([parameter, where]) =>
      parameterRule(parameter, parameter.in as ParameterRule['in'], 'request', context, where),
    )
  const body = operation.requestBody as Node | undefined
  const requestBody = body === undefined ? undefined : bodyRule(body, 'request', context, '/requestBody')
  const responses = new Map<string, ResponseRule>()
  for (const [key, response] of Object.entries((operation.responses ?? {}) as Record<string, Node>)) {
    const where = `/responses/${key}`
    const headers = Object.entries((response.headers ?? {}) as Record<string, Node>)
      .filter(([name]) => name.toLowerCase() !== 'content-type')
      .map(([name, header]) =>
        parameterRule(
          { ...header, name },
          'header',
          'response',
          context,
          `${context.where}${where}/headers/${name}`,
        ),
      )
    responses.set(key, {
      content: bodyRule({ ...response, required: false }, 'response', context, where),
      headers,
    })
  }
  return { parameters, requestBody, responses }
}

function parameterRule(
  parameter: Node,
  place: ParameterRule['in'],
  side: ContractSide,
  context: RuleContext,
  where: string,
): ParameterRule {
  const name = place === 'header' ? String(parameter.name).toLowerCase() : String(parameter.name)
  // A parameter described by `content` (a JSON-encoded query value) is only checked for presence.
  const schema = parameter.schema as Node | undefined
  const converted = schema === undefined ? undefined : toJsonSchema(schema, { ...context, side })
  const type = typeof converted === 'object' ? converted.type : undefined
  return {
    name,
    in: place,
    required: parameter.required === true || place === 'path',
    pointer: `${place}.${name}`,
    check: converted === undefined ? undefined : context.compiler.parameter(converted, `${where}/schema`),
    array: type === 'array' || (Array.isArray(type) && type.includes('array')),
    explode: parameter.explode !== false,
  }
}

function bodyRule(body: Node, side: ContractSide, context: RuleContext, where: string): BodyRule {
  const content = (body.content ?? {}) as Record<string, Node>
  const media = Object.entries(content).map(([key, entry]): MediaTypeEntry => {
    const schema = entry?.schema
    const pointer = `${context.where}${where}/content/${key.replace(/~/g, '~0').replace(/\//g, '~1')}/schema`
    const check =
      schema !== undefined && isJsonMediaType(key)
        ? context.compiler.body(toJsonSchema(schema, { ...context, side }), pointer)
        : undefined
    return { key, essence: key.split(';')[0]?.trim().toLowerCase() ?? key, check }
  })
  return { required: body.required === true, media }
}

function asList(value: unknown): Node[] {
  return Array.isArray(value)
    ? value.filter((item): item is Node => typeof item === 'object' && item !== null)
    : []
}
