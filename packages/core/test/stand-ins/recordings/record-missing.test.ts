import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../../test/support/proxy-server.js'
import { listen, sendRequest } from '../../../../../test/support/servers.js'
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
})
