import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { constants, createBrotliCompress, createDeflate, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_JSONP_SOURCE_BYTES } from '../../packages/core/src/jsonp/jsonp-intercept.js'
import { type RunningProxy, serveProxy } from '../support/proxy-server.js'
import { captureLogSink, listen, type StartedServer, sendRequest } from '../support/servers.js'

/**
 * Compression bombs and oversized answers on a JSONP route, against the core on node:http,
 * in this process so that its memory can be watched.
 *
 * The gzip bomb is built here, bounded: one 1 MiB run of `0,` compressed once (about 1 kB) and
 * repeated 200 times as gzip members, between a `[` member and a `0]` member. Node's gunzip
 * reads every member, so 0.2 MiB inflate to 200 MiB of a valid JSON array.
 *
 * How the protections were checked to fail without them:
 * - without `maxOutputLength` in jsonp-intercept.ts (the inflation unbounded, as before), the
 *   bomb is answered 200 with the whole array wrapped, and the resident memory grows by more
 *   than a gigabyte (measured: 2.5 GiB, against 26 MiB with the limit), far over the bound asserted here;
 * - without the immediate answer in takeOverBody (http/response-head.ts), the oversized
 *   identity answer is read to its end (64 MiB written by the target) before the 502.
 */

const MiB = 1024 * 1024
/** Resident memory the bomb may add while it is refused: the limit twice over, and slack for the allocator. */
const RSS_BOUND = 4 * MAX_JSONP_SOURCE_BYTES + 32 * MiB

/** 0.2 MiB of gzip that inflate to 200 MiB of `[0,0,…,0]`. */
function gzipBomb(): Buffer {
  const run = gzipSync(Buffer.from('0,'.repeat(MiB / 2)), { level: 9 })
  const members = Array.from({ length: 200 }, () => run)
  return Buffer.concat([gzipSync('['), ...members, gzipSync('0]')])
}

/** A compressed stream of `size` bytes of JSON whitespace and a `0`, built chunk by chunk (bounded memory). */
async function compressedRun(compressor: NodeJS.ReadWriteStream, size: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  compressor.on('data', (chunk: Buffer) => chunks.push(chunk))
  const done = once(compressor, 'end')
  const blank = Buffer.alloc(MiB, ' ')
  for (let written = 0; written < size; written += MiB) {
    if (!compressor.write(blank)) await once(compressor, 'drain')
  }
  compressor.end('0')
  await done
  return Buffer.concat(chunks)
}

interface BigAnswer {
  written: number
  finished: boolean
  closed: Promise<void>
}

let bombs: { gzip: Buffer; deflate: Buffer; br: Buffer }
let target: StartedServer<ReturnType<typeof createServer>>
let proxy: RunningProxy
const sink = captureLogSink()
let big: BigAnswer | undefined

/** Writes 64 MiB of JSON in 64 KiB chunks, waiting for drain, and records how far it got. */
async function writeBigAnswer(res: ServerResponse): Promise<void> {
  const state: BigAnswer = {
    written: 0,
    finished: false,
    closed: new Promise((resolve) => res.once('close', () => resolve())),
  }
  big = state
  res.writeHead(200, { 'content-type': 'application/json' })
  res.once('finish', () => {
    state.finished = true
  })
  const chunk = Buffer.alloc(64 * 1024, ' ')
  res.write('[')
  for (let index = 0; index < 1024 && !res.destroyed; index++) {
    state.written += chunk.byteLength
    if (!res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')])
  }
  if (!res.destroyed) res.end('0]')
}

function answer(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', 'http://x').pathname
  const compressed = (encoding: string, body: Buffer) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding })
    res.end(body)
  }
  if (path === '/bomb') compressed('gzip', bombs.gzip)
  else if (path === '/bomb-deflate') compressed('deflate', bombs.deflate)
  else if (path === '/bomb-br') compressed('br', bombs.br)
  else if (path === '/small-gzip') compressed('gzip', gzipSync(JSON.stringify({ small: true })))
  else if (path === '/big') void writeBigAnswer(res)
  else {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ path }))
  }
}

