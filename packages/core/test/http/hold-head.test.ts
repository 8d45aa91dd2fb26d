// holdHead on a real node:http response: a held answer's body is kept only up to the bound,
// the writer is asked to wait past it ('drain' once the decision is made), and then either the
// held answer goes out whole or the replacement does and the rest is dropped.
import { createServer, get, type ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { listen } from '../../../../test/support/servers.js'
import { type HeldAnswer, holdHead } from '../../src/http/body-taps.js'
import type { HookableResponse } from '../../src/http/response-head.js'

const CHUNK = 16 * 1024
const TOTAL = 1024 * 1024
const LIMIT = 64 * 1024

const closers: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

/** Writes TOTAL bytes of 'x' in chunks, respecting back-pressure; says how much went before the first wait. */
function writeAll(res: ServerResponse): Promise<number> {
  return new Promise((resolve) => {
    let sent = 0
    let beforeWait: number | undefined
    const pump = (): void => {
      while (sent < TOTAL) {
        sent += CHUNK
        if (!res.write(Buffer.alloc(CHUNK, 'x'))) {
          beforeWait ??= sent
          res.once('drain', pump)
          return
        }
      }
      res.end()
      resolve(beforeWait ?? sent)
    }
    pump()
  })
}

async function serve(answer: HeldAnswer) {
  let decide: (value: HeldAnswer) => void = () => undefined
  const decided = new Promise<HeldAnswer>((resolve) => {
    decide = resolve
  })
  let written: Promise<number> = Promise.resolve(0)
  const server = createServer((_req, res) => {
    holdHead(res as unknown as HookableResponse & ServerResponse, new Set([404]), () => decided, LIMIT)
    res.writeHead(404, { 'content-type': 'text/plain' })
    written = writeAll(res)
  })
  const listening = await listen(server)
  closers.push(listening.close)
  const body = new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
    get(listening.url, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }))
    }).on('error', reject)
  })
  // The writer has long filled the bound before the decision comes.
  await new Promise((resolve) => setTimeout(resolve, 200))
  decide(answer)
  return { received: await body, beforeWait: await written }
}

describe('holdHead', () => {
  it('holds at most its bound, then lets the held answer go out whole', async () => {
    const { received, beforeWait } = await serve(undefined)
    expect(beforeWait).toBeLessThanOrEqual(LIMIT)
    expect(received.status).toBe(404)
    expect(received.body.byteLength).toBe(TOTAL)
    expect(received.body.every((byte) => byte === 0x78)).toBe(true)
  })

  it('sends the replacement and drops what the writer still sends', async () => {
    const { received, beforeWait } = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"mocked":true}')
    })
    expect(beforeWait).toBeLessThanOrEqual(LIMIT)
    expect(received).toEqual({ status: 200, body: Buffer.from('{"mocked":true}') })
  })
})
