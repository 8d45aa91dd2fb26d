/** Which side of an exchange a violation is on. */
export type ContractSide = 'request' | 'response'

/**
 * One place an exchange breaks the document.
 *
 * @example
 * { in: 'response', operation: 'GET /pets/{id}', pointer: '/name', message: "must have required property 'name'" }
 */
export interface ContractViolation {
  readonly in: ContractSide
  /** The operation, `METHOD /template` as the document writes its path: `'GET /pets/{id}'`. */
  readonly operation: string
  /**
   * A JSON pointer into the body (`'/0/name'`, `''` for the whole body), or the parameter
   * (`'query.limit'`, `'path.id'`), the header (`'header.x-request-id'`), `'status'` or `'content-type'`.
   */
  readonly pointer: string
  /** One line a person reads: what the document expects and what came. */
  readonly message: string
  /** What the document expects there, when one short value says it: `'integer'`, `'200, 404'`. */
  readonly expected?: string
  /** What came instead: `'string'`, `'500'`. */
  readonly actual?: string
}

/** The result of checking one side of an exchange. */
export interface ContractCheck {
  /** Each distinct place the side breaks the document; empty when it keeps it. */
  readonly violations: readonly ContractViolation[]
  /** Why the body was not checked (an event stream, over `maxBodyBytes`, an undecodable encoding). */
  readonly skipped?: string
}

/** A request as the checker reads it: the backend's path (after the route's rewrite), lowercase header names. */
export interface ContractRequest {
  readonly method: string
  readonly pathname: string
  /** The query, with or without its `?`. */
  readonly search: string
  readonly headers: Readonly<Record<string, string>>
  /** The body as sent (still `content-encoding`d); absent or empty for none. */
  readonly body?: Uint8Array
  /** Why the body is not there to check (over `maxBodyBytes`, cut short): then it is not checked, and the check says so. */
  readonly bodySkipped?: string
}

/** An answer as the checker reads it: lowercase header names, the body as it came (still encoded). */
export interface ContractResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body?: Uint8Array
}

/** One operation of the document, its schemas compiled once. */
export interface ContractOperation {
  /** `'GET /pets/{id}'`. */
  readonly id: string
  /** Uppercase: `'GET'`. */
  readonly method: string
  /** The path as the document writes it, without the `servers` base path: `'/pets/{id}'`. */
  readonly pathTemplate: string
  /** The dereferenced OpenAPI Operation Object (for document mocks). */
  readonly definition: Readonly<Record<string, unknown>>
  /** The declared response keys, as written: `'200'`, `'4XX'`, `'default'`. */
  readonly statuses: readonly string[]
  /** Checks a request against the operation's parameters and request body. */
  checkRequest(request: ContractRequest): ContractCheck
  /** Checks an answer against the operation's responses: status, content type, body, headers. */
  checkResponse(response: ContractResponse): ContractCheck
}

/** A loaded OpenAPI document, ready to check exchanges. */
export interface Contract {
  readonly version: '3.0' | '3.1'
  readonly operations: readonly ContractOperation[]
  /** The operation for a backend path (after the route's own rewrite), through the document's `servers` base paths; undefined when none. */
  findOperation(method: string, pathname: string): ContractOperation | undefined
}

/** How {@link loadContract} reads a document. */
export interface LoadContractOptions {
  /** The folder a relative document path is read from. */
  readonly cwd: string
  /**
   * Bodies larger than this (before or after decoding) are not checked; the check says so in `skipped`.
   * @default 1048576 (1 MiB)
   */
  readonly maxBodyBytes?: number
  /**
   * The option path errors name, e.g. `routes['/api'].openapi`.
   * @default 'openapi'
   */
  readonly option?: string
}
