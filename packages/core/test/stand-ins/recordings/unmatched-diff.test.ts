import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../../test/support/proxy-server.js'
import { captureLogSink, listen, sendRequest } from '../../../../../test/support/servers.js'
import { statefulBackend } from './stateful-backend.js'

/*
 * Under `replay: 'only'`, a request no recording matches gets a 404 saying which part differs
 * from the closest recording: in the body (JSON), in one log line, and in the exchange the
 * inspector lists. Real servers on 127.0.0.1 port 0.
 */

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cdp-unmatched-'))
  const target = await listen(statefulBackend().server)
  const proxy = await serveProxy(
    { '/api': { target: target.url, record: true, match: { matchHeaders: ['x-tenant'] } } },
    { log: 'silent', recordings: { dir } },
  )
  await sendRequest(`${proxy.url}/api/items?page=2`, { headers: { 'x-tenant': 'a' } })
  await sendRequest(`${proxy.url}/api/items`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-tenant': 'a' },
    body: JSON.stringify({ name: 'ada', tags: { color: 'red' } }),
  })
  await proxy.close()
  await target.close()
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

interface Unmatched {
  error: string
  closest: string | null
  differences: { part: string; name?: string; recorded?: string; request?: string }[]
  fix: string
}

async function replaying(logger = captureLogSink()) {
  const proxy = await serveProxy(
    { '/api': { target: 'http://127.0.0.1:9', replay: 'only', match: { matchHeaders: ['x-tenant'] } } },
    { logger, recordings: { dir }, inspector: true },
  )
  return { proxy, logger }
}

describe("replay: 'only', a request no recording matches", () => {
  it('answers 404 naming the query key that differs, in the body, the log and the header', async () => {
    const { proxy, logger } = await replaying()
    const answer = await sendRequest(`${proxy.url}/api/items?page=3`, { headers: { 'x-tenant': 'a' } })
    expect(answer.status).toBe(404)
    expect(answer.headers['content-type']).toMatch(/^application\/json/)
    const body = JSON.parse(answer.body.toString()) as Unmatched
    expect(body.error).toBe("no recording matches GET /api/items?page=3 (route '/api' has replay: 'only')")
    expect(body.closest).toMatch(/GET-items\.[0-9a-f]{16}\.json$/)
    expect(body.differences).toEqual([{ part: 'query', name: 'page', recorded: '2', request: '3' }])
    expect(body.fix).toContain("record: 'missing'")
    expect(answer.headers['x-cors-dev-proxy-unmatched']).toMatch(
      /GET-items\..*: query page: recorded 2, sent 3$/,
    )
    const lines = logger.lines.filter((line) => line.message.includes('no recording matches'))
    expect(lines).toHaveLength(1)
    expect(lines[0]?.message).toContain('differs in query page: recorded 2, sent 3')
    await proxy.close()
  })

  it('names a body field at any depth, and a header matchHeaders names', async () => {
    const { proxy } = await replaying()
    const answer = await sendRequest(`${proxy.url}/api/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tenant': 'b' },
      body: JSON.stringify({ name: 'ada', tags: { color: 'blue' } }),
    })
    expect(answer.status).toBe(404)
    expect((JSON.parse(answer.body.toString()) as Unmatched).differences).toEqual([
      { part: 'body', name: 'tags.color', recorded: '"red"', request: '"blue"' },
      { part: 'header', name: 'x-tenant', recorded: 'a', request: 'b' },
    ])
    await proxy.close()
  })

  it('names the method, and the path, against the closest recording', async () => {
    const { proxy } = await replaying()
    const put = JSON.parse(
      (
        await sendRequest(`${proxy.url}/api/items?page=2`, { method: 'PUT', headers: { 'x-tenant': 'a' } })
      ).body.toString(),
    ) as Unmatched
    expect(put.differences).toContainEqual({ part: 'method', recorded: 'GET', request: 'PUT' })
    const other = JSON.parse(
      (await sendRequest(`${proxy.url}/api/item?page=2`, { headers: { 'x-tenant': 'a' } })).body.toString(),
    ) as Unmatched
    expect(other.differences).toEqual([{ part: 'path', recorded: '/items', request: '/item' }])
    await proxy.close()
  })

  it('is marked in the exchange the inspector lists', async () => {
    const { proxy } = await replaying()
    await sendRequest(`${proxy.url}/api/items?page=3`, { headers: { 'x-tenant': 'a' } })
    const list = JSON.parse(
      (await sendRequest(`${proxy.url}/__cors-dev-proxy/exchanges`)).body.toString(),
    ) as { url: string; status: number; unmatched?: string }[]
    const exchange = list.find((one) => one.url === '/api/items?page=3')
    expect(exchange?.status).toBe(404)
    expect(exchange?.unmatched).toMatch(/query page: recorded 2, sent 3/)
    await proxy.close()
  })
})
