// `pnpm bench`: cors-dev-proxy against the Node limit and the tools it replaces, in one run on one
// machine, measured so that close contenders can be told apart. See bench/README.md.
//
//   node bench/run.mjs [--quick] [--rounds N] [--seconds S] [--warmup S] [--only a,b] [--out FILE]
//
// Every contender runs in a process of its own, all against one upstream (its own process), all
// started before the first measurement. Then, round after round, every scenario measures every
// one of its contenders in turn (A B C … A B C …), each run a fixed time after a warm-up of its
// own. A ratio between two contenders is taken within each round, and the tables show the median
// of those per-round ratios with their spread: a slow minute on a shared machine slows both sides
// of a ratio, and only moves its spread. Results go to bench/results.json and a Markdown table.
//
// `--quick` (on CI, after `pnpm test`) runs one short round of everything and fails when a contender
// does not start, answers an error or fails a check; it asserts nothing about speed.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { launchBrowser } from './browser.mjs'
import {
  contender,
  MEMORY_CONTENDERS,
  NODE24,
  SCENARIOS,
  serverSpecs,
  TLS_UPSTREAM_SERVERS,
  upstreamSpec,
} from './contenders.mjs'
import { runH2load } from './h2load.mjs'
import { measureLab } from './lab.mjs'
import { loadAverage, machine, versions } from './machine.mjs'
import { measureMemory } from './memory.mjs'
import { startNginx } from './nginx.mjs'
import { serverCpuUs } from './process-cpu.mjs'
import { runTool, startServer } from './processes.mjs'
import { formatResults, renderReport, summarize } from './report.mjs'
import { writeCertificate } from './tls.mjs'
import { runWrk } from './wrk.mjs'

const here = fileURLToPath(new URL('.', import.meta.url))

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    warmup: { type: 'string' },
    only: { type: 'string' },
    out: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
})
if (flags.help) {
  console.log(`node bench/run.mjs [options]
  --quick          one short round of everything (about 1 s per contender): a smoke test
  --rounds N       interleaved rounds (default 7; quick 1)
  --seconds S      measured seconds of one small-GET run; other scenarios scale it (default 1; quick 0.3)
  --warmup S       warm-up seconds before each run (default 0.4; quick 0: none)
  --only IDS       only these scenarios: ${SCENARIOS.map((s) => s.id).join(', ')}, memory, lab
                   (lab: the protocol lab, in headless Chromium; --only lab alone updates the
                   \`lab\` entry of the results file and keeps the rest)
  --out FILE       where to write the results (default bench/results.json; quick bench/results.quick.json)`)
  process.exit(0)
}

const quick = flags.quick
const settings = {
  quick,
  rounds: Number(flags.rounds ?? (quick ? 1 : 7)),
  seconds: Number(flags.seconds ?? (quick ? 0.3 : 1)),
  warmup: Number(flags.warmup ?? (quick ? 0 : 0.4)),
  /** A discarded first round, so that every contender is warm (JIT, pools) before round 1. */
  warmupRound: !quick,
  sse: quick ? { events: 10, everyMs: 5 } : { events: 40, everyMs: 5 },
  ws: { messages: quick ? 100 : 500 },
  browser: { count: 100, delaysMs: quick ? [20] : [0, 20] },
  memory: { warmupBytes: quick ? 0 : 64 * 2 ** 20, bytes: quick ? 8 * 2 ** 20 : 2 ** 30 },
}
const only = flags.only?.split(',')
const known = [...SCENARIOS.map((s) => s.id), 'memory', 'lab']
const unknown = only?.filter((id) => !known.includes(id)) ?? []
if (unknown.length > 0) {
  console.error(`unknown scenario ${unknown.join(', ')}: --only takes ${known.join(', ')}`)
  process.exit(2)
}
const scenarios = SCENARIOS.filter((s) => !only || only.includes(s.id))
const withMemory = !only || only.includes('memory')
const out = flags.out ?? `${here}${quick ? 'results.quick.json' : 'results.json'}`
// The lab takes minutes at full size: a full run includes it, the quick run (pnpm test, which
// runs the lab once in its own test) does not.
const withLab = only ? only.includes('lab') : !quick

if (only?.length === 1 && only[0] === 'lab') {
  // The lab alone: its entry replaces the one in the results file, every other entry stays.
  const previous = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {}
  const lab = await measureLab({ quick })
  writeFileSync(out, `${formatResults({ ...previous, lab })}\n`)
  console.log(`\nWrote lab to ${out}.`)
  for (const { experiment, reason } of lab.skipped) console.log(`  lab skipped ${experiment}: ${reason}`)
  process.exit(lab.loss.some((row) => row.medianMs === null) ? 1 : 0)
}

