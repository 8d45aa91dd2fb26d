// `pnpm bench`: throughput and p99 latency of a small proxied GET at 50 connections, and of a
// locally answered preflight, for cors-dev-proxy and the tools it replaces, in one run on one
// machine. Numbers are reported as ratios against each other, never asserted in tests.
import { spawn, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { startNginx } from './nginx.mjs'

const here = new URL('.', import.meta.url).pathname
const seconds = Number(process.env.BENCH_SECONDS ?? 8)
const connections = 50

if (spawnSync('wrk', ['--version']).error) {
  console.error('pnpm bench needs wrk: apt-get install -y wrk')
  process.exit(2)
}

/** Spawns `node <script> ...args` and resolves once it prints `READY <url>`. */
function startProcess(args) {
  const child = spawn(process.execPath, args, { cwd: here, stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
      const match = /READY (\S+)/.exec(out)
      if (match) resolve({ url: match[1], stop: () => child.kill('SIGTERM') })
    })
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)))
  })
}

/** Runs wrk and returns requests per second and the p99 latency in ms. */
function wrk(url, script) {
  const args = [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '--latency',
    ...(script ? ['-s', script] : []),
    url,
  ]
  spawnSync('wrk', ['-t1', `-c${connections}`, '-d1s', ...(script ? ['-s', script] : []), url]) // warm-up
  const { stdout } = spawnSync('wrk', args, { encoding: 'utf8' })
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? Number.NaN)
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(stdout)
  const scale = { us: 0.001, ms: 1, s: 1000 }
  const errors = /Non-2xx or 3xx responses: (\d+)|Socket errors: (.*)/.exec(stdout)?.[0]
  return { rps, p99: p99 ? Number(p99[1]) * scale[p99[2]] : Number.NaN, errors }
}

const upstream = await startProcess(['upstream.mjs'])
const results = {}
try {
  for (const name of ['cors-dev-proxy', 'vite8-proxy', 'http-proxy-middleware']) {
    const contender = await startProcess(['contender.mjs', name, upstream.url])
    results[name] = wrk(`${contender.url}/api/items`)
    contender.stop()
  }
  const nginx = await startNginx(upstream.url)
  results.nginx = wrk(`${nginx.url}/api/items`)
  nginx.stop()
  for (const name of ['cors-dev-proxy-preflight', 'node-preflight']) {
    const contender = await startProcess(['contender.mjs', name, upstream.url])
    results[name] = wrk(`${contender.url}/api/items`, `${here}preflight.lua`)
    contender.stop()
  }
} finally {
  upstream.stop()
}

const ours = results['cors-dev-proxy']
const ratio = (a, b) => (a / b).toFixed(2)
console.log(
  `\nProxied GET, ${connections} connections, ${seconds} s each (wrk, loopback, Node ${process.version})`,
)
console.log('| contender | req/s | p99 ms | cors-dev-proxy is |')
console.log('|---|---:|---:|---:|')
for (const [name, r] of Object.entries(results)) {
  if (name.includes('preflight')) continue
  const vs = name === 'cors-dev-proxy' ? '' : `${ratio(ours.rps, r.rps)}x`
  console.log(
    `| ${name} | ${r.rps.toFixed(0)} | ${r.p99.toFixed(2)} | ${vs} |${r.errors ? ` ${r.errors}` : ''}`,
  )
}
const pre = results['cors-dev-proxy-preflight']
const bare = results['node-preflight']
console.log(
  `\nPreflight answered locally: ${pre.rps.toFixed(0)} req/s vs a bare Node server ${bare.rps.toFixed(0)} req/s = ${ratio(pre.rps, bare.rps)}x (p99 ${pre.p99.toFixed(2)} ms)`,
)
writeFileSync(
  `${here}results.json`,
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, seconds, connections, results }, null, 2)}\n`,
)
