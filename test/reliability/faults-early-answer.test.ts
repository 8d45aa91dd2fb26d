import { createServer } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningProxy, serveProxy } from '../support/proxy-server.js'
import { captureLogSink, listen, type StartedServer } from '../support/servers.js'
import { type RawTarget, rawTarget } from './support/raw-target.js'
import { uploadHttp1, uploadHttp2 } from './support/upload.js'

/**
 * A target that answers before reading the request (413 to a 20 MiB upload, as servers with a
 * body limit do). The client must get the whole early answer, every time.
 *
 * With `Connection: close` the target's Node server closes the connection with the upload
 * unread, which resets it; undici's next write then failed with EPIPE and Node destroyed the
 * socket before the answer waiting in its receive buffer was read: 20 of 20 uploads got 502
 * "connection closed by the server" (checked by removing `holdWriteErrors` from
 * `createUpstreamConnector`).
 */

const SIZE = 20 * 1024 * 1024
const TRIES = 20
const ANSWER = 'payload too large\n'

let closing: StartedServer<ReturnType<typeof createServer>>
let keeping: StartedServer<ReturnType<typeof createServer>>
let stalling: RawTarget
let proxy: RunningProxy
let h2c: RunningProxy
const sink = captureLogSink()

beforeAll(async () => {
  const answerEarly = (close: boolean) =>
    createServer((_req, res) => {
      res.writeHead(413, { 'content-type': 'text/plain', ...(close ? { connection: 'close' } : {}) })
      res.end(ANSWER)
    })
  // Answers at once, then closes: Node resets the connection since the upload is unread.
  closing = await listen(answerEarly(true))
  // Answers at once and keeps the connection: Node reads and drops the rest of the upload.
  keeping = await listen(answerEarly(false))
  // Answers at once and never reads again, the connection left open.
  stalling = await rawTarget((socket) => {
    socket.once('data', () => {
      socket.pause()
      socket.write(`HTTP/1.1 413 Payload Too Large\r\nContent-Length: ${ANSWER.length}\r\n\r\n${ANSWER}`)
    })
  })
  const routes = { '/closing': closing.url, '/keeping': keeping.url, '/stalling': stalling.url }
  proxy = await serveProxy(routes, { logger: sink })
  h2c = await serveProxy(routes, { logger: sink }, 'h2c')
})

afterAll(async () => {
  await proxy?.close()
  await h2c?.close()
  await Promise.all([closing?.close(), keeping?.close(), stalling?.close()])
})

const connections = (running: RunningProxy): Promise<number> =>
  new Promise((resolve, reject) =>
    running.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  )

describe.each(['closing', 'keeping', 'stalling'])(
  'a target that answers 413 before reading the upload (%s)',
  (kind) => {
    it(`relays the whole answer to an HTTP/1.1 client, ${TRIES} times out of ${TRIES}`, async () => {
      const outcomes = new Map<string, number>()
      for (let i = 0; i < TRIES; i++) {
        const { status, body } = await uploadHttp1(`${proxy.url}/${kind}/upload`, SIZE)
        const key = `${status} ${body}`
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1)
      }
      expect(Object.fromEntries(outcomes)).toEqual({ [`413 ${ANSWER}`]: TRIES })
      // The uploads are stopped: no client connection stays open on the proxy.
      await expect.poll(() => connections(proxy), { timeout: 20_000 }).toBe(0)
    })

    it('relays the whole answer to an HTTP/2 client', async () => {
      for (let i = 0; i < 5; i++) {
        const { status, body } = await uploadHttp2(`${h2c.url}/${kind}/upload`, SIZE)
        expect(`${status} ${body}`).toBe(`413 ${ANSWER}`)
      }
    })
  },
)

describe('the log', () => {
  it('has no failure for these answers', () => {
    expect(sink.lines).toEqual([])
  })
})
