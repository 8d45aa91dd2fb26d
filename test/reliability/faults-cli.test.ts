import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliServer, startCliServer } from '../../packages/cli/test/support/cli-process.js'
import { rawRequest } from '../../packages/cli/test/support/raw-request.js'
import { listen, type StartedServer } from '../support/servers.js'
import { answeringTarget, onRequestHeads, type RawTarget, rawTarget } from './support/raw-target.js'
import { uploadHttp1 } from './support/upload.js'

/**
 * The forward path's fixes as a user of `cors-dev-proxy serve` meets them: the built CLI in a
 * child process, its routes in a configuration file (for the `timeout`). The in-process twins
 * (`faults-bodiless-answers`, `faults-keep-alive-race`, `faults-early-answer`,
 * `faults-response-timeout`) say how each was checked to fail without its fix; here, rebuilding
 * without `isBodiless` and `holdWriteErrors` failed the 304/204 and the early 413 cases.
 */

let dir: string
let bodiless: RawTarget
let racing: RawTarget
let early: StartedServer<ReturnType<typeof createServer>>
let hanging: StartedServer<ReturnType<typeof createServer>>
let serve: CliServer

beforeAll(async () => {
  bodiless = await answeringTarget((head) =>
    head.startsWith('GET /not-modified ')
      ? 'HTTP/1.1 304 Not Modified\r\nContent-Length: 1234\r\nETag: "v1"\r\n\r\n'
      : 'HTTP/1.1 204 No Content\r\nContent-Length: 1234\r\n\r\n',
  )
  // Answers the first request of a connection, closes it on the second (the keep-alive race).
  racing = await rawTarget((socket) => {
    let requests = 0
    onRequestHeads(socket, () => {
      requests += 1
      if (requests === 1) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok')
      else socket.destroy()
    })
  })
  early = await listen(
    createServer((_req, res) => {
      res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' })
      res.end('payload too large\n')
    }),
  )
  hanging = await listen(createServer(() => undefined))
  dir = mkdtempSync(join(tmpdir(), 'cdp-faults-'))
  writeFileSync(
    join(dir, 'cors-dev-proxy.config.mjs'),
    `export default ${JSON.stringify({
      routes: {
        '/bodiless': bodiless.url,
        '/racing': racing.url,
        '/early': early.url,
        '/hanging': { target: hanging.url, timeout: 1000 },
      },
    })}\n`,
  )
  serve = await startCliServer(['serve', '--port', '0'], { cwd: dir })
})

afterAll(async () => {
  await serve?.stop()
  await Promise.all([bodiless?.close(), racing?.close(), early?.close(), hanging?.close()])
  rmSync(dir, { recursive: true, force: true })
})

describe('cors-dev-proxy serve', () => {
  it('relays a 304 and a 204 that announce a Content-Length', async () => {
    const notModified = await rawRequest(serve.origin, '/bodiless/not-modified')
    expect(notModified.status).toBe(304)
    expect(notModified.headers.etag).toBe('"v1"')
    const noContent = await rawRequest(serve.origin, '/bodiless/no-content')
    expect(noContent.status).toBe(204)
    expect(noContent.headers['content-length']).toBeUndefined()
  })

  it('sends a GET once more when its kept-alive connection is closed under it', async () => {
    for (let i = 0; i < 5; i++) expect((await rawRequest(serve.origin, '/racing/x')).status).toBe(200)
  })

  it('relays an early 413 to a 20 MiB upload', { timeout: 30_000 }, async () => {
    for (let i = 0; i < 5; i++) {
      const { status, body } = await uploadHttp1(`${serve.origin}/early/upload`, 20 * 1024 * 1024)
      expect(`${status} ${body}`).toBe('413 payload too large\n')
    }
  })

  it("answers 504 on the route's 1000 ms timeout between 950 and 1400 ms, whenever the request starts", async () => {
    // Six requests 83 ms apart span one tick of undici's coarse timer (see faults-response-timeout).
    const results = await Promise.all(
      [0, 1, 2, 3, 4, 5].map(async (i) => {
        await new Promise((resolve) => setTimeout(resolve, i * 83))
        const start = performance.now()
        const res = await rawRequest(serve.origin, `/hanging/${i}`)
        return { status: res.status, body: res.body, ms: performance.now() - start }
      }),
    )
    for (const { status, body, ms } of results) {
      expect(status).toBe(504)
      expect(body).toContain('no response within 1000 ms')
      expect(ms).toBeGreaterThanOrEqual(950)
      expect(ms).toBeLessThanOrEqual(1_400)
    }
  })
})
