import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { captureLogSink, listen, sendRequest } from '../../../../../test/support/servers.js'
import type { Routes } from '../../../src/config/options.js'
import { resolveOptions } from '../../../src/config/resolve-options.js'
import { createDevServerProxy } from '../../../src/proxy/dev-server-proxy.js'

/*
 * The live record switch through the inspector's HTTP API (`POST /__cors-dev-proxy/control`
 * with `{ route, record }`), on a bare `http` dev server with the set-up the adapters share:
 * what is recorded follows the switch, request by request, and a restart forgets it.
 */

let backend: Awaited<ReturnType<typeof listen>>
let dir: string

beforeAll(async () => {
  backend = await listen(
    createServer((req, res) => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ url: req.url }))
    }),
  )
  dir = await mkdtemp(join(tmpdir(), 'cdp-record-switch-'))
})
afterAll(async () => {
  await backend?.close()
  await rm(dir, { recursive: true, force: true })
})

async function startDevServer(routes: Routes) {
  const server = createServer()
  const sink = captureLogSink()
  const proxy = createDevServerProxy(
    resolveOptions(routes, { log: 'info', logger: sink, recordings: { dir } }),
    { server },
  )
  server.on('request', (req, res) => proxy.middleware(req, res, () => res.end('dev server')))
  const front = await listen(server)
  return {
    url: front.url,
    sink,
    post: (change: unknown) =>
      sendRequest(`${front.url}/__cors-dev-proxy/control`, {
        method: 'POST',
        headers: { origin: front.url, 'content-type': 'application/json' },
        body: JSON.stringify(change),
      }),
    async close() {
      await front.close()
      await proxy.close()
    },
  }
}

const json = (res: { body: Buffer }) => JSON.parse(res.body.toString()) as Record<string, unknown>
const recorded = async () => (await readdir(join(dir, 'api')).catch(() => [])).sort()

describe('the record switch over the control API', () => {
  it('records only the requests made while it is on, and a restart starts from the config again', async () => {
    const routes: Routes = { '/api': { target: backend.url, replay: 'fallback' } }
    const dev = await startDevServer(routes)
    try {
      expect((await sendRequest(`${dev.url}/api/before`)).status).toBe(200)
      const on = await dev.post({ route: '/api', record: true })
      expect(on.status).toBe(200)
      expect(json(on)).toMatchObject({ route: '/api', record: true })
      expect((await sendRequest(`${dev.url}/api/during`)).status).toBe(200)
      const off = await dev.post({ route: '/api', record: false })
      expect(json(off)).toMatchObject({ record: false })
      expect((await sendRequest(`${dev.url}/api/after`)).status).toBe(200)
      expect(dev.sink.text()).toContain(
        "control: route '/api' now uses target (its own), faults none, recording on",
      )
    } finally {
      await dev.close()
    }
    // On disk once close() resolved: the one request made while the switch was on.
    const files = await recorded()
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/^GET-during\.[0-9a-f]{16}\.json$/)

    const restarted = await startDevServer(routes)
    try {
      const view = json(await sendRequest(`${restarted.url}/__cors-dev-proxy/control`))
      expect(view.routes).toEqual([expect.objectContaining({ route: '/api', record: false })])
      await sendRequest(`${restarted.url}/api/again`)
    } finally {
      await restarted.close()
    }
    expect(await recorded()).toEqual(files)
  })

  it('answers 400 naming the fix for a route that cannot record, and for a value that is not a boolean', async () => {
    const dev = await startDevServer({
      '/api': { target: backend.url, record: true },
      '/slow': { target: backend.url, latency: 1 },
    })
    try {
      const noRecordings = await dev.post({ route: '/slow', record: true })
      expect(noRecordings.status).toBe(400)
      expect(json(noRecordings).error).toBe(
        "route '/slow' has no recordings to switch: give it record: true or replay: 'fallback' in the config (the switch then turns recording on and off live)",
      )
      const notBoolean = await dev.post({ route: '/api', record: 1 })
      expect(notBoolean.status).toBe(400)
      expect(json(notBoolean).error).toBe('record must be true or false')
    } finally {
      await dev.close()
    }
  })
})
