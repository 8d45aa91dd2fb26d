// CPU each small GET costs a contender's process, measured from /proc rather than inferred from
// req/s: `node bench/cpu-per-request.mjs ours-node undici-dispatch [--rounds 5] [--seconds 2]`.
//
// On a shared 2-core machine the req/s of one contender moves by 0.6x to 1.5x between runs,
// because wrk and the upstream take CPU from it too. The CPU time the contender's own process
// spends per request (user + system, from /proc/<pid>/stat, over wrk's requests) moves far less:
// it is the cost the engine's targets are about. Runs the two contenders interleaved (A B A B …),
// each under `wrk -t1 -c50` on the small-GET path after a warm-up, and prints the µs per request
// of each round and their medians. Linux only (reads /proc); any contender of contenders.mjs but
// nginx (whose CPU is its workers') and the backend. A contender that forwards to an https target
// (`ours-tls-h2`, `undici-dispatch-h2`) gets the upstream's TLS twin.
//
// `--b-root <checkout>` starts contender B from another checkout of this repository (built, with
// its own `bench/` and `packages/*/dist`): an interleaved A/B of two builds of the same contender,
// e.g. `node bench/cpu-per-request.mjs ours-node ours-node --b-root /tmp/old --rounds 9`.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { contender, serverSpecs, TLS_UPSTREAM_SERVERS, upstreamSpec } from './contenders.mjs'
import { startServer } from './processes.mjs'
import { median } from './stats.mjs'
import { writeCertificate } from './tls.mjs'
import { runWrk } from './wrk.mjs'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '2' },
    'b-root': { type: 'string' },
  },
})
if (positionals.length !== 2) {
  console.error(
    'usage: node bench/cpu-per-request.mjs <contender A> <contender B> [--rounds N] [--seconds S] [--b-root <checkout>]',
  )
  process.exit(2)
}
const rounds = Number(values.rounds)
const seconds = Number(values.seconds)
const root = fileURLToPath(new URL('..', import.meta.url))
/** Contender B's checkout, with a trailing slash, when it is not this one. */
const bRoot = values['b-root'] === undefined ? undefined : `${resolve(values['b-root'])}/`

/** A server spec started from `checkout` instead of this repository (its script paths moved over). */
function fromCheckout(spec, checkout) {
  return {
    ...spec,
    args: spec.args.map((arg) => (arg.startsWith(root) ? checkout + arg.slice(root.length) : arg)),
  }
}

/** User + system CPU of a process so far, in µs (clock ticks of 10 ms on Linux). */
function cpuUs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  // utime and stime are fields 14 and 15 of the line; after "pid (comm) " they are 12 and 13.
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}

const tls = await writeCertificate()
const servers = []
try {
  const upstream = await startServer(upstreamSpec())
  servers.push(upstream)
  let tlsUpstream
  if (positionals.some((id) => TLS_UPSTREAM_SERVERS.has(contender(id).server))) {
    tlsUpstream = await startServer(upstreamSpec(tls.dir))
    servers.push(tlsUpstream)
  }
  const specs = serverSpecs({ upstream: upstream.url, tlsUpstream: tlsUpstream?.url, tlsDir: tls.dir })
  const contenders = await Promise.all(
    positionals.map(async (id, index) => {
      const { server, headers } = contender(id)
      const spec = specs[server]
      if (spec === undefined)
        throw new Error(`${id}: not a single-process proxy (nginx and the backend are not)`)
      if ('skip' in spec) throw new Error(`${id}: ${spec.skip}`)
      const running = await startServer(index === 1 && bRoot !== undefined ? fromCheckout(spec, bRoot) : spec)
      servers.push(running)
      const name = index === 1 && bRoot !== undefined ? `${id} (${bRoot})` : id
      return { id: name, headers, url: `${running.url}/api/items`, pid: running.pid, perRound: [] }
    }),
  )
  const measure = async (entry, warmupMs) => {
    const before = cpuUs(entry.pid)
    const result = await runWrk({
      url: entry.url,
      connections: 50,
      warmupMs: 0,
      durationMs: seconds * 1000,
      headers: entry.headers,
    })
    if (warmupMs > 0) return
    if (result.errors > 0) throw new Error(`${entry.id}: ${result.errors} errors`)
    entry.perRound.push((cpuUs(entry.pid) - before) / result.requests)
  }
  for (const entry of contenders) await measure(entry, 1)
  for (let round = 1; round <= rounds; round++) {
    for (const entry of contenders) await measure(entry, 0)
    console.log(
      `round ${round}: ${contenders.map((e) => `${e.id} ${e.perRound.at(-1).toFixed(1)} µs`).join(', ')}`,
    )
  }
  const [a, b] = contenders
  const ratios = a.perRound.map((value, i) => value / b.perRound[i])
  console.log(
    `median CPU per request: ${a.id} ${median(a.perRound).toFixed(1)} µs, ${b.id} ${median(b.perRound).toFixed(1)} µs; ` +
      `${a.id} ÷ ${b.id} ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
  )
} finally {
  await Promise.all(servers.map((server) => server.stop()))
  tls.remove()
}
