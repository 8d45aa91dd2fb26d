// What the benchmark measures: the server processes, the contenders (a server and the way it is
// called), and the scenarios that call them.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(new URL('.', import.meta.url))
const root = fileURLToPath(new URL('..', import.meta.url))

/** `pnpm test:tools` puts Node 24 here (http-proxy-middleware 4 needs Node >= 22.15). */
export const NODE24 = `${root}.tools/node24/node_modules/.bin/node`

const READY = /^READY (\S+)$/m

/**
 * How to start the backend (`upstream.mjs`), or with `tlsDir` its TLS twin (`--tls`, the run's
 * certificate): the same for `run.mjs` and `cpu-per-request.mjs`.
 * @param {string} [tlsDir]
 */
export function upstreamSpec(tlsDir) {
  return tlsDir === undefined
    ? { name: 'upstream', command: process.execPath, args: [`${here}upstream.mjs`], ready: READY }
    : {
        name: 'upstream-tls',
        command: process.execPath,
        args: [`${here}upstream.mjs`, '--tls'],
        ready: READY,
        env: { BENCH_TLS_DIR: tlsDir },
      }
}
/** `cors-dev-proxy serve` prints Vite's banner: `➜  Local:   http://127.0.0.1:40123/`. */
const SERVE_READY = /Local:\s+(https?:\/\/\S+?)\/?\s/

/**
 * How to start each server process, given the upstream's URL, its TLS twin's (`upstream.mjs
 * --tls`, started only when a contender needs it) and the TLS files for Vite.
 * A server that cannot run on this machine is `{ skip: reason }`; `nginx` is started by nginx.mjs.
 * @param {{ upstream: string, tlsUpstream: string | undefined, tlsDir: string }} context
 */
export function serverSpecs({ upstream, tlsUpstream, tlsDir }) {
  const contender = (name, command = process.execPath, target = upstream, script = name) => ({
    name,
    command,
    args: [`${here}contender.mjs`, script, target],
    ready: READY,
    env: { BENCH_TLS_DIR: tlsDir },
  })
  const serve = (name, extra) => ({
    name,
    command: process.execPath,
    args: [
      `${root}packages/cli/dist/bin.js`,
      'serve',
      '--port',
      '0',
      '--config',
      `${here}fixtures/serve.config.mjs`,
      ...extra,
    ],
    ready: SERVE_READY,
    env: { BENCH_UPSTREAM: upstream },
  })
  return {
    'ours-node': contender('ours-node'),
    // The same engine on Node 24, the runtime http-proxy-middleware 4 needs: compared on equal terms.
    'ours-node24': existsSync(NODE24)
      ? contender('ours-node24', NODE24, upstream, 'ours-node')
      : { skip: `needs Node 24 in ${NODE24} (pnpm test:tools installs it)` },
    'ours-fetch': contender('ours-fetch'),
    'ours-fetch-bare': contender('ours-fetch-bare'),
    'ours-hooked': contender('ours-hooked'),
    'ours-transform': contender('ours-transform'),
    'ours-record': contender('ours-record'),
    'ours-replay': contender('ours-replay'),
    'ours-record-missing': contender('ours-record-missing'),
    'ours-openapi': contender('ours-openapi'),
    'ours-cors': contender('ours-cors'),
    'ours-vite': contender('ours-vite'),
    'ours-vite-h2': contender('ours-vite-h2'),
    'ours-wds': contender('ours-wds'),
    'ours-serve': serve('ours-serve', []),
    'ours-serve-h2': serve('ours-serve-h2', ['--https']),
    'node-preflight': contender('node-preflight'),
    'ours-tls-h1': contender('ours-tls-h1', process.execPath, tlsUpstream),
    'ours-tls-h2': contender('ours-tls-h2', process.execPath, tlsUpstream),
    'undici-request': contender('undici-request'),
    'undici-dispatch': contender('undici-dispatch'),
    'undici-dispatch-xfwd': contender('undici-dispatch-xfwd'),
    'undici-dispatch-h2': contender('undici-dispatch-h2', process.execPath, tlsUpstream),
    'vite-proxy': contender('vite-proxy'),
    'vite-proxy-h2': contender('vite-proxy-h2'),
    'wds-proxy': contender('wds-proxy'),
    hpm3: contender('hpm3'),
    hpm4: existsSync(NODE24)
      ? contender('hpm4', NODE24)
      : { skip: `needs Node 24 in ${NODE24} (pnpm test:tools installs it)` },
  }
}

