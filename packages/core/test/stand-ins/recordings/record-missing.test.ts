import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../../test/support/proxy-server.js'
import { captureLogSink, listen, sendRequest } from '../../../../../test/support/servers.js'
import { postItem, recordingsFolderPerTest, statefulBackend } from './stateful-backend.js'

/*
 * `record: 'missing'`: what has a recording is replayed (the backend never sees it), what has
 * none is forwarded, body and all, and recorded. Real servers on 127.0.0.1 port 0.
 */

const recordingsDir = recordingsFolderPerTest('cdp-missing-')

describe("record: 'missing'", () => {
  it('replays what has a recording and forwards and records what has none', async () => {
    const first = statefulBackend()
    let target = await listen(first.server)
    let proxy = await serveProxy(
      { '/api': { target: target.url, record: true } },
      { log: 'silent', recordings: { dir: recordingsDir() } },
    )
    expect(JSON.parse((await sendRequest(`${proxy.url}/api/items`)).body.toString())).toEqual({ items: [] })
    await proxy.close()
    await target.close()

    const second = statefulBackend()
    target = await listen(second.server)
    proxy = await serveProxy(
      { '/api': { target: target.url, record: 'missing' } },
      { log: 'silent', recordings: { dir: recordingsDir() } },
    )
    // Recorded: replayed, the backend not contacted.
    const listed = await sendRequest(`${proxy.url}/api/items`)
    expect(listed.headers['x-cors-dev-proxy-replayed']).toMatch(/GET-items\./)
    expect(second.seen).toEqual([])
    // Not recorded: forwarded with its body, and recorded.
    const created = await sendRequest(`${proxy.url}/api/items`, postItem('ada'))
    expect(created.status).toBe(201)
    expect(JSON.parse(created.body.toString())).toEqual({ id: 1, name: 'ada' })
    expect(created.headers['x-cors-dev-proxy-replayed']).toBeUndefined()
    expect(second.seen).toEqual(['POST /items'])
    await proxy.close()
    await target.close()
    expect(
      (await readdir(join(recordingsDir(), 'api'))).filter((name) => name.startsWith('POST-items.')),
    ).toHaveLength(1)

    // Now recorded: the next run replays it too, with no backend at all.
    proxy = await serveProxy(
      { '/api': { target: 'http://127.0.0.1:9', record: 'missing' } },
      { log: 'silent', recordings: { dir: recordingsDir() } },
    )
    const again = await sendRequest(`${proxy.url}/api/items`, postItem('ada'))
    expect(again.status).toBe(201)
    expect(again.headers['x-cors-dev-proxy-replayed']).toMatch(/POST-items\./)
    await proxy.close()
  })

  /** Waits until the route's folder holds `count` recording files. */
  async function waitForFiles(count: number): Promise<void> {
    for (let tries = 0; tries < 200; tries++) {
      const names = await readdir(join(recordingsDir(), 'api')).catch(() => [])
      if (names.length >= count) return
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    throw new Error(`the recordings folder never held ${count} files`)
  }

  it('forwards every call after a write it forwarded, so a list after a new create shows the item', async () => {
    const backend = statefulBackend()
    const target = await listen(backend.server)
    const sink = captureLogSink()
    let proxy = await serveProxy(
      { '/api': { target: target.url, record: 'missing' } },
      { log: 'info', logger: sink, recordings: { dir: recordingsDir() } },
    )
    const list = async () => JSON.parse((await sendRequest(`${proxy.url}/api/items`)).body.toString())
    expect(await list()).toEqual({ items: [] })
    expect((await sendRequest(`${proxy.url}/api/items`, postItem('ada'))).status).toBe(201)
    // The first list's recording is on disk (written after its answer went out).
    await waitForFiles(2)
    // Recorded as empty before the create, but the backend's state moved: asked again, not replayed.
    expect(await list()).toEqual({ items: [{ id: 1, name: 'ada' }] })
    expect(backend.seen).toEqual(['GET /items', 'POST /items', 'GET /items'])
    expect(sink.text()).toContain('POST /api/items has no recording and went to the target')
    await proxy.close()
    await target.close()

    // The session as recorded replays in its order, with no backend.
    proxy = await serveProxy(
      { '/api': { target: 'http://127.0.0.1:9', replay: 'only' } },
      { log: 'silent', recordings: { dir: recordingsDir() } },
    )
    expect(await list()).toEqual({ items: [] })
    expect((await sendRequest(`${proxy.url}/api/items`, postItem('ada'))).status).toBe(201)
    expect(await list()).toEqual({ items: [{ id: 1, name: 'ada' }] })
    await proxy.close()
  })
})
