import { createServer, type Server } from 'node:http'
import { listen, openRequest, type StartedServer } from '../../support/servers.js'

const CHUNK = Buffer.alloc(64 * 1024, 0x63)

/** A target serving `GET /?size=N`: N bytes of one reused 64 KiB block, back-pressured, counted as written. */
export interface CountingTarget extends StartedServer<Server> {
  /** Bytes handed to the response so far (what the target has let go of). */
  written(): number
}

/**
 * Starts a target whose downloads allocate nothing per chunk (one block written again and
 * again), so the memory a test measures is the proxy's, and that counts what it has written.
 */
export async function countingTarget(): Promise<CountingTarget> {
  let written = 0
  const started = await listen(
    createServer((req, res) => {
      let left = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('size'))
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': left })
      const pump = (): void => {
        while (left > 0 && !res.destroyed) {
          const chunk = left >= CHUNK.byteLength ? CHUNK : CHUNK.subarray(0, left)
          left -= chunk.byteLength
          written += chunk.byteLength
          if (!res.write(chunk)) {
            res.once('drain', pump)
            return
          }
        }
        if (!res.destroyed) res.end()
      }
      pump()
    }),
  )
  return { ...started, written: () => written }
}

/** How a slow download went. */
export interface SlowDownload {
  /** Bytes the client read. */
  readonly bytes: number
  /** The most bytes the target had written beyond what the client had read, seen during a stall. */
  readonly maxInFlight: number
}

/**
 * Downloads `url` at `bytesPerSecond` at most, and stops reading entirely for `stallMs` after
 * every `stallEvery` bytes: a reader much slower than the proxy can send. During each stall,
 * notes how far the target got ahead of the reader (`inFlight`), which back-pressure bounds, and
 * calls `atStallEnd` (when the buffers are as full as they get: the moment to sample memory).
 */
export async function slowDownload(
  url: string,
  options: {
    bytesPerSecond: number
    stallEvery: number
    stallMs: number
    written: () => number
    atStallEnd?: () => void
  },
): Promise<SlowDownload> {
  const res = await openRequest(url)
  const start = performance.now()
  let bytes = 0
  let nextStall = options.stallEvery
  let maxInFlight = 0
  const writtenAtStart = options.written()
  const inFlight = () => options.written() - writtenAtStart - bytes
  await new Promise<void>((resolve, reject) => {
    res.on('data', (chunk: Buffer) => {
      bytes += chunk.byteLength
      let wait = (bytes / options.bytesPerSecond) * 1000 - (performance.now() - start)
      if (bytes >= nextStall) {
        nextStall += options.stallEvery
        wait = Math.max(wait, 0) + options.stallMs
        // Measured at the end of the stall, when the target has filled every buffer it can.
        setTimeout(() => {
          maxInFlight = Math.max(maxInFlight, inFlight())
          options.atStallEnd?.()
        }, wait - 1)
      }
      if (wait > 0) {
        res.pause()
        setTimeout(() => res.resume(), wait)
      }
    })
    res.once('end', resolve)
    res.once('error', reject)
  })
  return { bytes, maxInFlight }
}
