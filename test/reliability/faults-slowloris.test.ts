import { createServer } from 'node:http'
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliServer, startCliServer } from '../../packages/cli/test/support/cli-process.js'
import { type RunningProxy, serveProxy } from '../support/proxy-server.js'
import { listen, type StartedServer, sendRequest } from '../support/servers.js'

/**
 * A slowloris client: many connections that send a request head one byte at a time and never
 * finish it. Other requests must still be answered promptly: the proxy does no per-connection
 * work while a head is incomplete (Node's parser holds it), so nothing waits on those sockets.
 * 200 slow connections for about two seconds, one byte each per 20 ms; meanwhile 40 ordinary
 * requests, each answered within 2 s (a few milliseconds on an idle machine; 500 ms failed beside
 * a second test run on this 2-core machine, at 0.6 to 0.9 s; the busy wait it catches made each take seconds). This held before this work; it fails if the proxy works per byte on
 * the event loop (checked by a 5 ms busy wait on each chunk the proxy server's connections read:
 * the ordinary requests then took seconds each, and the test ran into its 30 s limit).
 */

const SLOW_CONNECTIONS = 200
const ORDINARY = 40
const BOUND_MS = 2_000

let target: StartedServer<ReturnType<typeof createServer>>

beforeAll(async () => {
  target = await listen(createServer((_req, res) => res.end('ok')))
})

afterAll(async () => {
  await target?.close()
})

/** Opens the slow connections and feeds them a byte each every 20 ms until stopped. */
async function slowloris(url: string): Promise<{ stop(): void; open(): number }> {
  const { hostname, port } = new URL(url)
  const head = Buffer.from(
    `GET /api/slow HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'a'.repeat(4000)}\r\n\r\n`,
  )
  const sockets: Array<{ socket: Socket; sent: number }> = []
  await Promise.all(
    Array.from(
      { length: SLOW_CONNECTIONS },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = connect(Number(port), hostname, () => resolve())
          socket.once('error', reject)
          sockets.push({ socket, sent: 0 })
        }),
    ),
  )
  for (const { socket } of sockets) socket.on('error', () => undefined)
  // One timer for all, bounded by the head's length (a byte per tick, never the blank line).
  const timer = setInterval(() => {
    for (const slow of sockets) {
      if (slow.sent < head.byteLength - 2) slow.socket.write(head.subarray(slow.sent, ++slow.sent))
    }
  }, 20)
  return {
    stop() {
      clearInterval(timer)
      for (const { socket } of sockets) socket.destroy()
    },
    open: () => sockets.filter(({ socket }) => !socket.destroyed).length,
  }
}

/** Sends the ordinary requests one after the other for about two seconds; their durations. */
async function ordinaryRequests(url: string): Promise<number[]> {
  const durations: number[] = []
  for (let i = 0; i < ORDINARY; i++) {
    const start = performance.now()
    const res = await sendRequest(`${url}/api/fast-${i}`)
    durations.push(performance.now() - start)
    expect(res.status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return durations
}

describe(`${SLOW_CONNECTIONS} slowloris connections`, () => {
  let proxy: RunningProxy
  let serve: CliServer
  beforeAll(async () => {
    proxy = await serveProxy({ '/api': target.url }, { log: 'silent' })
    serve = await startCliServer(['serve', '--port', '0', '--route', `/api=${target.url}`])
  })
  afterAll(async () => {
    await proxy?.close()
    await serve?.stop()
  })

  it.each([
    ['the core', () => proxy.url],
    ['cors-dev-proxy serve', () => serve.origin],
  ])(`do not delay other requests beyond ${BOUND_MS} ms (%s)`, { timeout: 30_000 }, async (_, url) => {
    const attack = await slowloris(url())
    try {
      const durations = await ordinaryRequests(url())
      // The slow connections were all still open: the requests competed with every one of them.
      expect(attack.open()).toBe(SLOW_CONNECTIONS)
      expect(Math.max(...durations)).toBeLessThan(BOUND_MS)
    } finally {
      attack.stop()
    }
  })
})