const ORIGIN = 'Origin: http://localhost:5173'
const PREFLIGHT = `${ORIGIN}|Access-Control-Request-Method: PUT|Access-Control-Request-Headers: content-type,x-requested-with`

/**
 * A contender: a server and how it is called. `prefix` is the proxy's route (`/api`; `/ws` for
 * WebSockets), empty for the backend itself.
 * @typedef {object} Contender
 * @property {string} id
 * @property {string} label what the tables show
 * @property {string} server a key of `serverSpecs`, `upstream` or `nginx`
 * @property {'ours' | 'limit' | 'alternative' | 'reference'} group
 * @property {string} [method]
 * @property {string} [headers] `Name: value|Name: value`
 */

/** @type {Record<string, Omit<Contender, 'id'>>} */
const CONTENDERS = {
  backend: { label: 'backend directly (no proxy)', server: 'upstream', group: 'reference' },
  'ours-node': { label: 'cors-dev-proxy on node:http', server: 'ours-node', group: 'ours' },
  'ours-vite': { label: 'cors-dev-proxy, Vite 8 plugin', server: 'ours-vite', group: 'ours' },
  'ours-wds': { label: 'cors-dev-proxy, webpack-dev-server 5 adapter', server: 'ours-wds', group: 'ours' },
  'ours-serve': { label: 'cors-dev-proxy serve', server: 'ours-serve', group: 'ours' },
  'ours-node24': { label: 'cors-dev-proxy on node:http (Node 24)', server: 'ours-node24', group: 'ours' },
  'ours-fetch': {
    label: 'cors-dev-proxy Fetch handler on Node, behind @hono/node-server',
    server: 'ours-fetch',
    group: 'ours',
  },
  'ours-fetch-bare': {
    label: 'cors-dev-proxy Fetch handler on Node, inspector off (what ours-node leaves out)',
    server: 'ours-fetch-bare',
    group: 'ours',
  },
  'ours-hooked': {
    label: 'cors-dev-proxy, a no-op `on.proxyRes` hook',
    server: 'ours-hooked',
    group: 'ours',
  },
  'ours-transform': {
    label: 'cors-dev-proxy, `transformResponse: (body) => body`',
    server: 'ours-transform',
    group: 'ours',
  },
  'ours-record': { label: 'cors-dev-proxy, `record: true`', server: 'ours-record', group: 'ours' },
  'ours-replay': {
    label: "cors-dev-proxy, `replay: 'only'` (answered from the recording)",
    server: 'ours-replay',
    group: 'ours',
  },
  'ours-record-missing': {
    label: "cors-dev-proxy, `record: 'missing'`, the call recorded already",
    server: 'ours-record-missing',
    group: 'ours',
  },
  'ours-openapi': {
    label: 'cors-dev-proxy, `openapi` on the route (the answer keeps the document)',
    server: 'ours-openapi',
    group: 'ours',
  },
  'ours-cors': { label: 'cors-dev-proxy, `cors` route, no Origin', server: 'ours-cors', group: 'ours' },
  'ours-cors-origin': {
    label: 'cors-dev-proxy, `cors` route, with Origin',
    server: 'ours-cors',
    group: 'ours',
    headers: ORIGIN,
  },
  'undici-request': { label: 'minimal undici `request()` proxy', server: 'undici-request', group: 'limit' },
  'undici-dispatch': {
    label: 'minimal undici `dispatch()` proxy',
    server: 'undici-dispatch',
    group: 'limit',
  },
  'undici-dispatch-xfwd': {
    label: 'minimal undici `dispatch()` proxy writing `X-Forwarded-*` and `X-Real-IP`',
    server: 'undici-dispatch-xfwd',
    group: 'limit',
  },
  'undici-dispatch-h2': {
    label: 'minimal undici `dispatch()` proxy, HTTP/2 to the https target',
    server: 'undici-dispatch-h2',
    group: 'limit',
  },
  'vite-proxy': { label: 'Vite 8 `server.proxy` (http-proxy-3)', server: 'vite-proxy', group: 'alternative' },
  'wds-proxy': {
    label: 'webpack-dev-server 5 `proxy` (http-proxy-middleware 2)',
    server: 'wds-proxy',
    group: 'alternative',
  },
  hpm3: { label: 'http-proxy-middleware 3 on node:http', server: 'hpm3', group: 'alternative' },
  hpm4: { label: 'http-proxy-middleware 4 on node:http (Node 24)', server: 'hpm4', group: 'alternative' },
  nginx: { label: 'nginx, one worker, upstream keep-alive', server: 'nginx', group: 'reference' },
  'ours-preflight': {
    label: 'cors-dev-proxy, preflight answered locally',
    server: 'ours-cors',
    group: 'ours',
    method: 'OPTIONS',
    headers: PREFLIGHT,
  },
  'node-preflight': {
    label: 'bare node:http writing the same 204',
    server: 'node-preflight',
    group: 'reference',
    method: 'OPTIONS',
    headers: PREFLIGHT,
  },
  'ours-vite-h2': {
    label: 'cors-dev-proxy, Vite 8 plugin, `server.https`',
    server: 'ours-vite-h2',
    group: 'ours',
  },
  'vite-proxy-h2': {
    label: 'Vite 8 `server.proxy`, `server.https`',
    server: 'vite-proxy-h2',
    group: 'alternative',
  },
  'ours-serve-h2': { label: 'cors-dev-proxy serve --https', server: 'ours-serve-h2', group: 'ours' },
  'ours-tls-h1': {
    label: 'cors-dev-proxy to an https target, HTTP/1.1 (default)',
    server: 'ours-tls-h1',
    group: 'ours',
  },
  'ours-tls-h2': {
    label: 'cors-dev-proxy to an https target, `http2: true`',
    server: 'ours-tls-h2',
    group: 'ours',
  },
}

