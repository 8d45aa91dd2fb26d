// The protocol lab: every experiment of the lab page, run in a headless Chromium this module
// starts (inside the lab's network namespace when it can make one), against the lab's servers.
// The page (playground/lab.html), `pnpm bench --only lab` and the tests all call runLab.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { CHROMIUM_PATH, quicChromiumArgs } from '../../test/support/chromium-launch.mjs'
import { captureFrames } from './h2-frames.mjs'
import { createLabNetwork, labNetworkSupport } from './lab-network.mjs'
import { startLabServers } from './lab-servers.mjs'
import { burst, warmUp } from './page-runs.mjs'

/** The loss rates of the loss experiment, in % of packets dropped in each direction. */
export const LOSS_RATES = [0, 1, 2, 5]
/** Host names of the sharding experiment; Chromium maps them to the lab's server address. */
const SHARD_DOMAIN = 'lab.test'

/**
 * How much each experiment does: `pnpm test` runs a small lab, the page's "Run the lab" one run of
 * the full burst (100 requests), its "Full run" and `pnpm bench --only lab` five.
 */
export const LAB_SIZES = Object.freeze({
  page: { requests: 100, runs: 1, bytes: 16 * 1024, shardAssets: 48, runTimeoutMs: 60_000 },
  small: { requests: 12, runs: 1, bytes: 4 * 1024, shardAssets: 12, runTimeoutMs: 20_000 },
  full: { requests: 100, runs: 5, bytes: 16 * 1024, shardAssets: 48, runTimeoutMs: 60_000 },
})

