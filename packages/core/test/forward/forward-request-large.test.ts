// Test project: stress (1 GiB each way through the proxy, with memory sampled: about 40 s on a quiet machine)
import { randomBytes } from 'node:crypto'
import { createServer, request } from 'node:http'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { crc32 } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningProxy, serveProxy } from '../../../../test/support/proxy-server.js'
import { listen, openRequest, type StartedServer } from '../../../../test/support/servers.js'

const GiB = 1024 ** 3
const MiB = 1024 ** 2
const CHUNK = 64 * 1024

/*
 * The data is 16 random 64 KiB blocks, created once, sent in a fixed pseudo-random order. Blocks
 * are never modified, so a stream may hold on to one while it is queued; and the sender
 * allocates nothing per chunk, so the memory the test measures is the proxy's.
 */
const BLOCKS = Array.from({ length: 16 }, () => randomBytes(CHUNK))

/** A running CRC-32 of a byte stream: cheap enough that the test's CPU goes to the proxy. */
class Checksum {
  value = 0
  update(chunk: Buffer): void {
    this.value = crc32(chunk, this.value)
  }
}

/** `total` bytes of the block sequence, summed on the way out into `sum`, `onBytes` told of each chunk. */
function generate(total: number, sum: Checksum, onBytes?: (bytes: number) => void): Readable {
  let sent = 0
  let index = 0
  return new Readable({
    read() {
      if (sent >= total) {
        this.push(null)
        return
      }
      const block = BLOCKS[(index++ * 7) % BLOCKS.length] as Buffer
      const chunk = total - sent >= CHUNK ? block : block.subarray(0, total - sent)
      sent += chunk.length
      sum.update(chunk)
      onBytes?.(chunk.length)
      this.push(chunk)
    },
  })
}

/**
 * A full garbage collection, so a sample measures what is held, not garbage the collector has
 * not reached yet: on a loaded machine that lag alone swings the resident set by tens of MiB,
 * which would hide the property under test (nothing accumulates while streaming) in noise.
 */
setFlagsFromString('--expose-gc')
const collectGarbage = runInNewContext('gc') as () => void

/**
 * Samples the resident memory of this process (which runs client, proxy and target) as the bytes
 * go by: one sample per 64 MiB sent, each after a full collection. By bytes rather than by time,
 * because each sample collects the worker's whole heap: twice a second, a run slowed down by a
 * loaded machine (206 s instead of 40) spent 63 CPU-s, most of them collecting. What the test
 * guards against, memory that accumulates while streaming, only grows, so the last sample
 * catches it whatever the rate.
 */
function watchMemory() {
  collectGarbage()
  const baseline = process.memoryUsage.rss()
  let peak = baseline
  let unsampled = 0
  const sample = () => {
    collectGarbage()
    peak = Math.max(peak, process.memoryUsage.rss())
  }
  return {
    /** Counts bytes streamed; every 64 MiB, a sample. */
    streamed(bytes: number) {
      unsampled += bytes
      if (unsampled < 64 * MiB) return
      unsampled = 0
      sample()
    },
    growth() {
      sample()
      return peak - baseline
    },
  }
}

/** What the memory watch counts bytes with while a transfer runs (none during the warm-up). */
let streamed: ((bytes: number) => void) | undefined

let target: StartedServer<ReturnType<typeof createServer>>
let proxy: RunningProxy
let uploadDigest: Promise<{ bytes: number; digest: number }>
let downloadDigest = -1

beforeAll(async () => {
  target = await listen(
    createServer((req, res) => {
      if (req.method === 'POST') {
        const sum = new Checksum()
        let bytes = 0
        uploadDigest = new Promise((resolve, reject) => {
          req.on('data', (chunk: Buffer) => {
            bytes += chunk.length
            sum.update(chunk)
          })
          req.on('end', () => {
            resolve({ bytes, digest: sum.value })
            res.end('stored')
          })
          req.on('error', reject)
        })
        return
      }
      const size = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('size'))
      const sum = new Checksum()
      res.writeHead(200, { 'content-type': 'application/octet-stream' })
      void pipeline(generate(size, sum), res).then(() => {
        downloadDigest = sum.value
      })
    }),
  )
  proxy = await serveProxy({ '/api': target.url }, { log: 'silent' })
})

afterAll(async () => {
  await proxy?.close()
  await target?.close()
})

async function upload(size: number): Promise<{ sent: number; received: { bytes: number; digest: number } }> {
  const sum = new Checksum()
  const req = request(`${proxy.url}/api/upload`, {
    method: 'POST',
    headers: { 'content-length': String(size), 'content-type': 'application/octet-stream' },
    agent: false,
  })
  const response = new Promise<number>((resolve, reject) => {
    req.once('response', (res) => {
      res.resume()
      res.once('end', () => resolve(res.statusCode ?? 0))
    })
    req.once('error', reject)
  })
  await pipeline(generate(size, sum, streamed), req)
  expect(await response).toBe(200)
  return { sent: sum.value, received: await uploadDigest }
}

async function download(size: number): Promise<{ bytes: number; digest: number }> {
  const res = await openRequest(`${proxy.url}/api/download?size=${size}`)
  const sum = new Checksum()
  let bytes = 0
  for await (const chunk of res as AsyncIterable<Buffer>) {
    bytes += chunk.length
    sum.update(chunk)
    streamed?.(chunk.length)
  }
  return { bytes, digest: sum.value }
}

describe('1 GiB through the proxy', () => {
  it('streams a 1 GiB upload byte-identical, with under 64 MiB of memory growth', {
    timeout: 120_000,
  }, async () => {
    // Warm-up: sockets, pools, JIT and the allocator's arenas in place before the baseline, so the
    // measure is whether memory stays flat while the rest streams.
    await upload(256 * MiB)
    const memory = watchMemory()
    streamed = memory.streamed
    const { sent, received } = await upload(GiB)
    streamed = undefined
    const growth = memory.growth()
    expect(received.bytes).toBe(GiB)
    expect(received.digest).toBe(sent)
    expect(growth).toBeLessThan(64 * MiB)
  })

  it('streams a 1 GiB download byte-identical, with under 64 MiB of memory growth', {
    timeout: 120_000,
  }, async () => {
    await download(256 * MiB)
    const memory = watchMemory()
    streamed = memory.streamed
    const received = await download(GiB)
    streamed = undefined
    const growth = memory.growth()
    expect(received.bytes).toBe(GiB)
    expect(received.digest).toBe(downloadDigest)
    expect(growth).toBeLessThan(64 * MiB)
  })
})
