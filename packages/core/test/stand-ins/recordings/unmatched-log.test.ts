import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../../test/support/proxy-server.js'
import { captureLogSink, listen, sendRequest } from '../../../../../test/support/servers.js'
import { statefulBackend } from './stateful-backend.js'

/*
 * The log line of a request no recording matches under `replay: 'only'`: one per distinct cause
 * (the closest recording and the kinds of part that differ), repeats of a cause folded as the
 * other rate-limited lines are. Real servers on 127.0.0.1 port 0.
 */

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cdp-unmatched-log-'))
  const target = await listen(statefulBackend().server)
  const proxy = await serveProxy(
    { '/api': { target: target.url, record: true } },
    { log: 'silent', recordings: { dir } },
  )
  await sendRequest(`${proxy.url}/api/items`)
  await sendRequest(`${proxy.url}/api/items`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'ada' }),
  })
  await proxy.close()
  await target.close()
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe("replay: 'only', the log of unmatched requests", () => {
  it('prints one line per distinct cause and folds its repeats', async () => {
    const logger = captureLogSink()
    const proxy = await serveProxy(
      { '/api': { target: 'http://127.0.0.1:9', replay: 'only' } },
      { logger, recordings: { dir } },
    )
    for (const t of [1, 2, 3]) expect((await sendRequest(`${proxy.url}/api/items?_t=${t}`)).status).toBe(404)
    const post = { method: 'POST', headers: { 'content-type': 'application/json' } }
    expect((await sendRequest(`${proxy.url}/api/items`, { ...post, body: '{"name":"bob"}' })).status).toBe(
      404,
    )
    expect((await sendRequest(`${proxy.url}/api/items`, { ...post, body: '{"name":"cy"}' })).status).toBe(404)
    const said = () =>
      logger.lines.filter((line) => line.message.includes('no recording matches')).map((line) => line.message)
    const lines = said()
    expect(lines).toHaveLength(2)
    expect(lines[0]).toContain('404 GET /api/items?_t=1')
    expect(lines[0]).toContain('differs in query _t: recorded (none), sent 1')
    expect(lines[1]).toContain('differs in body name: recorded "ada", sent "bob"')
    // The repeats are counted, and said when the proxy closes.
    await proxy.close()
    const folded = said().slice(2)
    expect(folded).toHaveLength(2)
    expect(folded[0]).toMatch(/GET \/api\/items\?_t=1.*\(… and 2 more like it in the last \d+ s\)$/)
    expect(folded[1]).toMatch(/POST \/api\/items.*\(… and 1 more like it in the last \d+ s\)$/)
  })
})
