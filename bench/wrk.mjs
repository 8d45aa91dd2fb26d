// Drives one contender with wrk for a fixed time after a warm-up, through wrk-report.lua.
//
// Why wrk: on a 2-core machine the load generator takes CPU from the contender and the upstream,
// so it must do as little work per request as possible. wrk is C on epoll, one thread
// (`-t1`), pipelines nothing, and spends a few µs per request; a Node load generator
// (autocannon) spends several times that on the same loop that measures, which lowers every
// contender's ceiling and squeezes the differences we want to see. Its latency histogram is
// kept per request in µs, and wrk-report.lua prints the percentiles as one JSON line.
import { fileURLToPath } from 'node:url'
import { runTool } from './processes.mjs'

const script = fileURLToPath(new URL('wrk-report.lua', import.meta.url))

/**
 * What one measured wrk run gives.
 * @typedef {object} WrkResult
 * @property {number} rps requests per second
 * @property {number} requests
 * @property {number} seconds
 * @property {number} p50Us
 * @property {number} p99Us
 * @property {number} errors connect, read, write and timeout errors, and answers that are not 2xx or 3xx
 * @property {Record<string, number>} errorKinds
 * @property {number} [cpuUsPerRequest] the server's own CPU time per request, µs (when `cpu` was given)
 */

/**
 * @param {object} run
 * @param {string} run.url
 * @param {number} run.connections
 * @param {number} run.warmupMs a run of its own, discarded: connections opened, pools filled
 * @param {number} run.durationMs
 * @param {string} [run.method]
 * @param {string} [run.headers] `Name: value|Name: value`
 * @param {number} [run.bodyBytes] an upload of this size per request
 * @param {() => number | undefined} [run.cpu] the server's CPU time so far, µs (`serverCpuUs`)
 * @returns {Promise<WrkResult>}
 */
export async function runWrk({ url, connections, warmupMs, durationMs, method, headers, bodyBytes, cpu }) {
  const env = {
    BENCH_METHOD: method ?? '',
    BENCH_HEADERS: headers ?? '',
    BENCH_BODY_BYTES: String(bodyBytes ?? 0),
  }
  // A 10 s timeout (wrk's default is 2 s): on a loaded machine a slow answer is not an error.
  const args = (ms) => [
    '-t1',
    `-c${connections}`,
    `-d${Math.ceil(ms / 1000) + 10}s`,
    '--timeout',
    '10s',
    '-s',
    script,
    url,
  ]
  if (warmupMs > 0) await runTool('wrk', args(warmupMs), { ms: warmupMs, env })
  const cpuBefore = cpu?.()
  const { stdout, stderr } = await runTool('wrk', args(durationMs), { ms: durationMs, env })
  const cpuAfter = cpu?.()
  const line = /^BENCH-RESULT (.*)$/m.exec(stdout)
  if (!line) throw new Error(`wrk printed no result for ${url}:\n${stdout}${stderr}`)
  const result = JSON.parse(line[1])
  const seconds = result.durationUs / 1e6
  const errorKinds = result.errors
  return {
    rps: result.requests / seconds,
    requests: result.requests,
    seconds,
    p50Us: result.latencyUs.p50,
    p99Us: result.latencyUs.p99,
    errors: Object.values(errorKinds).reduce((sum, n) => sum + n, 0),
    errorKinds,
    // The server's own CPU per request during the measured run (clock ticks of 10 ms: a run of
    // a second holds dozens of them), when `cpu` reads it.
    ...(cpuBefore !== undefined && cpuAfter !== undefined && result.requests > 0
      ? { cpuUsPerRequest: Math.round(((cpuAfter - cpuBefore) / result.requests) * 100) / 100 }
      : {}),
  }
}
