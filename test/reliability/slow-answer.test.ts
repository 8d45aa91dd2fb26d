import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { angularProxy } from '@cors-dev-proxy/angular'
import { createFetchHandler, type LogSink, type Routes } from '@cors-dev-proxy/core'
import { createNextProxy, createNextServer, type NextFactory } from '@cors-dev-proxy/next'
import { getRequestListener } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startNgServeVite } from '../../packages/angular/test/ng-serve-vite.js'
import { startRsbuild } from '../adapters/rsbuild-server.js'
import { captureLogSink, collectBody, listen, openRequest, type StartedServer } from '../support/servers.js'
import { type FrontEnd, startFrontEnd } from './harness/front-ends.js'

/*
 * P21's acceptance: with the default options, an answer that starts after 70 s (a report export,
 * a long completion, a backend paused at a breakpoint) reaches the client through every front end,
 * as it does through Vite's, Angular's, webpack-dev-server's and http-proxy-middleware's own
 * proxies. Before, the route's default `timeout` of 30 s answered 504. Every front end is started
 * at once and waits for its answer beside the others, so the file takes one wait, not one per
 * front end. 70 s is also past undici's 60 s default of a few timers and node:http's 60 s
 * `headersTimeout`, which a front end could have inherited.
 *
 * Next itself is not installed in this workspace (the framework suite runs the real `next dev`):
 * the custom server runs with a stand-in for `next()`, and `proxy.ts`'s handler behind a plain
 * node:http server. Nuxt is left to the framework suite: its module needs a real Nuxt build.
 */

/** How long the backend keeps the request before the answer's head. */
const SLOW_MS = 70_000
/** The inspector's replay of an exchange that now takes this long: past the replay's old 30 s limit. */
const REPLAY_SLOW_MS = 40_000
/** The whole test: one wait of 70 s, with room for a loaded two-core machine. */
const TEST_MS = 150_000

/** The default options: only a silent logger where the front end takes one (its lines are kept). */
const sink = captureLogSink()

let backend: StartedServer<Server>
/** Calls of `/flip` so far: the first is answered at once, the next ones after REPLAY_SLOW_MS. */
let flips = 0
const pending = new Set<NodeJS.Timeout>()

/** Answers every request after SLOW_MS with what it received; `/flip` as above. */
function slowBackend(req: IncomingMessage, res: ServerResponse): void {
  const arrived = Date.now()
  const chunks: Buffer[] = []
  req.on('data', (chunk: Buffer) => chunks.push(chunk))
  req.on('end', () => {
    const isFlip = req.url?.endsWith('/flip') === true
    const wait = isFlip ? (flips++ === 0 ? 0 : REPLAY_SLOW_MS) : SLOW_MS
    const timer = setTimeout(() => {
      pending.delete(timer)
      res.setHeader('content-type', 'application/json')
      res.end(
        JSON.stringify({
          url: req.url,
          body: Buffer.concat(chunks).toString(),
          waited: Date.now() - arrived,
        }),
      )
    }, wait)
    pending.add(timer)
  })
}

/** A running front end: where to send the request, and how to stop it. */
interface Started {
  readonly name: string
  readonly origin: string
  close(): Promise<void>
}

function fromHarness(frontEnd: FrontEnd): Started {
  return { name: frontEnd.name, origin: frontEnd.origin, close: () => frontEnd.close() }
}

async function onNodeServer(name: string, server: Server, close: () => Promise<void> = async () => {}) {
  const started = await listen(server)
  return {
    name,
    origin: started.url,
    async close() {
      await close()
      await started.close()
    },
  }
}

/** createFetchHandler behind @hono/node-server (as Hono, and the docs' Node recipe, run it). */
function startFetchHandler(routes: Routes, logger: LogSink): Promise<Started> {
  const handler = createFetchHandler(routes, { logger })
  const server = createServer(
    getRequestListener(
      async (request, env) => (await handler(request, env)) ?? new Response('no route\n', { status: 404 }),
    ),
  )
  return onNodeServer('fetch handler (@hono/node-server)', server, () => handler.close())
}

/** Next's proxy.ts handler (createNextProxy), on a node:http server standing for Next's. */
function startNextProxy(routes: Routes, logger: LogSink): Promise<Started> {
  const proxy = createNextProxy(routes, { logger })
  const server = createServer(
    getRequestListener(async (request) => (await proxy(request)) ?? new Response('next\n', { status: 404 })),
  )
  return onNodeServer('next proxy.ts handler', server, () => proxy.handler.close())
}

/** A stand-in for `next()`: what a custom server's Next app does with a request no route took. */
const standInNext: NextFactory = () => ({
  prepare: async () => {},
  getRequestHandler: () => async (_req, res) => {
    res.end('next\n')
  },
})

