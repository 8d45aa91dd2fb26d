import { isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CorsDevProxyError } from '../config/errors.js'

/** An OpenAPI document as read, before any check: a plain JSON value. */
export type RawDocument = Record<string, unknown>

/** Where a document comes from: what the parser reads, and the name errors show. */
export interface DocumentSource {
  /** A file path (absolute), a URL's href, or the document itself. */
  readonly input: string | RawDocument
  /** `./openapi.yaml`, `https://api.example/openapi.json`, or `the document object`. */
  readonly name: string
}

/** The subset of swagger-parser's instance API used here (its CommonJS types say the same). */
interface DocumentParser {
  parse(path: string | RawDocument): Promise<unknown>
  dereference(path: string, api: unknown, options: object): Promise<unknown>
}

/**
 * Names and locates the document an `openapi` option gives: a URL stays a URL, a path is read
 * from `cwd`, an object is the document itself (copied, since the checker rewrites it).
 *
 * @example
 * documentSource('./openapi.yaml', '/app') // { input: '/app/openapi.yaml', name: './openapi.yaml' }
 */
export function documentSource(document: string | URL | object, cwd: string): DocumentSource {
  if (document instanceof URL) {
    return {
      input: document.protocol === 'file:' ? fileURLToPath(document) : document.href,
      name: document.href,
    }
  }
  if (typeof document === 'string') {
    if (document.startsWith('file:')) return { input: fileURLToPath(document), name: document }
    if (/^https?:\/\//i.test(document)) return { input: document, name: document }
    return { input: isAbsolute(document) ? document : resolve(cwd, document), name: document }
  }
  return { input: structuredClone(document) as RawDocument, name: 'the document object' }
}

/**
 * Reads the document (JSON or YAML, a file or a URL) with swagger-parser, loaded here and only
 * here so that a route without `openapi` never loads it, then resolves every `$ref` (other files
 * and URLs included). Circular references stay `$ref`s (`circular: 'ignore'`): the schema
 * converter turns them into local definitions, since Ajv cannot compile a cyclic object.
 */
export async function readDocument(
  source: DocumentSource,
  option: string,
): Promise<{ parsed: RawDocument; read: DocumentParser }> {
  // CommonJS (`module.exports = SwaggerParser`): Node's import() gives it as `default`.
  const parser = (await import('@apidevtools/swagger-parser')) as unknown as {
    default: new () => DocumentParser
  }
  const read = new parser.default()
  try {
    return { parsed: (await read.parse(source.input)) as RawDocument, read }
  } catch (error) {
    throw documentError(option, `cannot read ${source.name}: ${errorText(error)}`)
  }
}

/** Resolves the `$ref`s of a parsed document in place (see {@link readDocument}). */
export async function dereferenceDocument(
  source: DocumentSource,
  parsed: RawDocument,
  read: DocumentParser,
  option: string,
): Promise<RawDocument> {
  const base = typeof source.input === 'string' ? source.input : resolve('openapi.json')
  try {
    return (await read.dereference(base, parsed, { dereference: { circular: 'ignore' } })) as RawDocument
  } catch (error) {
    throw documentError(option, `cannot resolve a $ref of ${source.name}: ${errorText(error)}`)
  }
}

/**
 * The error for a document that cannot be used, naming the option and what to fix.
 *
 * @example
 * documentError("routes['/api'].openapi", 'cannot read ./openapi.yaml: ENOENT')
 */
export function documentError(option: string, problem: string): CorsDevProxyError {
  return new CorsDevProxyError(
    'INVALID_OPTION',
    option,
    problem,
    "openapi: './openapi.yaml' (an OpenAPI 3.0 or 3.1 document)",
  )
}

/** The parser's message on one line, without its stack. */
function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n')[0]?.trim() ?? message
}
