// `serve` hands the client's request back as it came, whatever the target does with an upload:
// a server-side `finish` handler that reads `req.socket` (what Nuxt's listener does, through an
// http-shutdown-style tracker) finds it there after a proxied upload that the target reads,
// answers early, resets or never answers. In-process, so the handler can sit on serve's server.
import { createHash } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import { resolveOptions } from '@cors-dev-proxy/core/adapter'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { uploadHttp1 } from '../../../../test/reliability/support/upload.js'
import {
  type FinishTracker,
  intactRequest,
  trackLikeListhen,
} from '../../../../test/support/finish-tracker.js'
import { captureLogSink, listen, type StartedServer } from '../../../../test/support/servers.js'
import { type RunningServe, startServe } from '../../src/serve/start-serve.js'

const LARGE = 4 * 1024 * 1024

let echo: StartedServer<Server>
let early: StartedServer<Server>
let reset: StartedServer<Server>
let silent: StartedServer<Server>
let serve: RunningServe
let tracker: FinishTracker

beforeAll(async () => {
  echo = await listen(
    createServer((req, res) => {
      const hash = createHash('sha256')
      let length = 0
      req.on('data', (chunk: Buffer) => {
        length += chunk.byteLength
        hash.update(chunk)
      })
      req.on('end', () => res.end(JSON.stringify({ length, sha: hash.digest('hex') })))
    }),
  )
  early = await listen(createServer((_req, res) => res.writeHead(413).end('too large\n')))
  reset = await listen(createServer((req) => req.once('data', () => req.socket.resetAndDestroy())))
  silent = await listen(createServer((req) => req.resume()))
  const resolved = resolveOptions(
    {
      '/echo': echo.url,
      '/early': early.url,
      '/reset': reset.url,
      '/silent': { target: silent.url, timeout: 300 },
    },
    { logger: captureLogSink() },
  )
  serve = await startServe({ resolved, port: 0, host: '127.0.0.1', cwd: process.cwd() })
  tracker = trackLikeListhen(serve.server)
})

afterAll(async () => {
  await serve?.close(0)
  await Promise.all([echo, early, reset, silent].map((target) => target?.close()))
})

describe('serve: the client request after a proxied upload', () => {
  it.each([
    ['/echo/upload', 200],
    ['/early/upload', 413],
    ['/reset/upload', 502],
    ['/silent/upload', 504],
  ])('a 4 MiB upload to %s: status %i, req keeps its socket', async (url, status) => {
    const outcome = await uploadHttp1(`${serve.url.replace(/\/$/, '')}${url}`, LARGE)
    expect(outcome.status).toBe(status)
    if (status === 200) expect(JSON.parse(outcome.body)).toMatchObject({ length: LARGE })
    expect(await tracker.seenFor(url)).toEqual(intactRequest(url))
  })
})
