/**
 * A mistake on the command line: a flag that does not exist, a missing or malformed value.
 * The CLI prints it with a correct example and exits 2, never with a stack trace.
 *
 * @example
 * throw new UsageError('--port must be an integer from 0 to 65535, got "http"', 'cors-dev-proxy serve --port 8080')
 */
export class UsageError extends Error {
  /** A command line that works, shown under the message. */
  readonly example: string | undefined

  constructor(message: string, example?: string) {
    super(message)
    this.name = 'UsageError'
    this.example = example
  }
}