beforeAll(async () => {
  bombs = {
    gzip: gzipBomb(),
    deflate: await compressedRun(createDeflate({ level: 9 }), 32 * MiB),
    br: await compressedRun(
      createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
      32 * MiB,
    ),
  }
  target = await listen(createServer(answer))
  proxy = await serveProxy({ '/api': { target: target.url, jsonp: true } }, { logger: sink })
  // Compressing 32 MiB twice is CPU-bound: the unit project's hook wait, not 30 s of its own, which
  // beside a busy process is not a margin.
})

afterAll(async () => {
  await proxy?.close()
  await target?.close()
})

describe('a compression bomb on a JSONP route', () => {
  it('is built as described: 0.2 MiB of gzip', () => {
    expect(bombs.gzip.byteLength).toBeLessThan(0.25 * MiB)
    expect(bombs.deflate.byteLength).toBeLessThan(0.1 * MiB)
    expect(bombs.br.byteLength).toBeLessThan(0.1 * MiB)
  })

  it('is answered 502 without inflating past the limit, while other requests are served', async () => {
    const baseline = process.memoryUsage.rss()
    let peak = baseline
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss())
    }, 5)
    try {
      const bomb = sendRequest(`${proxy.url}/api/bomb?callback=cb`)
      const others = Array.from({ length: 20 }, (_, index) =>
        sendRequest(`${proxy.url}/api/small/${index}?callback=cb`),
      )
      const answer = await bomb
      peak = Math.max(peak, process.memoryUsage.rss())
      expect(answer.status).toBe(502)
      expect(answer.headers['content-encoding']).toBeUndefined()
      expect(JSON.parse(answer.body.toString())).toEqual({
        error: `the answer inflates to more than ${MAX_JSONP_SOURCE_BYTES / 2 ** 20} MiB, too large to wrap as JSONP`,
      })
      for (const [index, other] of (await Promise.all(others)).entries()) {
        expect(other.status).toBe(200)
        expect(other.body.toString()).toBe(`/**/ typeof cb === 'function' && cb({"path":"/small/${index}"});`)
      }
    } finally {
      clearInterval(sampler)
    }
    expect(
      peak - baseline,
      `resident memory grew by ${Math.round((peak - baseline) / MiB)} MiB`,
    ).toBeLessThan(RSS_BOUND)
  })

  it.each(['deflate', 'br'])('is refused the same way when it is %s', async (encoding) => {
    const answer = await sendRequest(`${proxy.url}/api/bomb-${encoding}?callback=cb`)
    expect(answer.status).toBe(502)
    expect(answer.body.toString()).toContain('inflates to more than')
  })

  it('is logged once per route every 10 s, however many arrive', async () => {
    for (let index = 0; index < 5; index++) {
      expect((await sendRequest(`${proxy.url}/api/bomb?callback=cb`)).status).toBe(502)
    }
    const lines = sink.lines.filter((line) => line.message.includes('too large to wrap as JSONP'))
    expect(lines).toHaveLength(1)
    expect(lines[0]?.message).toMatch(
      /^\[cors-dev-proxy\] 502 GET \/api\/bomb(-\w+)?\?callback=cb: the answer is larger than 16 MiB \(after decompression\)/,
    )
  })

  it('leaves a compressed answer under the limit wrapped (control)', async () => {
    const answer = await sendRequest(`${proxy.url}/api/small-gzip?callback=cb`)
    expect(answer.status).toBe(200)
    expect(answer.body.toString()).toBe(`/**/ typeof cb === 'function' && cb({"small":true});`)
  })

  it('still answers a plain request afterwards', async () => {
    expect((await sendRequest(`${proxy.url}/api/after`)).status).toBe(200)
  })
})

describe('an answer that passes the limit while it arrives', () => {
  it('is answered 502 at once, and the target is not read to its end', async () => {
    const answer = await sendRequest(`${proxy.url}/api/big?callback=cb`)
    expect(answer.status).toBe(502)
    expect(answer.body.toString()).toContain(
      `the answer is larger than ${MAX_JSONP_SOURCE_BYTES / 2 ** 20} MiB`,
    )
    const state = big as BigAnswer
    // The proxy dropped the upstream request: the target's answer is closed before it ends (in
    // milliseconds; the 20 s is a wait that holds beside a busy process, not a bound).
    await Promise.race([
      state.closed,
      new Promise((_, reject) => setTimeout(() => reject(new Error('the target kept writing')), 20_000)),
    ])
    expect(state.finished).toBe(false)
    expect(state.written).toBeLessThan(2 * MAX_JSONP_SOURCE_BYTES)
  })
})
