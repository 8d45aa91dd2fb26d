// Test project: stress (50 uploads of 20 MiB through each front end, over HTTP/1.1 and HTTP/2)
import { createServer } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen, type StartedServer } from '../support/servers.js'
import { FRONT_ENDS, type FrontEnd, startFrontEnd } from './harness/front-ends.js'
import { uploadHttp1, uploadHttp2 } from './support/upload.js'

/**
 * An early answer to a large upload reaches the client every time, through every front end,
 * over HTTP/1.1 and HTTP/2: the target answers 413 before reading and keeps its connection
 * (Node's own server then reads and drops the rest of the upload). 50 uploads of 20 MiB each,
 * from a client that sends `Connection: close` (an `http.request` without an agent).
 *
 * Two things used to cut the client's connection under its upload, which it then reported as
 * EPIPE instead of the 413 already in its receive buffer: undici destroyed the client's request
 * with the upstream body (fixed by forward/request-stream.ts, which reads and drops the rest),
 * and Node's server closes a `Connection: close` connection as soon as the answer is written,
 * upload or not (fixed by http/linger-close.ts, which waits for the upload to end first).
 * Checked to fail without `lingerBeforeClose`: 2 and 4 of 50 uploads through `serve` ended in
 * EPIPE, in two runs.
 */

const SIZE = 20 * 1024 * 1024
const TRIES = 50
const ANSWER = 'payload too large\n'

let target: StartedServer<ReturnType<typeof createServer>>

beforeAll(async () => {
  target = await listen(
    createServer((_req, res) => {
      res.writeHead(413, { 'content-type': 'text/plain' })
      res.end(ANSWER)
    }),
  )
})
afterAll(() => target?.close())

describe.each(FRONT_ENDS)('an early 413 to a 20 MiB upload through %s', (name) => {
  describe.each([
    ['HTTP/1.1', false],
    ['HTTP/2', true],
  ] as const)('%s', (_protocol, tls) => {
    let front: FrontEnd
    beforeAll(async () => {
      front = await startFrontEnd(name, { routes: { '/early': target.url }, tls })
    }, 60_000)
    afterAll(() => front?.close())

    it(`reaches the client ${TRIES} times out of ${TRIES}`, { timeout: 120_000 }, async () => {
      const outcomes = new Map<string, number>()
      for (let i = 0; i < TRIES; i++) {
        const url = `${front.origin}/early/upload-${i}`
        const { status, body, error } = tls ? await uploadHttp2(url, SIZE) : await uploadHttp1(url, SIZE)
        // The client's error code is part of the outcome, so a failure says what the client saw.
        const key = `${status} ${body}${error === undefined ? '' : ` (${error})`}`
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1)
      }
      expect(Object.fromEntries(outcomes)).toEqual({ [`413 ${ANSWER}`]: TRIES })
    })
  })
})