/** The median of numbers (the mean of the middle two for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** The protocol most requests of a run went over (what the loss table reports). */
function mostUsed(protocols) {
  const counts = new Map()
  for (const protocol of protocols) counts.set(protocol, (counts.get(protocol) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? ''
}

/** The Chromium command line the lab runs, for the page and the log (a user can run it headed). */
function commandLine(args, url) {
  return ['chromium', ...args.filter((arg) => arg !== '--headless'), url].join(' ')
}

/**
 * Runs every experiment once (`size`: `small` or `full`, or an object of the same shape) and
 * returns the results: what ran, where, with which Chromium flags, and the numbers; what could
 * not run is in `skipped`, with the reason. Stops everything it started, on every exit path.
 * `inspect`, when given, is called with the lab's browser and the results before everything
 * stops (the tests open the lab page in that same browser).
 * @param {{ size?: keyof typeof LAB_SIZES | typeof LAB_SIZES.small, log?: (line: string) => void, only?: string[], inspect?: (browser: import('playwright-core').Browser, results: any) => Promise<void> }} [options]
 */
export async function runLab({ size = 'small', log = () => {}, only, inspect } = {}) {
  const sizes = typeof size === 'string' ? LAB_SIZES[size] : size
  const wants = (name) => only === undefined || only.includes(name)
  const skipped = []
  const support = labNetworkSupport()
  if (!support.ok)
    skipped.push(
      { experiment: 'loss', reason: support.reason },
      { experiment: 'udpBlocked', reason: support.reason },
    )
  const cwd = mkdtempSync(join(tmpdir(), 'cdp-lab-run-'))
  let network
  let servers
  let browser
  try {
    network = support.ok ? await createLabNetwork() : undefined
    const host = network?.hostAddress ?? '127.0.0.1'
    servers = await startLabServers({ host, cwd })
    if (servers.h3Missing) skipped.push({ experiment: 'h3', reason: servers.h3Missing })
    const protocols = servers.origins.h3 === undefined ? ['h1', 'h2'] : ['h1', 'h2', 'h3']
    // QUIC forced on a port nothing uses: Chromium then accepts our certificate over QUIC for this
    // host, and learns the real port from Alt-Svc, falling back where UDP is blocked.
    const args = [
      ...quicChromiumArgs({ forceQuicOn: [`${host}:9`], spki: servers.spki }),
      `--host-resolver-rules=MAP *.${SHARD_DOMAIN} ${host}`,
    ]
    const chromiumLine = commandLine(args, `${servers.origins.h2}/`)
    log(`lab: Chromium ${network ? `in network namespace ${network.name}` : 'on loopback'}: ${chromiumLine}`)
    browser = await chromium.launch({
      executablePath: network?.chromiumWrapper ?? CHROMIUM_PATH,
      args,
      timeout: 60_000,
    })

    const urlsFor = (origin, count, tag) =>
      Array.from({ length: count }, (_, i) => `${origin}/api/asset?size=${sizes.bytes}&${tag}=${i}`)

    /** One burst over `protocol` in a fresh context (new connections), after the warm-up. */
    async function measure(protocol, tag, count = sizes.requests) {
      const context = await browser.newContext()
      try {
        const origin = servers.origins[protocol]
        const want = protocol === 'h1' ? 'http/1.1' : protocol
        const { page, seen } = await warmUp(context, origin, want)
        // Chromium's own word for a failed request (ERR_…), which fetch's TypeError does not carry.
        const devtools = await context.newCDPSession(page)
        const failures = new Set()
        devtools.on('Network.loadingFailed', (event) => failures.add(event.errorText))
        await devtools.send('Network.enable')
        const result = await burst(page, urlsFor(origin, count, tag), sizes.runTimeoutMs)
        if (result.error) result.error += ` (${[...failures].join(', ')})`
        return { ...result, warmUp: seen }
      } finally {
        await context.close()
      }
    }

    const results = {
      when: new Date().toISOString(),
      where: network ? `network namespace ${network.name}, servers on ${host}` : 'loopback (no namespace)',
      chromium: { commandLine: chromiumLine },
      sizes,
      hops: undefined,
      waterfall: [],
      loss: [],
      udpBlocked: undefined,
      sharding: [],
      frames: undefined,
      skipped,
    }

    if (wants('waterfall')) {
      for (const protocol of protocols) {
        const run = await measure(protocol, 'w')
        results.waterfall.push({
          protocol,
          ...run,
          nextHopProtocol: mostUsed(run.requests.map((r) => r.protocol)),
        })
        log(`lab: waterfall ${protocol}: ${Math.round(run.totalMs)} ms`)
      }
    }

    if (wants('loss') && network) {
      // One unrecorded burst per protocol first: the servers' code is then warm (JIT, pools) for
      // the first rate as for the last.
      // (Not in a single-run lab, as in pnpm test, which compares no times.)
      if (sizes.runs > 1) for (const protocol of protocols) await measure(protocol, 'warm').catch(() => {})
      const rows = new Map()
      for (const lossPct of LOSS_RATES)
        for (const protocol of protocols)
          rows.set(`${protocol} ${lossPct}`, { protocol, lossPct, runsMs: [], failed: 0, seen: [] })
      // Interleaved: run 1 at every rate and over every protocol, then run 2…, so that a slow
      // moment of the machine hits every rate and protocol alike.
      for (let run = 0; run < sizes.runs; run++) {
        for (const lossPct of LOSS_RATES) {
          await network.setLoss(lossPct)
          for (const protocol of protocols) {
            const row = rows.get(`${protocol} ${lossPct}`)
            const result = await measure(protocol, `l${lossPct}-${run}`).catch((error) => ({
              error: String(error),
            }))
            if (result.error) {
              row.failed++
              log(`lab: loss ${lossPct} % ${protocol} run ${run + 1} failed: ${result.error}`)
            } else row.runsMs.push(Math.round(result.totalMs * 10) / 10)
            row.seen.push(...(result.requests ?? []).map((r) => r.protocol))
          }
        }
      }
      await network.setLoss(0)
      for (const row of rows.values()) {
        const { runsMs } = row
        results.loss.push({
          protocol: row.protocol,
          lossPct: row.lossPct,
          runsMs,
          medianMs: runsMs.length === 0 ? null : median(runsMs),
          minMs: runsMs.length === 0 ? null : Math.min(...runsMs),
          maxMs: runsMs.length === 0 ? null : Math.max(...runsMs),
          failedRuns: row.failed,
          nextHopProtocol: mostUsed(row.seen),
        })
      }
      log(`lab: loss: ${results.loss.map((r) => `${r.protocol}@${r.lossPct}% ${r.medianMs} ms`).join(', ')}`)
    }

    if (wants('udpBlocked') && network && servers.origins.h3) {
      await network.blockUdp(true)
      const context = await browser.newContext()
      try {
        const { page, seen } = await warmUp(context, servers.origins.h3, 'h3', 12)
        const run = await burst(page, urlsFor(servers.origins.h3, 10, 'u'), sizes.runTimeoutMs)
        const after = run.requests.map((r) => r.protocol)
        results.udpBlocked = {
          nextHopProtocol: mostUsed(after),
          sequence: [...seen, ...after],
          answered: run.error === undefined,
          rules: await network.rules(),
        }
      } finally {
        await context.close()
        await network.blockUdp(false)
      }
      log(`lab: UDP blocked: ${results.udpBlocked.nextHopProtocol}`)
    }

    if (wants('sharding')) {
      /** One sharding run in a fresh context: the time, the connections and handshakes it took. */
      const shardRun = async (protocol, hosts, run) => {
        const context = await browser.newContext()
        try {
          const port = servers.ports[protocol]
          const page = await context.newPage()
          await page.goto(`${servers.origins[protocol]}/api/asset?size=0&page=1`)
          servers.handshakes[protocol].reset()
          servers.connections[protocol].reset()
          const urls = Array.from(
            { length: sizes.shardAssets },
            (_, i) =>
              `https://s${(i % hosts) + 1}.${SHARD_DOMAIN}:${port}/api/asset?size=${sizes.bytes}&s${run}=${i}`,
          )
          const result = await burst(page, urls, sizes.runTimeoutMs)
          return {
            ms: Math.round(result.totalMs * 10) / 10,
            // Connections that carried an asset, and TLS handshakes: Chromium may open a few
            // connections to a host before it learns that one HTTP/2 connection will do.
            connections: servers.connections[protocol].read(),
            handshakes: servers.handshakes[protocol].read(),
            requests: result.requests,
          }
        } finally {
          await context.close()
        }
      }
      const rows = []
      for (const protocol of ['h1', 'h2'])
        for (const hosts of [1, 4]) rows.push({ protocol, hosts, runs: [] })
      // Interleaved, as the loss runs are.
      for (let run = 0; run < sizes.runs; run++)
        for (const row of rows) row.runs.push(await shardRun(row.protocol, row.hosts, run))
      for (const { protocol, hosts, runs } of rows) {
        results.sharding.push({
          protocol,
          hosts,
          runsMs: runs.map((r) => r.ms),
          medianMs: median(runs.map((r) => r.ms)),
          connections: median(runs.map((r) => r.connections)),
          handshakes: median(runs.map((r) => r.handshakes)),
          nextHopProtocol: mostUsed(runs.flatMap((r) => r.requests.map((q) => q.protocol))),
          requests: runs[0].requests,
        })
      }
      log(
        `lab: sharding: ${results.sharding.map((s) => `${s.protocol}×${s.hosts} ${s.medianMs} ms ${s.connections} conn`).join(', ')}`,
      )
    }

    if (wants('frames')) {
      try {
        const frames = await captureFrames(`${servers.origins.h2}/api/asset?size=64&frames=1`)
        results.frames = { url: `${servers.origins.h2}/api/asset?size=64`, frames }
        results.hops = {
          'browser → dev server': results.waterfall.find((w) => w.protocol === 'h2')?.nextHopProtocol ?? 'h2',
          'dev server → target': `HTTP/${servers.target.lastVersion() ?? '1.1'}`,
          'browser → Caddy → dev server (h3 route)': servers.origins.h3
            ? 'h3, then h2 over TLS on loopback'
            : 'no Caddy',
        }
      } catch (error) {
        skipped.push({
          experiment: 'frames',
          reason: `nghttp did not run (apt-get install nghttp2-client): ${error.message}`,
        })
      }
    }
    await inspect?.(browser, results)
    return results
  } finally {
    await browser?.close().catch(() => {})
    await servers?.close().catch(() => {})
    await network?.close()
    rmSync(cwd, { recursive: true, force: true })
  }
}