/** The servers that forward to the upstream's TLS twin (`upstream.mjs --tls`). */
export const TLS_UPSTREAM_SERVERS = new Set(['ours-tls-h1', 'ours-tls-h2', 'undici-dispatch-h2'])

/** @param {string} id */
export function contender(id) {
  const entry = CONTENDERS[id]
  if (!entry) throw new Error(`unknown contender ${id}`)
  return { id, ...entry }
}

const SMALL_GET = [
  'backend',
  'ours-node',
  'ours-node24',
  'ours-vite',
  'ours-wds',
  'ours-serve',
  'ours-cors',
  'ours-cors-origin',
  'ours-hooked',
  'ours-transform',
  'ours-fetch',
  'ours-fetch-bare',
  'undici-request',
  'undici-dispatch',
  'undici-dispatch-xfwd',
  'vite-proxy',
  'wds-proxy',
  'hpm3',
  'hpm4',
  'nginx',
]
/** The contenders that differ from `ours-node` only in what a small GET shows. */
const VARIANTS = new Set([
  'ours-fetch',
  'ours-fetch-bare',
  'ours-cors',
  'ours-cors-origin',
  'ours-hooked',
  'ours-transform',
  'ours-node24',
  'undici-dispatch-xfwd',
])
const FORWARDERS = SMALL_GET.filter((id) => !VARIANTS.has(id))
const MIB = 1024 * 1024

/**
 * A scenario: what is asked, of whom, with which tool. `seconds` and `warmup` scale the run's
 * `--seconds` and `--warmup`; the ratios a table shows are against the contenders of `versus`.
 * @typedef {object} Scenario
 * @property {string} id
 * @property {string} title
 * @property {'wrk' | 'h2load' | 'clients' | 'browser'} tool
 * @property {string[]} contenders
 * @property {string} [path] after the contender's prefix
 * @property {number} [connections]
 * @property {number} [bodyBytes]
 * @property {string} [method] the request method, for every contender (else the contender's, else GET)
 * @property {number} [seconds]
 * @property {number} [warmup]
 * @property {string} [partner] loaded at the same time as each contender, by a wrk of its own
 */

