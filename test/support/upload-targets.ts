import { createHash } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import { listen, type StartedServer } from './servers.js'

/** Targets that do each thing a target can do with an upload. */
export interface UploadTargets {
  /** Reads the whole body; answers `{ method, length, sha }` (SHA-256, hex). */
  readonly echo: StartedServer<Server>
  /** Answers 413 before reading (keeps its connection: Node reads and drops the rest). */
  readonly early: StartedServer<Server>
  /** Answers 413 before reading and closes its connection (a reset, with the upload unread). */
  readonly earlyClose: StartedServer<Server>
  /** Reads the first chunk, then resets the connection. */
  readonly reset: StartedServer<Server>
  /** Reads the upload and never answers (for a route `timeout`). */
  readonly silent: StartedServer<Server>
  close(): Promise<void>
}

/**
 * Starts the upload targets on 127.0.0.1, port 0.
 *
 * @example
 * const targets = await startUploadTargets()
 * const routes = { '/echo': targets.echo.url, '/early': targets.early.url }
 */
export async function startUploadTargets(): Promise<UploadTargets> {
  const echo = await listen(
    createServer((req, res) => {
      const hash = createHash('sha256')
      let length = 0
      req.on('data', (chunk: Buffer) => {
        length += chunk.byteLength
        hash.update(chunk)
      })
      req.on('end', () => res.end(JSON.stringify({ method: req.method, length, sha: hash.digest('hex') })))
    }),
  )
  const answerEarly = (close: boolean) =>
    createServer((_req, res) => {
      res.writeHead(413, { 'content-type': 'text/plain', ...(close ? { connection: 'close' } : {}) })
      res.end('too large\n')
    })
  const early = await listen(answerEarly(false))
  const earlyClose = await listen(answerEarly(true))
  const reset = await listen(createServer((req) => req.once('data', () => req.socket.resetAndDestroy())))
  const silent = await listen(createServer((req) => req.resume()))
  return {
    echo,
    early,
    earlyClose,
    reset,
    silent,
    async close() {
      await Promise.all([echo, early, earlyClose, reset, silent].map((target) => target.close()))
    },
  }
}