for (const [tool, hint] of [
  ['wrk', 'apt-get install -y wrk'],
  ['h2load', 'apt-get install -y nghttp2-client'],
]) {
  if ((await runTool(tool, ['--version']).catch(() => undefined)) === undefined) {
    console.error(`pnpm bench needs ${tool}: ${hint} (pnpm test:tools does it as root)`)
    process.exit(2)
  }
}

/** Everything that went wrong; any entry makes the run exit 1. */
const problems = []
const problem = (where, message) => {
  problems.push({ where, message })
  console.error(`  ✗ ${where}: ${message}`)
}

const startedAt = Date.now()
/** Seconds spent per phase (server start-up, each scenario), to keep the quick run quick. */
const timings = {}
const timed = async (name, work) => {
  const started = performance.now()
  try {
    return await work()
  } finally {
    timings[name] = Math.round(((timings[name] ?? 0) + (performance.now() - started) / 1000) * 10) / 10
  }
}
const results = {
  date: new Date().toISOString(),
  settings,
  machine: machine(),
  load: { before: loadAverage(), perRound: [], after: undefined },
  versions: undefined,
  skipped: {},
  scenarios: {},
  memory: {},
  problems,
}

// ---- the servers ----------------------------------------------------------------------------
const running = new Map()
const stopAll = () => Promise.all([...running.values()].map((server) => server.stop()))
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stopAll().then(() => process.exit(130)))

const tls = await writeCertificate()
const wanted = new Set(
  [
    ...scenarios.flatMap((s) => [...s.contenders, ...(s.partner ? [s.partner] : [])]),
    ...(withMemory ? MEMORY_CONTENDERS : []),
  ].map((id) => contender(id).server),
)
console.log(`Starting ${wanted.size} servers (each a process of its own) ...`)
const serversStarted = performance.now()
const upstream = await startServer(upstreamSpec())
running.set('upstream', upstream)
let tlsUpstream
if ([...wanted].some((name) => TLS_UPSTREAM_SERVERS.has(name))) {
  tlsUpstream = await startServer(upstreamSpec(tls.dir))
  running.set('upstream-tls', tlsUpstream)
}
const specs = serverSpecs({ upstream: upstream.url, tlsUpstream: tlsUpstream?.url, tlsDir: tls.dir })
await Promise.all(
  [...wanted].map(async (name) => {
    if (name === 'upstream') return
    if (name === 'nginx') {
      if ((await runTool('nginx', ['-v']).catch(() => undefined)) === undefined) {
        results.skipped.nginx = 'nginx is not installed (apt-get install -y nginx)'
        return
      }
      running.set(name, await startNginx(upstream.url))
      return
    }
    const spec = specs[name]
    if ('skip' in spec) {
      results.skipped[name] = spec.skip
      return
    }
    try {
      running.set(name, await startServer(spec))
    } catch (error) {
      problem(name, `did not start: ${error.message}`)
    }
  }),
)
for (const [name, reason] of Object.entries(results.skipped)) {
  // Under CI nothing is skipped for want of a tool: pnpm test:tools installs them all.
  if (process.env.CI !== undefined && !['', '0', 'false'].includes(process.env.CI))
    problem(name, `cannot run: ${reason}`)
  else console.log(`  skipped ${name}: ${reason}`)
}
timings.start = Math.round((performance.now() - serversStarted) / 100) / 10
const isRunning = (id) => running.has(contender(id).server)
for (const scenario of scenarios) {
  const entries = scenario.contenders
    .filter(isRunning)
    .map((id) => [id, { label: contender(id).label, group: contender(id).group, rounds: [] }])
  results.scenarios[scenario.id] = {
    title: scenario.title,
    tool: scenario.tool,
    contenders: Object.fromEntries(entries),
  }
}

// ---- one measurement --------------------------------------------------------------------------
const ms = (seconds) => Math.round(seconds * 1000)
const urlOf = (id, path, kind) => {
  const base = running.get(contender(id).server).url
  const prefix = id === 'backend' ? '' : kind === 'ws' ? '/socket' : '/api'
  return `${kind === 'ws' ? base.replace(/^http/, 'ws') : base}${prefix}${path}`
}

