import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { captureLogSink, listen, sendRequest } from '../../../../test/support/servers.js'
import type { Routes } from '../../src/config/options.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import type { ResolvedRoute } from '../../src/config/resolved-route.js'
import { createFailureLog } from '../../src/forward/failure-log.js'
import { createUpstreamPool } from '../../src/forward/upstream-pool.js'
import { createLogger } from '../../src/log/logger.js'
import type { RouteStep } from '../../src/pipeline/route-pipeline.js'
import { createBackendStep } from '../../src/proxy/create-backend-step.js'
import type { ResolvedControl } from '../../src/stand-ins/control/options/resolve-control.js'
import { createRouteControl } from '../../src/stand-ins/control/route-control.js'
import { createRecordingStore } from '../../src/stand-ins/recordings/recording-store.js'
import type { BackendSlot } from '../../src/stand-ins/stand-in.js'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** A target that says what it got, and a route's backend in front of it on a server of its own. */
async function serveBackend(config: (target: string) => Routes, mocks?: BackendSlot) {
  let reached = 0
  const target = await listen(
    createServer((req, res) => {
      reached++
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ target: req.url }))
    }),
  )
  cleanup.push(target.close)
  const dir = await mkdtemp(join(tmpdir(), 'cdp-backend-'))
  cleanup.push(() => rm(dir, { recursive: true, force: true }))
  const resolved = resolveOptions(config(target.url), { recordings: { dir } })
  const route = resolved.routes[0] as ResolvedRoute
  const logger = createLogger('silent', captureLogSink())
  const pool = createUpstreamPool()
  const recordings = createRecordingStore(resolved.recordings, logger, dir)
  const control =
    route.control === undefined
      ? undefined
      : createRouteControl({ ...route, control: route.control as ResolvedControl })
  const backend = createBackendStep(
    route,
    { pool, logger, failures: createFailureLog(logger), recordings },
    { control, mocks },
  )
  cleanup.push(async () => {
    await backend.close()
    await pool.close()
  })
  const front = await listen(
    createServer((req, res) => backend.step(req, res, () => res.end('passed on'), req.url ?? '/')),
  )
  cleanup.push(front.close)
  const files = async () => (await readdir(dir, { recursive: true })).filter((name) => name.endsWith('.json'))
  return { url: front.url, backend, reached: () => reached, files, flush: () => recordings.flush() }
}

/** A stand-in for the `mocks` slot: answers `/mocked`, hands the rest on; notes that it was closed. */
function mockSlot() {
  const state = { closed: false, asked: 0 }
  const step: RouteStep = (req, res, next) => {
    state.asked++
    if (req.url?.endsWith('/mocked')) res.end('from the slot')
    else next()
  }
  return {
    state,
    slot: {
      step,
      close() {
        state.closed = true
      },
    },
  }
}

describe('createBackendStep', () => {
  it('is the forwarder itself on a plain route', async () => {
    const served = await serveBackend((target) => ({ '/api': target }))
    expect(served.backend.step.name).not.toBe('backendStep')
    expect((await sendRequest(`${served.url}/api/users`)).body.toString()).toBe('{"target":"/users"}')
  })

  it('runs the faults before the mocks slot, which never reaches the target', async () => {
    const { slot, state } = mockSlot()
    const served = await serveBackend((target) => ({ '/api': { target, failRate: 1, failWith: 500 } }), slot)
    expect((await sendRequest(`${served.url}/api/mocked`)).status).toBe(500)
    expect(state.asked).toBe(0)
    expect(served.reached()).toBe(0)
  })

  it('puts the mocks slot before the recordings: a mocked answer is not recorded, a forwarded one is', async () => {
    const { slot, state } = mockSlot()
    const served = await serveBackend((target) => ({ '/api': { target, record: true } }), slot)
    const mocked = await sendRequest(`${served.url}/api/mocked`)
    expect(mocked.body.toString()).toBe('from the slot')
    await served.flush()
    expect(await served.files()).toEqual([])
    expect((await sendRequest(`${served.url}/api/real`)).body.toString()).toBe('{"target":"/real"}')
    await served.flush()
    expect(await served.files()).toHaveLength(1)
    expect(state.asked).toBe(2)
    expect(served.reached()).toBe(1)
    await served.backend.close()
    expect(state.closed).toBe(true)
  })
})
