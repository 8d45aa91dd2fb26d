// Drives one contender over HTTP/2 with h2load (nghttp2's load generator, C like wrk) for a
// fixed time after a warm-up; latency percentiles come from its per-request log file.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runTool } from './processes.mjs'
import { quantile } from './stats.mjs'

/**
 * @param {object} run
 * @param {string} run.url an https URL (h2load negotiates h2 by ALPN)
 * @param {number} run.clients connections
 * @param {number} run.streams concurrent streams per connection
 * @param {number} run.warmupMs
 * @param {number} run.durationMs
 * @param {() => number | undefined} [run.cpu] the server's CPU time so far, µs (`serverCpuUs`)
 * @returns {Promise<import('./wrk.mjs').WrkResult & { protocol: string }>}
 */
export async function runH2load({ url, clients, streams, warmupMs, durationMs, cpu }) {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-bench-h2load-'))
  const log = join(dir, 'requests.tsv')
  const run = (ms, extra = []) =>
    runTool('h2load', [`-c${clients}`, `-m${streams}`, '-t1', `-D${ms}ms`, ...extra, url], {
      timeoutMs: ms + 15_000,
    })
  try {
    // With `cpu`, the warm-up is a run of its own (as wrk.mjs does it), so the CPU read around
    // the measured run counts only the requests that run answers.
    if (cpu !== undefined && warmupMs > 0) await run(warmupMs)
    const warmup = cpu === undefined && warmupMs > 0 ? [`--warm-up-time=${warmupMs}ms`] : []
    const cpuBefore = cpu?.()
    const { stdout, stderr } = await run(durationMs, [...warmup, `--log-file=${log}`])
    const cpuAfter = cpu?.()
    const finished = /finished in [\d.]+\w+, ([\d.]+) req\/s/.exec(stdout)
    const counts = /(\d+) failed, (\d+) errored, (\d+) timeout/.exec(stdout)
    const codes = /status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/.exec(stdout)
    if (!finished || !counts || !codes)
      throw new Error(`h2load printed no result for ${url}:\n${stdout}${stderr}`)
    // One row per request: start (µs since the epoch), status, µs to the end of the answer.
    // Status 0 marks the streams still open when the time was up: not answers, not errors.
    const times = readFileSync(log, 'utf8')
      .split('\n')
      .map((row) => row.split('\t'))
      .filter((columns) => columns[1] !== undefined && columns[1] !== '0')
      .map((columns) => Number(columns[2]))
    const [, failed, errored, timeout] = counts.map(Number)
    const [, , , client, server] = codes.map(Number)
    return {
      rps: Number(finished[1]),
      requests: times.length,
      seconds: durationMs / 1000,
      p50Us: quantile(times, 0.5),
      p99Us: quantile(times, 0.99),
      errors: failed + errored + timeout + client + server,
      errorKinds: { failed, errored, timeout, '4xx': client, '5xx': server },
      protocol: /Application protocol: (\S+)/.exec(stdout)?.[1] ?? 'none',
      ...(cpuBefore !== undefined && cpuAfter !== undefined && times.length > 0
        ? { cpuUsPerRequest: Math.round(((cpuAfter - cpuBefore) / times.length) * 100) / 100 }
        : {}),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
