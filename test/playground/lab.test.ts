import { mkdirSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findProgram } from '../../packages/cli/src/serve/find-program.js'
import { labNetworkSupport } from '../../playground/lab/lab-network.mjs'
import { LOSS_RATES, runLab } from '../../playground/lab/run-lab.mjs'
import { programRequirement, skipUnmet } from '../support/requirement.js'

/*
 * The protocol lab, each experiment once with small counts, in the lab's own headless Chromium
 * (inside its network namespace when this runs as root on Linux), then the lab page opened in
 * that same browser on those results. Loss and UDP blocking need the namespace: without it they
 * are skipped, the reason printed, and never counted as passed.
 */

const playground = new URL('../../playground/', import.meta.url)
const artifacts = new URL('../../test-results/', import.meta.url).pathname
const network = labNetworkSupport()
const caddy = findProgram('caddy')
const nghttp = findProgram('nghttp')
const caddyRequirement = programRequirement('caddy', caddy, 'caddy')
const skipLoss = skipUnmet('lab loss experiments', network)
const skipUdp = skipUnmet('lab UDP-blocked experiment', network, caddyRequirement)
const skipFrames = skipUnmet('lab frames', programRequirement('nghttp', nghttp, 'nghttp2-client'))
// The HTTP/3 rows of the other experiments: under CI a missing Caddy fails here.
skipUnmet('lab HTTP/3 rows', caddyRequirement)

// biome-ignore lint/suspicious/noExplicitAny: the lab's results are plain JSON from an .mjs module.
let results: any
/** What the lab page showed, read in the lab's browser. */
let page: {
  waterfalls: string[]
  medians: number
  udpProtocol: string | null
  shards: number
  frameRows: number
  verdict: string
  skipped: string
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true })
  results = await runLab({
    size: 'small',
    async inspect(browser, results) {
      const context = await browser.newContext()
      const tab = await context.newPage()
      // The page's files from the playground folder, its API answered with these results.
      await tab.route('https://lab.invalid/**', async (route) => {
        const path = new URL(route.request().url()).pathname
        if (path === '/__lab/results') return route.fulfill({ json: results })
        const file = new URL(`.${path}`, playground)
        const type = CONTENT_TYPES[path.slice(path.lastIndexOf('.'))] ?? 'text/plain'
        return route.fulfill({ body: readFileSync(file), contentType: type })
      })
      await tab.goto('https://lab.invalid/lab.html')
      await tab.waitForSelector('#lab-status:not(:text("Not run yet."))', { timeout: 10_000 })
      page = await tab.evaluate(() => ({
        waterfalls: [...document.querySelectorAll('#waterfalls figure')].map(
          (f) => f.getAttribute('data-protocol') ?? '',
        ),
        medians: document.querySelectorAll('#loss-chart rect.median').length,
        udpProtocol: document.getElementById('udp-protocol')?.textContent ?? null,
        shards: document.querySelectorAll('#sharding-chart rect.shard').length,
        frameRows: document.querySelectorAll('#frames-table tr.frame').length,
        verdict: document.getElementById('loss-verdict')?.textContent ?? '',
        skipped: document.getElementById('lab-skipped')?.textContent ?? '',
      }))
      await tab.screenshot({ path: `${artifacts}lab.png`, fullPage: true })
      await context.close()
    },
  })
}, 180_000)

afterAll(() => {
  for (const skip of results?.skipped ?? []) console.warn(`lab skipped ${skip.experiment}: ${skip.reason}`)
})

const protocols = caddy === undefined ? ['h1', 'h2'] : ['h1', 'h2', 'h3']
const reported: Record<string, string> = { h1: 'http/1.1', h2: 'h2', h3: 'h3' }

