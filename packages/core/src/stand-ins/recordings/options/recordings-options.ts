/**
 * Where recordings go and their bounds (`recordings` in the shared options), for routes with
 * `record: true` or `replay`. See the Record and replay guide.
 *
 * @example
 * corsDevProxy({ '/api': { target: 'http://localhost:3000', record: true } }, { recordings: { dir: 'recordings', maxFiles: 200 } })
 */
export interface RecordingsOptions {
  /**
   * The folder, relative to the project's root (the dev server's root in the adapters, see the
   * Record and replay guide; else the working directory),
   * or absolute. One sub-folder per route, one JSON file per distinct request.
   * @default 'cors-dev-proxy/recordings'
   * @example 'test/recordings'
   */
  dir?: string
  /**
   * Secrets are masked at write time by the inspector's rules (`Authorization`, cookies,
   * token-like query values, `password`-like body fields). An array adds header and body field
   * names to mask; `false` writes answers as they came (never commit such files). A password, a
   * body field added here and Basic credentials still tell requests apart, through a salted
   * verifier in the file, never their value.
   * @default true
   * @example ['x-tenant']
   */
  mask?: boolean | string[]
  /**
   * Files the folder may hold: a request that would make a new one beyond it is not recorded,
   * and the log says recording stopped. From 1 to 100000.
   * @default 1000
   * @example 200
   */
  maxFiles?: number
  /**
   * Answers kept per request's file, in order; the oldest is dropped. From 1 to 1000.
   * @default 20
   * @example 5
   */
  maxAnswers?: number
  /**
   * A request or answer body larger than this is not recorded (the log says so once per route);
   * also how much of a request body `replay: 'only'` reads to match it. From 0 to 67108864.
   * @default 1048576
   * @example 65536
   */
  maxBodyBytes?: number
  /**
   * The longest pause, in ms, between two pieces of a replayed event stream (the recorded gaps
   * are kept up to this). From 0 to 60000.
   * @default 1000
   * @example 100
   */
  maxGap?: number
}
