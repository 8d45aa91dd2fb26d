// `pnpm bench --only lab`: the protocol lab's experiments (playground/lab/run-lab.mjs), full
// size, in headless Chromium, recorded under `lab` in bench/results.json in the shape the issue
// set: loss rows, the UDP-blocked protocol, sharding rows, and what was skipped and why.
import { loadavg } from 'node:os'
import { LAB_SIZES, runLab } from '../playground/lab/run-lab.mjs'

/**
 * Runs the lab and returns what results.json keeps of it (no per-request timings, which only
 * the page draws).
 * @param {{ quick?: boolean, log?: (line: string) => void }} [options]
 */
export async function measureLab({ quick = false, log = console.log } = {}) {
  // The machine's load around the run: the lab's times are mostly CPU time, so other work on
  // the machine widens their spread; the record says how busy it was.
  const loadBefore = loadavg().map((value) => Math.round(value * 100) / 100)
  const results = await runLab({ size: quick ? 'small' : 'full', log })
  const loadAfter = loadavg().map((value) => Math.round(value * 100) / 100)
  const zeroLoss = results.loss.filter((row) => row.lossPct === 0)
  return {
    when: results.when,
    where: results.where,
    sizes: quick ? LAB_SIZES.small : LAB_SIZES.full,
    chromium: results.chromium.commandLine,
    load: { before: loadBefore, after: loadAfter },
    loss: results.loss.map(
      ({ protocol, lossPct, runsMs, medianMs, minMs, maxMs, failedRuns, nextHopProtocol }) => ({
        protocol,
        lossPct,
        runsMs,
        medianMs,
        minMs,
        maxMs,
        failedRuns,
        nextHopProtocol,
      }),
    ),
    // The HTTP/3 front against HTTP/2 (and HTTP/1.1) with many parallel fetches, no loss.
    parallel: zeroLoss.map(({ protocol, medianMs, runsMs, nextHopProtocol }) => ({
      protocol,
      requests: results.sizes.requests,
      medianMs,
      runsMs,
      nextHopProtocol,
    })),
    udpBlocked:
      results.udpBlocked === undefined
        ? undefined
        : { nextHopProtocol: results.udpBlocked.nextHopProtocol, sequence: results.udpBlocked.sequence },
    sharding: results.sharding.map(({ protocol, hosts, medianMs, runsMs, connections, handshakes }) => ({
      protocol,
      hosts,
      medianMs,
      runsMs,
      connections,
      handshakes,
    })),
    hops: results.hops,
    skipped: results.skipped,
  }
}