/** Measures `id` in a wrk or h2load scenario; `warm` runs it as warm-up only. */
async function measureLoad(scenario, id, { warm = false, retry = false } = {}) {
  const { headers } = contender(id)
  // An upload is a POST: undici closes the connection after a GET that carries a body (a GET
  // "does not expect" one), so a GET upload would measure a new connection per request.
  const method = scenario.method ?? contender(id).method
  // The warm-up round: one run of half a second, its result dropped.
  const warmupMs = warm ? 0 : ms(settings.warmup * (scenario.warmup ?? 1))
  const durationMs = warm ? 500 : retry ? 5000 : ms(settings.seconds * (scenario.seconds ?? 1))
  const url = urlOf(id, scenario.path)
  const pid = running.get(contender(id).server)?.pid
  const cpu = pid === undefined ? undefined : () => serverCpuUs(pid)
  if (scenario.tool === 'h2load') {
    const result = await runH2load({
      url,
      clients: scenario.connections,
      streams: 5,
      warmupMs,
      durationMs,
      cpu,
    })
    if (result.protocol !== 'h2')
      problem(`${scenario.id} ${id}`, `h2load negotiated ${result.protocol}, not h2`)
    return result
  }
  const result = await runWrk({
    url,
    connections: scenario.connections,
    warmupMs,
    durationMs,
    method,
    headers,
    bodyBytes: scenario.bodyBytes,
    cpu,
  })
  const transferBytes = scenario.bodyBytes ?? Number(/[?&]n=(\d+)/.exec(scenario.path)?.[1] ?? 0)
  if (transferBytes > 0) result.mbps = (result.rps * transferBytes) / 2 ** 20
  return result
}

/**
 * `id` and the scenario's partner loaded at the same time, each by its own wrk: the contender's
 * result, with the partner's beside it (`partner`) and the two ratios of the round.
 */
async function measurePaired(scenario, id, warm) {
  const failed = (error) => ({ error: error.message })
  const [mine, theirs] = await Promise.all([
    measureLoad(scenario, id, { warm }).catch(failed),
    measureLoad(scenario, scenario.partner, { warm }).catch(failed),
  ])
  if (mine.error !== undefined) return mine
  if (theirs.error !== undefined) return { error: `${scenario.partner}, loaded beside it: ${theirs.error}` }
  if (!warm && theirs.errors > 0)
    problem(
      `${scenario.id} ${scenario.partner}`,
      `${theirs.errors} errors beside ${id}: ${JSON.stringify(theirs.errorKinds)}`,
    )
  const partner = { rps: theirs.rps, cpuUsPerRequest: theirs.cpuUsPerRequest, errors: theirs.errors }
  return {
    ...mine,
    partner,
    rpsRatio: mine.rps / theirs.rps,
    cpuRatio: mine.cpuUsPerRequest / theirs.cpuUsPerRequest,
  }
}

/** One client process for all contenders of an `sse` or `ws` scenario, in order. */
async function measureClients(scenario, ids) {
  const jobs = ids.map((id) =>
    scenario.id === 'sse'
      ? {
          kind: 'sse',
          url: urlOf(id, `/events?n=${settings.sse.events}&every=${settings.sse.everyMs}`),
          events: settings.sse.events,
        }
      : {
          kind: 'ws',
          url: urlOf(id, '/echo', 'ws'),
          origin: running.get(contender(id).server).url,
          messages: settings.ws.messages,
        },
  )
  const { stdout, stderr } = await runTool(process.execPath, [`${here}clients.mjs`, JSON.stringify(jobs)])
  const line = /^BENCH-RESULT (.*)$/m.exec(stdout)
  if (!line) throw new Error(`clients.mjs printed no result:\n${stdout}${stderr}`)
  return JSON.parse(line[1])
}

let browser
const pages = new Map()
async function measureBrowser(id) {
  browser ??= await launchBrowser()
  if (!pages.has(id)) pages.set(id, await browser.open(running.get(contender(id).server).url))
  const page = pages.get(id)
  const result = {}
  for (const delayMs of settings.browser.delaysMs) {
    const burst = await page.burst({ count: settings.browser.count, delayMs })
    const expected = id.endsWith('-h2') ? 'h2' : 'http/1.1'
    if (burst.failed > 0)
      problem(`browser ${id}`, `${burst.failed} of ${settings.browser.count} fetches failed`)
    if (burst.protocols.join() !== expected)
      problem(`browser ${id}`, `Chromium used ${burst.protocols.join(', ')}, expected ${expected}`)
    result[`ms${delayMs}`] = burst.ms
    result.protocol = burst.protocols.join(', ')
  }
  return result
}

/** Records one result, or the problem: errors in a run are failures, whoever answered them. */
function record(scenario, id, round, result) {
  // The kinds of errors only where there were some: results.json stays small enough to commit.
  if (result.errors === 0) delete result.errorKinds
  results.scenarios[scenario.id].contenders[id].rounds[round] = result
  if (result.error) problem(`${scenario.id} ${id}`, result.error)
  else if (result.errors > 0)
    problem(
      `${scenario.id} ${id}`,
      `${result.errors} errors in round ${round + 1}: ${JSON.stringify(result.errorKinds)}`,
    )
  else if (result.requests === 0) problem(`${scenario.id} ${id}`, `no request answered in round ${round + 1}`)
}

