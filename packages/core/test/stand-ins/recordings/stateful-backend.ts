import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import { collectBody } from '../../../../../test/support/servers.js'

/*
 * A backend with state for the replay tests: an in-memory list of items, `GET /items` (with any
 * query), `POST /items` (JSON `{ name }`, answers the item with its id) and `DELETE /items/<id>`.
 */

/** The backend and what it has seen. */
export interface StatefulBackend {
  readonly server: Server
  /** Every request as `METHOD /path?query`. */
  readonly seen: string[]
}

/**
 * A fresh backend (empty list).
 *
 * @example
 * const backend = statefulBackend()
 * const target = await listen(backend.server)
 */
export function statefulBackend(): StatefulBackend {
  const items: { id: number; name: string }[] = []
  const seen: string[] = []
  let nextId = 1
  const server = createServer(async (req, res) => {
    const body = (await collectBody(req)).toString()
    seen.push(`${req.method} ${req.url}`)
    const url = new URL(req.url ?? '/', 'http://x')
    res.setHeader('content-type', 'application/json')
    if (req.method === 'GET' && url.pathname === '/items') {
      res.end(JSON.stringify({ items }))
    } else if (req.method === 'POST' && url.pathname === '/items') {
      const item = { id: nextId++, name: (JSON.parse(body || '{}') as { name?: string }).name ?? '' }
      items.push(item)
      res.writeHead(201).end(JSON.stringify(item))
    } else if (req.method === 'DELETE' && url.pathname.startsWith('/items/')) {
      const index = items.findIndex((item) => `/items/${item.id}` === url.pathname)
      if (index >= 0) items.splice(index, 1)
      res.writeHead(index >= 0 ? 204 : 404).end()
    } else {
      res.writeHead(404).end(JSON.stringify({ error: 'no such path' }))
    }
  })
  return { server, seen }
}

/**
 * The request options of `POST /items` creating the item `name`.
 *
 * @example
 * await sendRequest(`${proxy.url}/api/items`, postItem('ada'))
 */
export function postItem(name: string): { method: string; headers: Record<string, string>; body: string } {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) }
}

/**
 * A fresh recordings folder for each test of the file, removed after it; call the returned
 * function for the current test's folder.
 *
 * @example
 * const dir = recordingsFolderPerTest('cdp-session-')
 * await serveProxy(routes, { recordings: { dir: dir() } })
 */
export function recordingsFolderPerTest(prefix: string): () => string {
  let dir = ''
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })
  return () => dir
}
