import { isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CorsDevProxyError } from '../../config/errors.js'
import { OPENAPI_OPTION_NAMES } from '../../config/nested-option-names.js'
import { describeType, isPlainObject, renderValue } from '../../config/option-path.js'
import { assertKnownKeys } from '../../config/unknown-options.js'
import { checkWholeNumber } from '../../config/validate-values.js'
import { OPENAPI_DEFAULTS, type ResolvedOpenApiOptions } from './openapi-options.js'

/** The example every mistake of `openapi` shows, with the field it is about. */
const example = (fields = ''): string => `{ openapi: { document: './openapi.yaml'${fields} } }`

/** A scheme as URLs start with (`https://`): a string with one is a URL, else a path. */
const URL_LIKE = /^[a-z][a-z\d+.-]*:\/\//i

/** The URL schemes a document may be read from. */
const SCHEMES = new Set(['http:', 'https:', 'file:'])

/** A configuration error of `openapi` at `option`, its example showing `fields` beside the document. */
function invalid(option: string, problem: string, fields?: string): CorsDevProxyError {
  return new CorsDevProxyError('INVALID_OPTION', option, problem, example(fields))
}

/** A URL written as a string or a `URL`: parsed, and only `http:`, `https:` or `file:`. */
function checkUrl(value: string | URL, option: string): URL {
  let url: URL
  try {
    url = new URL(String(value))
  } catch {
    throw invalid(option, 'must be a path, a URL or the document, got a URL that does not parse')
  }
  if (!SCHEMES.has(url.protocol)) {
    throw invalid(option, `must be an http:, https: or file: URL, got ${url.protocol}`)
  }
  return url
}

/** The document given as an object: OpenAPI 3.0 or 3.1, copied so the caller's is never touched. */
function checkDocumentObject(value: Record<string, unknown>, option: string): Record<string, unknown> {
  if ('swagger' in value) {
    throw invalid(
      option,
      'is a Swagger 2.0 document, which cannot be checked: convert it to OpenAPI 3 first (`npx swagger2openapi swagger.yaml -o openapi.yaml`) and point `document` at the result',
    )
  }
  const version = value.openapi
  if (typeof version !== 'string' || !/^3\.[01]\.\d+/.test(version)) {
    throw invalid(
      option,
      `must be an OpenAPI 3.0 or 3.1 document (its \`openapi\` field, such as '3.1.0'), got ${renderValue(version)}`,
    )
  }
  try {
    return structuredClone(value)
  } catch {
    throw invalid(
      option,
      'must be plain data (as parsed from JSON or YAML), got a function or another value that cannot be copied',
    )
  }
}

/** `document`: a path, a URL (string or `URL`) or the document as an object. */
function checkDocument(value: unknown, option: string): ResolvedOpenApiOptions['document'] {
  if (value instanceof URL) return checkUrl(value, option)
  if (isPlainObject(value)) return checkDocumentObject(value, option)
  if (typeof value !== 'string' || value.trim() === '' || value.includes('\0')) {
    throw invalid(
      option,
      `must be a path, a URL or the OpenAPI document as an object, got ${describeType(value)}`,
    )
  }
  return URL_LIKE.test(value) ? checkUrl(value, option).href : value
}

/** One of the values a switch of `openapi` takes (`false` or its one word), else an error naming it. */
function checkChoice<T extends string>(
  value: unknown,
  option: string,
  [name, word]: readonly [name: string, word: T],
  meaning: string,
): false | T {
  if (value === undefined || value === false) return false
  if (value === word) return word
  throw invalid(
    option,
    `must be false or '${word}' (${meaning}), got ${describeType(value)}`,
    `, ${name}: '${word}'`,
  )
}

/**
 * Resolves a route's `openapi` once: a path or URL is `{ document }`; every field is filled in
 * and the result frozen. `undefined` (or `false`) when the route has none. Throws
 * `CorsDevProxyError` naming the field (`routes['/api'].openapi.enforce`) with a valid example.
 *
 * @example
 * checkOpenApi({ document: './openapi.yaml', enforce: 'request' }, "routes['/api'].openapi")
 * // { document: './openapi.yaml', enforce: 'request', mock: false, maxBodyBytes: 1048576 }
 */
export function checkOpenApi(value: unknown, option: string): ResolvedOpenApiOptions | undefined {
  if (value === undefined || value === false) return undefined
  if (typeof value === 'string' || value instanceof URL) {
    return Object.freeze({ document: checkDocument(value, option), ...OPENAPI_DEFAULTS })
  }
  if (!isPlainObject(value)) {
    throw invalid(
      option,
      `must be a path, a URL or { document, enforce, mock, maxBodyBytes }, got ${describeType(value)}`,
    )
  }
  assertKnownKeys(value, OPENAPI_OPTION_NAMES, 'openapi', (key) => `${option}.${key}`)
  if (value.document === undefined) {
    throw invalid(
      `${option}.document`,
      'is missing: name the OpenAPI document (a path, a URL or the document itself)',
    )
  }
  const maxBodyBytes = checkWholeNumber(
    value.maxBodyBytes,
    `${option}.maxBodyBytes`,
    0,
    64 * 1024 * 1024,
    example(', maxBodyBytes: 1048576'),
  )
  return Object.freeze({
    document: checkDocument(value.document, `${option}.document`),
    enforce: checkChoice(
      value.enforce,
      `${option}.enforce`,
      ['enforce', 'request'],
      'answer a request that breaks the document with a 400',
    ),
    mock: checkChoice(
      value.mock,
      `${option}.mock`,
      ['mock', 'missing'],
      'answer from the document what the target does not implement yet',
    ),
    maxBodyBytes: maxBodyBytes ?? OPENAPI_DEFAULTS.maxBodyBytes,
  })
}

/** Where a resolved `openapi` document comes from, for the loader. */
export type OpenApiDocumentSource =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'url'; readonly url: URL }
  | { readonly kind: 'object'; readonly document: Readonly<Record<string, unknown>> }

/**
 * Where the resolved `document` is read from: a relative path against `root` (the dev server's
 * root in the adapters, else the working directory, as `recordings.dir` and `mocks` are), a
 * `file:` URL as its path, an `http(s):` URL as itself, an object as it is.
 *
 * @example
 * openApiDocumentSource('./openapi.yaml', '/app') // { kind: 'file', path: '/app/openapi.yaml' }
 */
export function openApiDocumentSource(
  document: ResolvedOpenApiOptions['document'],
  root: string,
): OpenApiDocumentSource {
  if (typeof document !== 'string' && !(document instanceof URL)) return { kind: 'object', document }
  const url = document instanceof URL ? document : URL_LIKE.test(document) ? new URL(document) : undefined
  if (url === undefined) {
    const path = document as string
    return { kind: 'file', path: isAbsolute(path) ? path : resolve(root, path) }
  }
  return url.protocol === 'file:' ? { kind: 'file', path: fileURLToPath(url) } : { kind: 'url', url }
}
