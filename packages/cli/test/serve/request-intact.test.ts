// `serve` hands the client's request back as it came, whatever the target does with an upload:
// a server-side `finish` handler that reads `req.socket` (what Nuxt's listener does, through an
// http-shutdown-style tracker) finds it there after a proxied upload that the target reads,
// answers early, resets or never answers. In-process, so the handler can sit on serve's server.
import { resolveOptions } from '@cors-dev-proxy/core/adapter'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { uploadHttp1 } from '../../../../test/reliability/support/upload.js'
import {
  type FinishTracker,
  intactRequest,
  trackLikeListhen,
} from '../../../../test/support/finish-tracker.js'
import { captureLogSink } from '../../../../test/support/servers.js'
import { startUploadTargets, type UploadTargets } from '../../../../test/support/upload-targets.js'
import { type RunningServe, startServe } from '../../src/serve/start-serve.js'

const LARGE = 4 * 1024 * 1024

let targets: UploadTargets
let serve: RunningServe
let tracker: FinishTracker

beforeAll(async () => {
  targets = await startUploadTargets()
  const resolved = resolveOptions(
    {
      '/echo': targets.echo.url,
      '/early': targets.early.url,
      '/reset': targets.reset.url,
      '/silent': { target: targets.silent.url, timeout: 300 },
    },
    { logger: captureLogSink() },
  )
  serve = await startServe({ resolved, port: 0, host: '127.0.0.1', cwd: process.cwd() })
  tracker = trackLikeListhen(serve.server)
})

afterAll(async () => {
  await serve?.close(0)
  await targets?.close()
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