async function startNextServer(routes: Routes, logger: LogSink): Promise<Started> {
  const { server } = await createNextServer(standInNext, { dev: true }, routes, { logger })
  return onNodeServer('next custom server (stand-in next)', server)
}

/** `ng serve` on Vite: the entries angularProxy returns as Vite's `server.proxy`, started as the Angular tests start it. */
async function startAngularVite(routes: Routes): Promise<Started> {
  const vite = await startNgServeVite(angularProxy(routes, { logger: sink }))
  return { name: 'angular helper in Vite', origin: vite.origin, close: () => vite.close() }
}

async function startRsbuildFrontEnd(routes: Routes): Promise<Started> {
  const handle = await startRsbuild({ routes })
  return { name: 'rsbuild plugin', origin: handle.origin, close: () => handle.close() }
}

/** What a slow POST through a front end came back with, and after how long. */
interface Outcome {
  readonly name: string
  readonly status: number
  readonly body: string
  readonly ms: number
}

async function postSlowly(frontEnd: Started): Promise<Outcome> {
  const start = performance.now()
  const res = await openRequest(`${frontEnd.origin}/api/report`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ from: frontEnd.name }),
  })
  const body = (await collectBody(res)).toString()
  return { name: frontEnd.name, status: res.statusCode ?? 0, body, ms: performance.now() - start }
}

/**
 * The inspector's replay of an exchange whose target now takes REPLAY_SLOW_MS (a GET: the body
 * of a POST is kept only while the inspector is open): the replay waits for it as the page's call
 * would (it gave up after 30 s, and the replayed call with it).
 */
async function replaySlowly(frontEnd: Started): Promise<{ status: number; body: string }> {
  const first = await collectBody(await openRequest(`${frontEnd.origin}/api/flip`))
  expect(JSON.parse(first.toString())).toMatchObject({ waited: expect.any(Number) })
  const ours = { origin: frontEnd.origin }
  const listed = await collectBody(
    await openRequest(`${frontEnd.origin}/__cors-dev-proxy/exchanges`, { headers: ours }),
  )
  const flip = (JSON.parse(listed.toString()) as Array<{ id: number; url: string }>).find((exchange) =>
    exchange.url.endsWith('/flip'),
  )
  expect(flip).toBeDefined()
  const res = await openRequest(`${frontEnd.origin}/__cors-dev-proxy/replay/${flip?.id}`, {
    method: 'POST',
    headers: ours,
  })
  return { status: res.statusCode ?? 0, body: (await collectBody(res)).toString() }
}

const frontEnds: Started[] = []

beforeAll(async () => {
  backend = await listen(createServer(slowBackend))
  const routes: Routes = { '/api': backend.url }
  const starts: Array<Promise<Started>> = [
    startFrontEnd('core', { routes }).then(fromHarness),
    startFrontEnd('vite', { routes }).then(fromHarness),
    startFrontEnd('webpack', { routes }).then(fromHarness),
    startFrontEnd('serve', { routes }).then(fromHarness),
    startFetchHandler(routes, sink),
    startNextProxy(routes, sink),
    startNextServer(routes, sink),
    startAngularVite(routes),
    startRsbuildFrontEnd(routes),
  ]
  const settled = await Promise.allSettled(starts)
  for (const result of settled) if (result.status === 'fulfilled') frontEnds.push(result.value)
  const failed = settled.find((result) => result.status === 'rejected')
  if (failed !== undefined) throw failed.reason
}, 120_000)

afterAll(async () => {
  for (const timer of pending) clearTimeout(timer)
  await Promise.allSettled(frontEnds.map((frontEnd) => frontEnd.close()))
  await backend?.close()
}, 60_000)

describe('an answer that starts after 70 s, with the default options', () => {
  it(
    'reaches the client through every front end, and through the inspector a replay of 40 s',
    async () => {
      const vite = frontEnds.find((frontEnd) => frontEnd.name === 'vite')
      if (vite === undefined) throw new Error('the Vite front end did not start')
      const [outcomes, replayed] = await Promise.all([
        Promise.all(frontEnds.map(postSlowly)),
        replaySlowly(vite),
      ])
      expect(outcomes.map(({ name, status }) => `${name}: ${status}`)).toEqual(
        frontEnds.map(({ name }) => `${name}: 200`),
      )
      for (const outcome of outcomes) {
        const answer = JSON.parse(outcome.body) as { url: string; body: string }
        // The path as each front end's routes forward it (the prefix removed by default).
        expect(answer.url, outcome.name).toMatch(/\/report$/)
        expect(answer.body, outcome.name).toBe(JSON.stringify({ from: outcome.name }))
        expect(outcome.ms, outcome.name).toBeGreaterThanOrEqual(SLOW_MS)
      }
      expect(replayed.status).toBe(200)
      expect(JSON.parse(replayed.body)).toEqual({ replayOf: expect.any(Number), status: 200 })
    },
    TEST_MS,
  )
})