/** @type {Scenario[]} */
export const SCENARIOS = [
  {
    id: 'get',
    title: 'Small GET (63-byte JSON), 50 connections',
    tool: 'wrk',
    connections: 50,
    path: '/items',
    contenders: SMALL_GET,
  },
  {
    // The small GET again, each contender loaded at the same time as `partner`, each by its own
    // wrk: whatever else the machine runs weighs on both alike, so the per-round ratio of two
    // front ends of the same engine holds steadier than between runs seconds apart.
    id: 'get-paired',
    title: 'Small GET, 50 connections each, loaded at the same time as cors-dev-proxy on node:http',
    tool: 'wrk',
    connections: 50,
    path: '/items',
    partner: 'ours-node',
    contenders: ['ours-fetch', 'ours-fetch-bare', 'ours-vite'],
    seconds: 3,
  },
  {
    id: 'preflight',
    title: 'Preflight (OPTIONS), 50 connections',
    tool: 'wrk',
    connections: 50,
    path: '/items',
    contenders: ['ours-preflight', 'node-preflight'],
  },
  {
    id: 'latency',
    title: 'Small GET, 1 connection (latency)',
    tool: 'wrk',
    connections: 1,
    path: '/items',
    contenders: SMALL_GET,
    seconds: 0.6,
    warmup: 0.5,
  },
  {
    id: 'download',
    title: '1 MiB download, 4 connections',
    tool: 'wrk',
    connections: 4,
    path: `/bytes?n=${MIB}`,
    contenders: FORWARDERS,
    seconds: 0.5,
    warmup: 0.5,
  },
  {
    id: 'upload',
    title: '1 MiB upload, 4 connections',
    tool: 'wrk',
    connections: 4,
    path: '/sink',
    method: 'POST',
    bodyBytes: MIB,
    contenders: FORWARDERS,
    seconds: 0.5,
    warmup: 0.5,
  },
  {
    id: 'h2',
    title: 'Small GET over HTTP/2 (h2load, 10 connections × 5 streams)',
    tool: 'h2load',
    connections: 10,
    path: '/items',
    contenders: ['ours-vite-h2', 'vite-proxy-h2', 'ours-serve-h2'],
  },
  {
    id: 'upstream-h2',
    title: 'Small GET to an https target: HTTP/1.1 or HTTP/2 (`http2: true`) upstream, 50 connections',
    tool: 'wrk',
    connections: 50,
    path: '/items',
    contenders: ['ours-tls-h1', 'ours-tls-h2', 'undici-dispatch-h2'],
  },
  {
    id: 'upstream-h2-100',
    title: 'Small GET to an https target, 100 connections: HTTP/1.1 or HTTP/2 (`http2: true`) upstream',
    tool: 'wrk',
    connections: 100,
    path: '/items',
    contenders: ['ours-tls-h1', 'ours-tls-h2', 'undici-dispatch-h2'],
  },
  {
    id: 'upstream-h2-download',
    title: '1 MiB download from an https target: HTTP/1.1 or HTTP/2 upstream, 4 connections',
    tool: 'wrk',
    connections: 4,
    path: `/bytes?n=${MIB}`,
    contenders: ['ours-tls-h1', 'ours-tls-h2'],
    seconds: 0.5,
    warmup: 0.5,
  },
  {
    id: 'sse',
    title: 'Event stream, one connection',
    tool: 'clients',
    contenders: FORWARDERS,
  },
  {
    id: 'ws',
    title: 'WebSocket echo, one connection',
    tool: 'clients',
    contenders: FORWARDERS.filter((id) => !id.startsWith('undici')),
  },
  {
    id: 'browser',
    title: 'Headless Chromium, 100 parallel fetches through the dev server',
    tool: 'browser',
    contenders: ['ours-vite', 'ours-vite-h2', 'vite-proxy', 'vite-proxy-h2', 'ours-serve', 'ours-serve-h2'],
  },
]

/** The 1 GiB transfers (once each, not in rounds): every Node proxy whose memory can be watched. */
export const MEMORY_CONTENDERS = FORWARDERS.filter((id) => id !== 'backend' && id !== 'nginx')
