import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getGlobalDispatcher, setGlobalDispatcher, fetch as undiciFetch } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectBody, listen } from '../../../../test/support/servers.js'
import { createFetchHandler } from '../../src/proxy/create-fetch-handler.js'
import { replayDispatcher } from '../../src/replay-dispatcher.js'

/*
 * `replayDispatcher`: a session recorded through the core's record tap from a live backend
 * (list, list, create, list), then, with the backend stopped, `fetch` (Node's own through
 * `setGlobalDispatcher`, and undici's with `dispatcher`) answered from the files: the list
 * before the create stays empty, the list after it holds the item, a request with no recording
 * gets the proxy's 404 naming what differs. Real servers on 127.0.0.1 port 0.
 */

let dir: string
let target: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cdp-replay-dispatcher-'))
  const items: { id: number; name: string }[] = []
  const backend = await listen(
    createServer(async (req, res) => {
      const body = (await collectBody(req)).toString()
      res.setHeader('content-type', 'application/json')
      if (req.method === 'POST') {
        const item = { id: items.length + 1, ...(JSON.parse(body) as { name: string }) }
        items.push(item)
        res.writeHead(201).end(JSON.stringify(item))
      } else res.end(JSON.stringify(items))
    }),
  )
  target = backend.url
  const proxy = createFetchHandler(
    { '/api': { target, record: true } },
    { log: 'silent', recordings: { dir } },
  )
  const call = async (method: string, body?: string) =>
    (await proxy(new Request('http://localhost:5173/api/items', { method, body })))?.text()
  await call('GET')
  await call('GET')
  await call('POST', '{"name":"first"}')
  await call('GET')
  await proxy.close()
  await backend.close()
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const config = () => ({ routes: { '/api': { target } }, recordings: { dir } })

describe('replayDispatcher', () => {
  it("answers Node's fetch from the recordings in the recorded order and state, with no backend", async () => {
    const dispatcher = replayDispatcher({
      config: config(),
      route: '/api',
      origins: ['http://localhost:5173'],
    })
    const previous = getGlobalDispatcher()
    setGlobalDispatcher(dispatcher)
    try {
      const list = async () => (await fetch('http://localhost:5173/api/items')).json()
      for (let time = 0; time < 3; time++) expect(await list()).toEqual([])
      const created = await fetch(`${target}/api/items`, { method: 'POST', body: '{"name":"first"}' })
      expect(created.status).toBe(201)
      expect(await created.json()).toEqual({ id: 1, name: 'first' })
      expect(await list()).toEqual([{ id: 1, name: 'first' }])
      const other = await fetch(`${target}/api/items`, { method: 'POST', body: '{"name":"other"}' })
      expect(other.status).toBe(404)
      expect(await other.text()).toContain('name')
    } finally {
      setGlobalDispatcher(previous)
      await dispatcher.close()
    }
  })

  it("answers undici's fetch given it as its dispatcher, each dispatcher a session of its own", async () => {
    const dispatcher = replayDispatcher({ config: config(), route: '/api' })
    try {
      const answer = await undiciFetch(`${target}/api/items`, {
        method: 'POST',
        body: '{"name":"first"}',
        dispatcher,
      })
      expect(answer.status).toBe(201)
      await answer.arrayBuffer()
      const list = await undiciFetch(`${target}/api/items`, { dispatcher })
      expect(await list.json()).toEqual([{ id: 1, name: 'first' }])
    } finally {
      await dispatcher.close()
    }
  })

  it('names the routes when the route is not in the config', () => {
    expect(() => replayDispatcher({ config: config(), route: '/nope' })).toThrow(/its routes: \/api/)
  })
})