describe('the protocol lab', () => {
  it('sends the same burst over each protocol, each request over the protocol it names', () => {
    expect(results.waterfall.map((run: { protocol: string }) => run.protocol)).toEqual(protocols)
    for (const run of results.waterfall) {
      expect(run.requests).toHaveLength(results.sizes.requests)
      expect(new Set(run.requests.map((r: { protocol: string }) => r.protocol))).toEqual(
        new Set([reported[run.protocol]]),
      )
    }
    // HTTP/1.1: about six connections, so requests wait; HTTP/2 and HTTP/3 open one.
    const newConnections = (protocol: string) =>
      results.waterfall
        .find((run: { protocol: string }) => run.protocol === protocol)
        .requests.filter((r: { connected: boolean }) => r.connected).length
    expect(newConnections('h1')).toBeGreaterThan(1)
    expect(newConnections('h1')).toBeLessThanOrEqual(6)
    expect(newConnections('h2')).toBe(0)
    expect(page.waterfalls).toEqual(protocols)
  })

  it.skipIf(skipLoss)('measures each protocol at 0, 1, 2 and 5 % loss, over the protocol it names', () => {
    expect(results.loss).toHaveLength(LOSS_RATES.length * protocols.length)
    for (const row of results.loss) {
      expect(LOSS_RATES).toContain(row.lossPct)
      expect(row.runsMs.length + row.failedRuns).toBe(results.sizes.runs)
      expect(row.nextHopProtocol, `${row.protocol} at ${row.lossPct} %`).toBe(reported[row.protocol])
      expect(row.medianMs).toBeGreaterThan(0)
    }
    expect(page.medians).toBe(results.loss.length)
    expect(page.verdict).toMatch(/HTTP\/2 was (never )?slower than HTTP\/1\.1/)
  })

  it.skipIf(skipUdp)('falls back from h3 to h2 with UDP blocked, every request answered', () => {
    expect(results.udpBlocked.nextHopProtocol).toBe('h2')
    expect(results.udpBlocked.answered).toBe(true)
    expect(results.udpBlocked.sequence).not.toContain('h3')
    expect(results.udpBlocked.rules).toContain('meta l4proto udp drop')
    expect(page.udpProtocol).toBe('HTTP/2')
  })

  it('shards over 1 and 4 hosts, counting the connections each took', () => {
    const row = (protocol: string, hosts: number) =>
      results.sharding.find(
        (r: { protocol: string; hosts: number }) => r.protocol === protocol && r.hosts === hosts,
      )
    expect(row('h1', 1).connections).toBeLessThanOrEqual(6)
    expect(row('h1', 4).connections).toBeGreaterThan(6)
    expect(row('h2', 1).connections).toBe(1)
    expect(row('h2', 4).connections).toBe(4)
    // Each connection took its TLS handshake (HTTP/2 sometimes more, opened before ALPN said h2).
    for (const r of results.sharding) expect(r.handshakes).toBeGreaterThanOrEqual(r.connections)
    expect(page.shards).toBe(4)
  })

  it.skipIf(skipFrames)('decodes the HTTP/2 frames of one proxied exchange, and names each hop', () => {
    const frames = results.frames.frames as {
      type: string
      length: number
      bytes: string[]
      headers: string[][]
      streamId: number
    }[]
    const types = new Set(frames.map((frame) => frame.type))
    for (const type of ['SETTINGS', 'HEADERS', 'DATA', 'WINDOW_UPDATE']) expect(types).toContain(type)
    const answer = frames.find(
      (frame) => frame.type === 'HEADERS' && frame.headers.some(([name]) => name === ':status'),
    )
    expect(answer?.headers).toContainEqual([':status', '200'])
    // The 9-byte header says what the frame is: its length in the first three bytes, its stream id in the last four.
    for (const frame of frames) {
      expect(Number.parseInt(frame.bytes.slice(0, 3).join(''), 16)).toBe(frame.length)
      expect(Number.parseInt(frame.bytes.slice(5).join(''), 16)).toBe(frame.streamId)
    }
    expect(results.hops['dev server → target']).toBe('HTTP/1.1')
    expect(results.hops['browser → dev server']).toBe('h2')
    expect(page.frameRows).toBe(frames.length)
  })

  it('prints the Chromium command line it ran, with the HTTP/3 flags', () => {
    expect(results.chromium.commandLine).toMatch(
      /--enable-quic --origin-to-force-quic-on=\S+:9 --ignore-certificate-errors-spki-list=\S+=/,
    )
  })
})
