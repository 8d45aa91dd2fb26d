// Test project: integration (throttle paces answers and uploads in real time: about 10 s of waiting, 13 s beside a busy process)
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningProxy, serveProxy } from '../../../../../test/support/proxy-server.js'
import { collectBody, openRequest, sendRequest } from '../../../../../test/support/servers.js'
import { createFetchHandler } from '../../../src/index.js'
import { BIG, type ControlBackend, sha256, startControlBackend } from '../../support/control-backend.js'

// The control step's throttle; latency and faults are in control-step.test.ts.

let backend: ControlBackend
let proxy: RunningProxy

beforeAll(async () => {
  backend = await startControlBackend('local')
  proxy = await serveProxy(
    {
      '/throttled': { target: backend.url, throttle: 16 * 2 ** 20 },
      '/small': { target: backend.url, throttle: 50_000 },
      '/uploads': { target: backend.url, throttle: 128 * 1024 },
    },
    { log: 'silent' },
  )
})
afterAll(async () => {
  await proxy?.close()
  await backend?.close()
})

describe('throttle', () => {
  it('paces a small answer to its rate', async () => {
    // 100 000 bytes at 50 000 B/s: the first tenth of a second goes at once, the rest takes 1.9 s.
    const start = performance.now()
    const res = await sendRequest(`${proxy.url}/small/100k`)
    expect(res.body.byteLength).toBe(100_000)
    const seconds = (performance.now() - start) / 1000
    expect(seconds).toBeGreaterThanOrEqual(1.8)
    expect(seconds).toBeLessThan(8)
  })

  it('keeps back-pressure: the target is held back while the client reads slowly', async () => {
    const res = await openRequest(`${proxy.url}/throttled/big`)
    let received = 0
    let finishedEarly = false
    for await (const chunk of res) {
      received += (chunk as Buffer).byteLength
      // At 16 MiB/s, a quarter in, the target must still be writing: the proxy holds at most a
      // chunk, and the sockets' buffers are far smaller than the 12 MiB left.
      if (received >= 4 * 2 ** 20 && received < 5 * 2 ** 20 && backend.state.bigFinished) finishedEarly = true
    }
    expect(received).toBe(BIG)
    expect(finishedEarly).toBe(false)
  })
})

describe('throttle, uploads', () => {
  const UPLOAD = randomBytes(256 * 1024)

  it('paces the request body to its rate, bytes intact', async () => {
    // 256 KiB at 128 KiB/s: the first tenth of a second goes at once, the rest takes 1.9 s.
    const start = performance.now()
    const res = await sendRequest(`${proxy.url}/uploads/upload`, { method: 'POST', body: UPLOAD })
    const seconds = (performance.now() - start) / 1000
    expect(JSON.parse(res.body.toString())).toEqual({ bytes: UPLOAD.byteLength, sha256: sha256(UPLOAD) })
    expect(seconds).toBeGreaterThanOrEqual(1.5)
  })

  it('keeps back-pressure: the client is held back, nothing is buffered whole', async () => {
    // 32 MiB at 16 MiB/s. When the target has 4 MiB, the client cannot have handed all of it
    // to its socket: the sockets' buffers hold far less than the 28 MiB left.
    const size = 32 * 2 ** 20
    const chunk = randomBytes(2 ** 20)
    let clientDone = false
    let doneEarly: boolean | undefined
    backend.state.onUpload = (received) => {
      if (received >= 4 * 2 ** 20 && doneEarly === undefined) doneEarly = clientDone
    }
    try {
      const req = httpRequest(`${proxy.url}/throttled/upload`, { method: 'POST', agent: false })
      const answered = new Promise<IncomingMessage>((resolve, reject) => {
        req.once('response', resolve)
        req.once('error', reject)
      })
      for (let sent = 0; sent < size; sent += chunk.byteLength) {
        if (!req.write(chunk)) await once(req, 'drain')
      }
      req.end(() => {
        clientDone = true
      })
      const res = await answered
      const body = JSON.parse((await collectBody(res)).toString()) as { bytes: number }
      expect(body.bytes).toBe(size)
      expect(doneEarly).toBe(false)
    } finally {
      backend.state.onUpload = undefined
    }
  })

  it('paces uploads behind the Fetch handler too', async () => {
    const handler = createFetchHandler(
      { '/uploads': { target: backend.url, throttle: 128 * 1024 } },
      { log: 'silent' },
    )
    try {
      const start = performance.now()
      const answer = await handler(
        new Request('http://dev.test/uploads/upload', { method: 'POST', body: UPLOAD }),
      )
      const seconds = (performance.now() - start) / 1000
      expect(await answer?.json()).toEqual({ bytes: UPLOAD.byteLength, sha256: sha256(UPLOAD) })
      expect(seconds).toBeGreaterThanOrEqual(1.5)
    } finally {
      await handler.close()
    }
  })
})
