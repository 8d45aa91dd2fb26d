import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../../test/support/proxy-server.js'
import { listen, sendRequest } from '../../../../../test/support/servers.js'
import { statefulBackend } from './stateful-backend.js'

/*
 * `record: 'missing'`: what has a recording is replayed (the backend never sees it), what has
 * none is forwarded, body and all, and recorded. Real servers on 127.0.0.1 port 0.
 */

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cdp-missing-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const post = (name: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ name }),
})

describe("record: 'missing'", () => {
  it('replays what has a recording and forwards and records what has none', async () => {
    const first = statefulBackend()
    let target = await listen(first.server)
    let proxy = await serveProxy(
      { '/api': { target: target.url, record: true } },
      { log: 'silent', recordings: { dir } },
    )
    expect(JSON.parse((await sendRequest(`${proxy.url}/api/items`)).body.toString())).toEqual({ items: [] })
    await proxy.close()
    await target.close()

    const second = statefulBackend()
    target = await listen(second.server)
    proxy = await serveProxy(
      { '/api': { target: target.url, record: 'missing' } },
      { log: 'silent', recordings: { dir } },
    )
    // Recorded: replayed, the backend not contacted.
    const listed = await sendRequest(`${proxy.url}/api/items`)
    expect(listed.headers['x-cors-dev-proxy-replayed']).toMatch(/GET-items\./)
    expect(second.seen).toEqual([])
    // Not recorded: forwarded with its body, and recorded.
    const created = await sendRequest(`${proxy.url}/api/items`, post('ada'))
    expect(created.status).toBe(201)
    expect(JSON.parse(created.body.toString())).toEqual({ id: 1, name: 'ada' })
    expect(created.headers['x-cors-dev-proxy-replayed']).toBeUndefined()
    expect(second.seen).toEqual(['POST /items'])
    await proxy.close()
    await target.close()
    expect((await readdir(join(dir, 'api'))).filter((name) => name.startsWith('POST-items.'))).toHaveLength(1)

    // Now recorded: the next run replays it too, with no backend at all.
    proxy = await serveProxy(
      { '/api': { target: 'http://127.0.0.1:9', record: 'missing' } },
      { log: 'silent', recordings: { dir } },
    )
    const again = await sendRequest(`${proxy.url}/api/items`, post('ada'))
    expect(again.status).toBe(201)
    expect(again.headers['x-cors-dev-proxy-replayed']).toMatch(/POST-items\./)
    await proxy.close()
  })
})
