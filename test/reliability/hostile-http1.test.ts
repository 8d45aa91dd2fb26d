import { Agent } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendRequest } from '../support/servers.js'
import { FRONT_ENDS, type FrontEnd, type FrontEndName, startFrontEnd } from './harness/front-ends.js'
import { reached, reachSnapshot } from './harness/hostile-check.js'
import { hostileRoutes } from './harness/hostile-routes.js'
import { type CaseContext, expectationOn, HTTP1_CASES, type Http1Case } from './harness/http1-cases.js'
import { rawExchange, rawRequest } from './harness/raw-http1.js'
import { type RecordingTarget, startRecordingTarget } from './harness/recording-target.js'

/**
 * Hostile HTTP/1.1 requests, written byte for byte on raw sockets (an HTTP client would
 * normalise most of them away), against the core on a bare node:http server, a real Vite 8 dev
 * server, a real webpack-dev-server 5 and `cors-dev-proxy serve` (the built CLI in a child
 * process), each started once with the same routes (see harness/hostile-routes.ts) in front of
 * one recording target. A second server, the canary, is what absolute-form targets, CONNECT
 * and `//host` paths name: no route points at it, so it must never receive anything.
 *
 * Every case asserts, per front end: the status (or a close), the exact list of requests and
 * WebSocket upgrades the target received, that every path it received lies under a route's base
 * path, that the canary received nothing, and that a normal request succeeds afterwards.
 *
 * How each protection was checked to fail without it (by editing it out and running this file):
 * - the non-WebSocket upgrade refusal (proxy-upgrade.ts, dev-server-proxy.ts): the h2c and
 *   made-up upgrades on Vite and webpack-dev-server end `open` (the socket hangs) instead of 400;
 * - the two-Host refusal (refuse-request.ts): 'two Host lines, ours first' gets 200 and the
 *   target receives `GET /base/x`;
 * - the HTTP/0.9 refusal (refuse-request.ts): 'LF in the path' gets 200, the target receives
 *   `GET /base/x` with an `Injected` header Node read from the request line;
 * - `..;` resolution (normalize-path.ts): the target receives `GET /base/..;/secret`, outside
 *   the base path;
 * - the upgrade host check (`isAllowedUpgrade`) of the Vite plugin, of the webpack adapter and
 *   of serve, each removed in turn: that front end's four WebSocket host cases get 101 and the
 *   target an upgrade;
 * - the log limiter (logger.limited in the CORS reports): the forged-origin test counts
 *   hundreds of lines.
 */

let target: RecordingTarget
let canary: RecordingTarget

beforeAll(async () => {
  target = await startRecordingTarget()
  canary = await startRecordingTarget()
})

afterAll(async () => {
  await target?.close()
  await canary?.close()
})

const health = (ctx: CaseContext) => rawRequest('GET /api/health HTTP/1.1', [`Host: ${ctx.host}`])

async function runCase(front: FrontEnd, testCase: Http1Case): Promise<void> {
  const ctx: CaseContext = {
    host: `127.0.0.1:${front.port}`,
    canary: new URL(canary.url).host,
    port: front.port,
  }
  const expected = expectationOn(testCase, front.name)
  const before = reachSnapshot(target, canary)
  const answer = await rawExchange(front.port, testCase.bytes(ctx), {
    // A connection that must stay open is watched for 2 s; an answer is waited for up to 10 s,
    // which costs nothing when it comes (in milliseconds on an idle machine) and holds under load.
    timeoutMs: testCase.timeoutMs ?? (expected.status === 'open' ? 2000 : 10_000),
    responses: testCase.responses,
  })
  if (expected.status === 'open') {
    expect(answer.timedOut, 'the connection should still be open').toBe(true)
    expect(answer.status).toBe(0)
  } else if (expected.status === 'closed') {
    expect(answer.closed, 'the connection should be closed').toBe(true)
    expect(answer.status).toBe(0)
  } else {
    expect(answer.timedOut, `no answer within the time limit: ${answer.text.slice(0, 200)}`).toBe(false)
    expect(answer.status).toBe(expected.status)
  }
  const { requests, upgrades } = reached(target, canary, before)
  const targetExpected =
    typeof expected.target === 'function' ? expected.target(ctx) : (expected.target ?? [])
  expect(requests).toEqual(targetExpected)
  expect(upgrades).toEqual(expected.upgrades ?? [])
  if (requests.length === 0) {
    // What the front end answered itself must not look like the target's answer.
    expect(answer.heads[0]?.headers['x-answered-by']).toBeUndefined()
  }
  if (expected.acao !== undefined) {
    expect(answer.heads[0]?.headers['access-control-allow-origin'] ?? null).toBe(expected.acao)
  }
  if (expected.body !== undefined) expect(answer.text).toContain(expected.body)
  const after = await rawExchange(front.port, health(ctx))
  expect(after.status, 'a normal request after the case').toBe(200)
}

/** Counts the CORS report lines of a front end (the first line of each report). */
const corsReports = (front: FrontEnd) =>
  front.logs().filter((line) => line.includes('the browser will refuse this answer to the page')).length

describe.each(FRONT_ENDS)('%s, HTTP/1.1', (name: FrontEndName) => {
  let front: FrontEnd
  let started = 0

  beforeAll(async () => {
    front = await startFrontEnd(name, { routes: hostileRoutes(target) })
    started = performance.now()
  }, 30_000)

  afterAll(async () => {
    await front?.close()
  })

  it.each(HTTP1_CASES.map((testCase) => [`${testCase.group}: ${testCase.name}`, testCase] as const))(
    '%s',
    async (_name, testCase) => {
      await runCase(front, testCase)
    },
  )

  it('300 forged Origins print at most one CORS report per route and cause every 10 s', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 8 })
    try {
      const origins = Array.from({ length: 300 }, (_, index) => `http://forged-${index}.example`)
      for (let index = 0; index < origins.length; index += 30) {
        const answers = await Promise.all(
          origins
            .slice(index, index + 30)
            .map((origin) => sendRequest(`${front.origin}/cors/flood`, { headers: { origin }, agent })),
        )
        for (const answer of answers) {
          expect(answer.status).toBe(200)
          expect(answer.headers['access-control-allow-origin']).toBeUndefined()
        }
      }
    } finally {
      agent.destroy()
    }
    // serve logs from a child process: give its output a moment to arrive.
    await new Promise((resolve) => setTimeout(resolve, name === 'serve' ? 300 : 20))
    // Three causes on this route in this file (a refused origin on answers and on preflights,
    // and the case-variant origin reflected as sent), one line each per 10 s window since the
    // front end started, whatever the number of origins.
    const windows = 1 + Math.floor((performance.now() - started) / 10_000)
    expect(corsReports(front)).toBeGreaterThanOrEqual(1)
    expect(corsReports(front)).toBeLessThanOrEqual(3 * windows)
  })

  it('answers a normal request after everything', async () => {
    const answer = await sendRequest(`${front.origin}/api/finally`)
    expect(answer.status).toBe(200)
    expect(answer.headers['x-answered-by']).toBe('target')
  })
})
