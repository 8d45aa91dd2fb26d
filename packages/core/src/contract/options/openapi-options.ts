/*
 * The `openapi` route option's types: what a user writes (`OpenApiOptions`, whose JSDoc the
 * Options page renders) and what the route holds once resolved (`ResolvedOpenApiOptions`).
 * The contract's own files (`contract/`) read the resolved form; this folder is part of the
 * configuration layer and imports only `http/` and `config/`.
 */

/**
 * The object form of a route's `openapi`: the team's OpenAPI document (3.0 or 3.1), and what the
 * proxy does with it besides checking each exchange against it.
 *
 * @example
 * corsDevProxy({ '/api': { target: 'http://localhost:3000', openapi: { document: './openapi.yaml', mock: 'missing' } } })
 */
export interface OpenApiOptions {
  /**
   * The document: a path (relative to the project's root: the dev server's root in the adapters,
   * else the working directory), an `http:`, `https:` or `file:` URL, or the document itself as an
   * object. A file is read again when it changes (looked at, at most once a second, as exchanges
   * come). Swagger 2.0 is refused: convert it to OpenAPI 3
   * first (`npx swagger2openapi swagger.yaml -o openapi.yaml`).
   * @default none: required
   * @example './openapi.yaml'
   */
  document: string | URL | Record<string, unknown>
  /**
   * `'request'` answers a request that breaks the document with a 400 `application/problem+json`
   * naming the violation, before it reaches the target; `false` only reports violations. An
   * answer from the target is never changed.
   * @default false
   * @example 'request'
   */
  enforce?: false | 'request'
  /**
   * `'missing'` answers from the document (its named or first example, else a body generated from
   * the schema, with the operation's lowest 2xx status) when the target cannot be reached, or
   * answers 404 or 501 for an operation that declares no such status; a declared 404 passes.
   * @default false
   * @example 'missing'
   */
  mock?: false | 'missing'
  /**
   * Bodies larger than this many bytes are not checked (the log says so, once per route every
   * 10 s). Under `enforce: 'request'`, a request body announced larger than this is not read
   * before the target is asked, and goes on unchecked. From 0 to 67108864.
   * @default 1048576
   * @example 262144
   */
  maxBodyBytes?: number
}

/**
 * `openapi` once resolved: every field filled in, frozen. `document` is as written (a path kept
 * relative: `openApiDocumentSource` resolves it against the project's root, as `recordings.dir`
 * and `mocks` are), a copy of a `URL`, or a copy of the caller's object (ours to hand to a parser
 * that dereferences in place; the caller's is never touched).
 */
export interface ResolvedOpenApiOptions {
  readonly document: string | URL | Readonly<Record<string, unknown>>
  readonly enforce: false | 'request'
  readonly mock: false | 'missing'
  readonly maxBodyBytes: number
}

/** The values of `OpenApiOptions` when nothing sets them. */
export const OPENAPI_DEFAULTS = Object.freeze({
  enforce: false,
  mock: false,
  maxBodyBytes: 1_048_576,
} as const satisfies Omit<ResolvedOpenApiOptions, 'document'>)
