import type { Contract, ContractOperation, LoadContractOptions } from './contract-types.js'
import { createOperation } from './create-operation.js'
import { compilePathTemplate, serverBasePaths } from './operation-paths.js'
import { compileOperationRules } from './operation-rules.js'
import {
  type DocumentSource,
  dereferenceDocument,
  documentError,
  documentSource,
  type RawDocument,
  readDocument,
} from './read-document.js'
import { rewriteDiscriminators } from './rewrite-discriminators.js'
import { createSchemaCompiler } from './schema-compiler.js'

/*
 * contract/: the OpenAPI contract checker, a library layer that imports only http/ and config/
 * (the error type), used by the proxy, the inspector and the stand-ins. `loadContract` reads a
 * document once (swagger-parser: JSON or YAML, files and URLs, every `$ref` resolved), turns each
 * schema into JSON Schema (to-json-schema.ts: 3.0's `nullable`, `readOnly`/`writeOnly`, boolean
 * exclusive bounds; rewrite-discriminators.ts: `discriminator`) and compiles each operation's
 * schemas once with Ajv (schema-compiler.ts); a request then costs a path match and the checks
 * of its operation (create-operation.ts: parameters, body; status, content type, headers).
 * swagger-parser, Ajv and ajv-formats are loaded by dynamic `import()` from read-document.ts and
 * schema-compiler.ts only, so a route without `openapi` never loads them
 * (test/contract/lazy-load.test.ts). Violations are plain data (contract-types.ts) that the
 * overlay, the inspector, the HAR and the log show as they are.
 */

/** The HTTP methods an OpenAPI Path Item can hold operations for. */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

/** 1 MiB: a bigger body is skipped, not checked. */
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

/**
 * Reads and compiles an OpenAPI 3.0 or 3.1 document (a path read from `cwd`, a URL, or the
 * document as an object). A document that cannot be used throws a `CorsDevProxyError` naming
 * it and what to fix: unreadable, a `$ref` that resolves to nothing, an invalid schema, Swagger 2.0.
 *
 * @example
 * const contract = await loadContract('./openapi.yaml', { cwd: process.cwd() })
 * const operation = contract.findOperation('GET', '/v1/pets/7')
 * operation?.checkResponse({ status: 200, headers: { 'content-type': 'application/json' }, body })
 */
export async function loadContract(
  document: string | URL | object,
  options: LoadContractOptions,
): Promise<Contract> {
  const option = options.option ?? 'openapi'
  const source = documentSource(document, options.cwd)
  const { parsed, read } = await readDocument(source, option)
  const version = documentVersion(parsed, source, option)
  rewriteDiscriminators(parsed)
  const api = await dereferenceDocument(source, parsed, read, option)
  const compiler = await createSchemaCompiler(version, option)
  const basePaths = serverBasePaths(api.servers)
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const resolveRef = (ref: string): unknown => valueAtPointer(api, ref.slice(1))
  const operations: { operation: ContractOperation; rank: string; matches: (pathname: string) => boolean }[] =
    []
  for (const [pathTemplate, pathItem] of Object.entries((api.paths ?? {}) as Record<string, RawDocument>)) {
    const path = compilePathTemplate(pathTemplate, basePaths)
    for (const method of METHODS) {
      const definition = pathItem?.[method] as RawDocument | undefined
      if (definition === undefined) continue
      const where = `${source.name}#/paths/${escapePointer(pathTemplate)}/${method}`
      const rules = compileOperationRules(pathItem, definition, { compiler, version, resolveRef, where })
      const operation = createOperation({
        method: method.toUpperCase(),
        pathTemplate,
        definition,
        rules,
        path,
        maxBodyBytes,
      })
      operations.push({
        operation,
        rank: path.rank,
        matches: (pathname) => path.match(pathname) !== undefined,
      })
    }
  }
  // Literal segments before templated ones (OpenAPI 3.0.3 section 4.7.8: "/pets/mine" before "/pets/{petId}").
  const ranked = [...operations].sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0))
  return Object.freeze({
    version,
    operations: Object.freeze(operations.map((entry) => entry.operation)),
    findOperation(method: string, pathname: string) {
      const wanted = method.toUpperCase()
      return ranked.find((entry) => entry.operation.method === wanted && entry.matches(pathname))?.operation
    },
  })
}

/** `'3.0'` or `'3.1'`; Swagger 2.0 is refused with how to convert it. */
function documentVersion(parsed: RawDocument, source: DocumentSource, option: string): '3.0' | '3.1' {
  if (parsed.swagger !== undefined) {
    throw documentError(
      option,
      `reads ${source.name}, a Swagger ${String(parsed.swagger)} document: only OpenAPI 3.0 and 3.1 are checked. Convert it once, e.g. \`npx swagger2openapi ${source.name} --yaml --outfile openapi.yaml\`, and point ${option} at the result`,
    )
  }
  const version = String(parsed.openapi ?? '')
  if (version.startsWith('3.1.')) return '3.1'
  if (version.startsWith('3.0.')) return '3.0'
  throw documentError(option, `reads ${source.name}, whose openapi version '${version}' is not 3.0 or 3.1`)
}

function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1')
}

/** The value at a JSON pointer (RFC 6901) in the dereferenced document. */
function valueAtPointer(document: unknown, pointer: string): unknown {
  let node = document
  for (const token of pointer.split('/').slice(1)) {
    const key = decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~')
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined
  }
  return node
}