async function runRound(round, { warm = false } = {}) {
  for (const scenario of scenarios) await timed(scenario.id, () => runScenario(scenario, round, warm))
}

/** One scenario of one round: each contender in turn. `warm` runs the load tools only, unrecorded. */
async function runScenario(scenario, round, warm) {
  const ids = scenario.contenders.filter(isRunning)
  const failed = (error) => ({ error: error.message })
  if (scenario.partner !== undefined) {
    if (!isRunning(scenario.partner)) return
    for (const id of ids) {
      const result = await measurePaired(scenario, id, warm)
      if (!warm || result.error) record(scenario, id, round, result)
    }
  } else if (scenario.tool === 'wrk' || scenario.tool === 'h2load') {
    // The one-connection runs go through the same code as the 50-connection ones.
    if (warm && scenario.connections === 1) return
    for (const id of ids) {
      let result = await measureLoad(scenario, id, { warm }).catch(failed)
      // The smoke run's runs are a fraction of a second: on a loaded machine a contender may not
      // finish one request in that time, or h2load prints nothing. Asked once more, for five
      // seconds (a cold TLS and HTTP/2 session for 50 connections took over a second beside a
      // second CI run), before it counts as broken: a broken contender fails again, a slow
      // machine does not.
      if (quick && !warm && (result.error !== undefined || result.requests === 0)) {
        result = await measureLoad(scenario, id, { retry: true }).catch(failed)
      }
      if (!warm || result.error) record(scenario, id, round, result)
    }
  } else if (warm) {
    // The clients and the browser open their own connections, on code the load runs warmed.
  } else if (scenario.tool === 'clients') {
    const answers = await measureClients(scenario, ids).catch((error) => ids.map(() => failed(error)))
    for (const [i, id] of ids.entries()) record(scenario, id, round, answers[i])
  } else {
    for (const id of ids) record(scenario, id, round, await measureBrowser(id).catch(failed))
  }
}

// ---- the run -----------------------------------------------------------------------------------
try {
  if (settings.warmupRound) {
    console.log('Warm-up round (not recorded) ...')
    await runRound(0, { warm: true })
  }
  for (let round = 0; round < settings.rounds; round++) {
    results.load.perRound.push(loadAverage()[0])
    const elapsed = Math.round((Date.now() - startedAt) / 1000)
    console.log(`Round ${round + 1} of ${settings.rounds} (${elapsed} s, load ${loadAverage()[0]}) ...`)
    await runRound(round)
  }
  if (withMemory) await timed('memory', measureAllMemory)
  if (withLab) results.lab = await timed('lab', () => measureLab({ quick }))
} finally {
  await browser?.close()
  await stopAll()
  tls.remove()
}

/** The large transfers, once per proxy and direction, outside the rounds. */
async function measureAllMemory() {
  const ids = MEMORY_CONTENDERS.filter(isRunning)
  const { bytes, warmupBytes } = settings.memory
  console.log(`${bytes / 2 ** 20} MiB each way through ${ids.length} proxies (resident memory) ...`)
  for (const id of ids) {
    const entry = { label: contender(id).label }
    results.memory[id] = entry
    for (const direction of ['upload', 'download']) {
      const path = (n) => (direction === 'upload' ? '/sink' : `/bytes?n=${n}`)
      entry[direction] = await measureMemory({
        pid: running.get(contender(id).server).pid,
        client: `${here}clients.mjs`,
        warmup: { kind: direction, url: urlOf(id, path(warmupBytes)), bytes: warmupBytes },
        job: { kind: direction, url: urlOf(id, path(bytes)), bytes },
      }).catch((error) => ({ error: error.message }))
      if (entry[direction].error) problem(`memory ${id} ${direction}`, entry[direction].error)
    }
  }
}

results.load.after = loadAverage()
results.durationSeconds = Math.round((Date.now() - startedAt) / 1000)
results.timings = timings
results.versions = versions({
  node24: isRunning('hpm4') ? (await runTool(NODE24, ['--version'])).stdout.trim() : undefined,
  chromium: browser?.version,
})
results.summary = summarize(results)
writeFileSync(out, `${formatResults(results)}\n`)
console.log(`\n${renderReport(results)}`)
console.log(`\nWrote ${out} (${results.durationSeconds} s: ${JSON.stringify(timings)}).`)
if (problems.length > 0) {
  console.error(`\n${problems.length} problem(s):`)
  for (const { where, message } of problems) console.error(`  ${where}: ${message}`)
  process.exit(1)
}
