import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { listen, type StartedServer } from '../../../../test/support/servers.js'

/*
 * The backend behind the control step's tests (control-step.test.ts for latency and faults,
 * control-throttle.test.ts for throttle, which paces in real time and runs as an integration test).
 */

/** The size of `/big`: 16 MiB. */
export const BIG = 16 * 2 ** 20

/** What the backend saw, shared with the test. */
export interface BackendState {
  bigFinished: boolean
  seen: string[]
  /** Told the bytes of the upload in progress each time a chunk arrives. */
  onUpload: ((received: number) => void) | undefined
}

/** The backend: a listening server, its URL and its state. */
export type ControlBackend = StartedServer<ReturnType<typeof createServer>> & { state: BackendState }

/** Reads an upload, telling `state.onUpload` as it goes; answers its size and SHA-256. */
async function receiveUpload(req: IncomingMessage, res: ServerResponse, state: BackendState) {
  const hash = createHash('sha256')
  let bytes = 0
  for await (const chunk of req) {
    bytes += (chunk as Buffer).byteLength
    hash.update(chunk as Buffer)
    state.onUpload?.(bytes)
  }
  res.setHeader('content-type', 'application/json')
  res.end(JSON.stringify({ bytes, sha256: hash.digest('hex') }))
}

/** The hex SHA-256 of some bytes. */
export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

/** Streams {@link BIG} bytes, noting in `state` when all of it is written. */
function streamBig(res: ServerResponse, state: BackendState): void {
  state.bigFinished = false
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': BIG })
  const chunk = Buffer.alloc(64 * 1024, 1)
  let sent = 0
  const pump = (): void => {
    while (sent < BIG) {
      sent += chunk.byteLength
      if (!res.write(chunk)) {
        res.once('drain', pump)
        return
      }
    }
    res.end(() => {
      state.bigFinished = true
    })
  }
  pump()
}

/**
 * A backend that names itself and the path it got; `POST /upload` answers the upload's size and
 * SHA-256, `/100k` 100,000 bytes, `/big` streams {@link BIG} bytes and notes when it is all written.
 */
export async function startControlBackend(name: string): Promise<ControlBackend> {
  const state: BackendState = { bigFinished: false, seen: [], onUpload: undefined }
  const started = await listen(
    createServer((req: IncomingMessage, res: ServerResponse) => {
      state.seen.push(`${req.method} ${req.url}`)
      if (req.method === 'POST' && req.url === '/upload') {
        void receiveUpload(req, res, state)
        return
      }
      if (req.url === '/100k') {
        res.end(Buffer.alloc(100_000, 2))
        return
      }
      if (req.url === '/big') {
        streamBig(res, state)
        return
      }
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ backend: name, url: req.url }))
    }),
  )
  return { ...started, state }
}
