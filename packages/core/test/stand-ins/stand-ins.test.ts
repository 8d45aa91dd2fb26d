import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type IncomingMessage } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { refusedUrl } from '../../../../test/support/refused-port.js'
import { captureLogSink, listen, sendRequest } from '../../../../test/support/servers.js'
import type { Routes } from '../../src/config/options.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import type { ResolvedForwardRoute, ResolvedRoute } from '../../src/config/resolved-route.js'
import { createFailureLog } from '../../src/forward/failure-log.js'
import { createUpstreamPool } from '../../src/forward/upstream-pool.js'
import { createLogger } from '../../src/log/logger.js'
import type { RouteStep } from '../../src/pipeline/route-pipeline.js'
import { createBackendStep } from '../../src/proxy/create-backend-step.js'
import { controlStandIn } from '../../src/stand-ins/control/control-stand-in.js'
import type { ResolvedControl } from '../../src/stand-ins/control/options/resolve-control.js'
import { createRouteControl } from '../../src/stand-ins/control/route-control.js'
import { mockBackendStandIn } from '../../src/stand-ins/mock-backend/mock-backend-stand-in.js'
import { createRecordingStore, type RecordingStore } from '../../src/stand-ins/recordings/recording-store.js'
import { recordingsStandIn } from '../../src/stand-ins/recordings/recordings-stand-in.js'
import { routeMocksStandIn } from '../../src/stand-ins/route-mocks/route-mocks-stand-in.js'

const logger = createLogger('silent', captureLogSink())
const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** The first route of `routes`, resolved, with a recordings folder of its own. */
async function routeOf(routes: Routes): Promise<{ route: ResolvedRoute; recordings: RecordingStore }> {
  const dir = await mkdtemp(join(tmpdir(), 'cdp-stand-ins-'))
  cleanup.push(() => rm(dir, { recursive: true, force: true }))
  const resolved = resolveOptions(routes, { recordings: { dir } })
  return {
    route: resolved.routes[0] as ResolvedRoute,
    recordings: createRecordingStore(resolved.recordings, logger, dir),
  }
}

/** The route's live switches, as the proxy builds them for a route with control options. */
function controlOf(route: ResolvedRoute) {
  return route.control === undefined
    ? undefined
    : createRouteControl({ ...route, control: route.control as ResolvedControl })
}

describe('the stand-ins, through one seam', () => {
  it('give a plain route nothing, so it costs nothing per request', async () => {
    const { route, recordings } = await routeOf({ '/api': 'http://127.0.0.1:9' })
    const deps = { logger, recordings, control: controlOf(route) }
    for (const standIn of [controlStandIn, routeMocksStandIn, recordingsStandIn, mockBackendStandIn]) {
      expect(standIn(route, deps)).toBeUndefined()
    }
  })

  it('give a mock route its target, its upgrades and its close from the mock backend alone', async () => {
    const { route, recordings } = await routeOf({ '/api': { mock: true } })
    expect(recordingsStandIn(route, { logger, recordings })).toBeUndefined()
    const slot = mockBackendStandIn(route, { logger })
    expect(slot?.step).toBeUndefined()
    expect(slot?.target?.(() => expect.fail('a mock route builds no forwarder')).name).toBe('mockStep')
    expect(typeof slot?.upgrade).toBe('function')
    await slot?.close?.()
  })

  it('give a route with targets one forwarder per target, and faults a step before them', async () => {
    const { route } = await routeOf({
      '/api': { targets: { local: 'http://127.0.0.1:9', staging: 'http://127.0.0.1:10' }, latency: 5 },
    })
    const slot = controlStandIn(route, { control: controlOf(route) })
    expect(typeof slot?.step).toBe('function')
    const built: string[] = []
    const forwarderOf = (forwarded: ResolvedForwardRoute): RouteStep => {
      built.push(String(forwarded.target))
      return (_req, res) => res.end()
    }
    expect(slot?.target?.(forwarderOf).name).toBe('targetSwitch')
    expect(built).toEqual(['http://127.0.0.1:9/', 'http://127.0.0.1:10/'])
  })

  it("give replay: 'only' a step and no fallback, record: true a step and a fallback", async () => {
    const only = await routeOf({ '/api': { target: 'http://127.0.0.1:9', replay: 'only' } })
    const replaying = recordingsStandIn(only.route, { logger, recordings: only.recordings })
    expect(typeof replaying?.step).toBe('function')
    expect(replaying?.fallback).toBeUndefined()
    const record = await routeOf({ '/api': { target: 'http://127.0.0.1:9', record: true } })
    const recording = recordingsStandIn(record.route, { logger, recordings: record.recordings })
    expect(typeof recording?.step).toBe('function')
    expect(typeof recording?.fallback).toBe('function')
  })

  it("hand a slot's fallback to the forwarder, asked where the target fails", async () => {
    const { route } = await routeOf({ '/api': await refusedUrl() })
    const pool = createUpstreamPool()
    const backend = createBackendStep(
      route,
      { pool, logger, failures: createFailureLog(logger) },
      {
        mocks: {
          async fallback(_req, res, cause) {
            res.end(`from the fallback (${cause})`)
            return true
          },
        },
      },
    )
    cleanup.push(async () => {
      await backend.close()
      await pool.close()
    })
    const front = await listen(
      createServer((req, res) => backend.step(req, res, () => res.end('passed on'), req.url ?? '/')),
    )
    cleanup.push(front.close)
    const answer = await sendRequest(`${front.url}/api/x`)
    expect(answer.body.toString()).toBe('from the fallback (connection refused)')
  })

  it("run a ws route's handshakes (Node's and the Fetch handler's) through the stand-ins, then to the target in use", async () => {
    const { route } = await routeOf({
      '/live': { targets: { local: 'ws://127.0.0.1:9', staging: 'ws://127.0.0.1:10' }, ws: true },
    })
    const control = controlOf(route)
    if (control === undefined) expect.fail('a route with targets has live switches')
    control.state.target = 'staging'
    const pool = createUpstreamPool()
    const backend = createBackendStep(
      route,
      { pool, logger, failures: createFailureLog(logger) },
      { control },
    )
    cleanup.push(async () => {
      await backend.close()
      await pool.close()
    })
    const reached: string[] = []
    const req = { method: 'GET', url: '/live', headers: {} } as IncomingMessage
    const handshake = { req, socket: new PassThrough(), head: Buffer.alloc(0), path: '/live', route }
    const taken = backend.upgrade(handshake, (onward) => {
      reached.push(String((onward.route as ResolvedForwardRoute).target))
      return true
    })
    expect(taken).toBe(true)
    const answer = await backend.fetchUpgrade({ req, path: '/live', route }, async (onward) => {
      reached.push(String((onward.route as ResolvedForwardRoute).target))
      return 'bridged'
    })
    expect(answer).toBe('bridged')
    expect(reached).toEqual(['http://127.0.0.1:10/', 'http://127.0.0.1:10/'])
  })
})
