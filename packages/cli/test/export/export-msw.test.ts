import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createFetchHandler } from '@cors-dev-proxy/core'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectBody, listen } from '../../../../test/support/servers.js'
import { UsageError } from '../../src/args/usage-error.js'
import { runExportMsw } from '../../src/commands/export-msw.js'

/*
 * `cors-dev-proxy export-msw`, run from the sources in this process: a session recorded by the
 * core's own record tap from a live backend (list, list, create, list), then exported; the
 * module's MSW handlers, under msw/node with no backend, answer as the proxy's replay does:
 * the list before the create stays empty however often it comes, the list after it holds the
 * item, a mock answers first. The module is written beside this file (msw resolves from the
 * package), and removed after.
 */

const here = fileURLToPath(new URL('.', import.meta.url))
let project: string
let out: string

async function run(argv: string[]) {
  let stdout = ''
  let stderr = ''
  const code = await runExportMsw({
    argv,
    cwd: project,
    io: { out: (text) => (stdout += `${text}\n`), err: (text) => (stderr += `${text}\n`) },
  })
  return { code, stdout, stderr }
}

/** Records list, list, create, list, and a login with a password, through the core's record tap. */
async function recordSession(): Promise<void> {
  const items: { id: number; name: string }[] = []
  const backend = await listen(
    createServer(async (req, res) => {
      const body = (await collectBody(req)).toString()
      res.setHeader('content-type', 'application/json')
      if (req.method === 'POST' && req.url === '/items') {
        const item = { id: items.length + 1, ...(JSON.parse(body) as { name: string }) }
        items.push(item)
        res.statusCode = 201
        res.end(JSON.stringify(item))
      } else if (req.url?.startsWith('/items')) res.end(JSON.stringify(items))
      else if (req.url === '/login') res.end(JSON.stringify({ user: 'ada' }))
      else res.writeHead(404).end('{}')
    }),
  )
  const proxy = createFetchHandler(
    { '/api': { target: backend.url, record: true } },
    { log: 'silent', recordings: { dir: join(project, 'recs') } },
  )
  const call = async (method: string, path: string, body?: unknown) => {
    const init =
      body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
    const response = await proxy(new Request(`http://localhost:5173${path}`, { method, ...init }))
    await response?.text()
  }
  await call('GET', '/api/items')
  await call('GET', '/api/items')
  await call('POST', '/api/items', { name: 'first' })
  await call('GET', '/api/items')
  await call('POST', '/api/login', { user: 'ada', password: 'hunter2' })
  await proxy.close()
  await backend.close()
}

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'cdp-export-msw-'))
  out = join(await mkdtemp(join(here, 'tmp-export-msw-')), 'handlers.ts')
  await mkdir(join(project, 'mocks'))
  await writeFile(join(project, 'mocks', 'GET _health.json'), JSON.stringify({ json: { ok: true } }))
  await writeFile(
    join(project, 'cors-dev-proxy.config.json'),
    JSON.stringify({
      routes: { '/api': { target: 'http://127.0.0.1:9', replay: 'only', mocks: 'mocks' } },
      recordings: { dir: 'recs' },
    }),
  )
  await recordSession()
})

afterAll(async () => {
  await rm(project, { recursive: true, force: true })
  await rm(join(out, '..'), { recursive: true, force: true })
})

describe('export-msw', () => {
  it('writes one module, its path printed, the same bytes on a second run', async () => {
    const first = await run(['--route', '/api', '--out', out])
    expect(first).toMatchObject({ code: 0 })
    expect(first.stdout).toContain(`wrote ${out}: MSW handlers for /api from 2 recording files and 1 mock`)
    expect(first.stderr).toMatch(/left out: POST-login\.[0-9a-f]{16}\.json: 1 answer\(s\) .* with a secret/)
    const text = await readFile(out, 'utf8')
    expect(await run(['--route', '/api', '--out', out])).toMatchObject({ code: 0 })
    expect(await readFile(out, 'utf8')).toBe(text)
    // No secret, and nothing from Node: the module runs in the browser too.
    expect(text).not.toContain('hunter2')
    expect([...text.matchAll(/^import .* from '([^']+)'$/gm)].map((match) => match[1])).toEqual([
      '@cors-dev-proxy/core/replay-session',
      'msw',
    ])
  })

  it('answers the recorded requests under msw/node in the recorded order and state', async () => {
    const module = (await import(/* @vite-ignore */ out)) as typeof import('./export-msw-module.js')
    const server = setupServer(...module.handlers)
    server.listen({ onUnhandledRequest: 'error' })
    try {
      const list = async () => (await fetch('http://localhost:5173/api/items')).json()
      // Recorded: list, list, create, list. Replayed with a list more before the create.
      for (let time = 0; time < 3; time++) expect(await list()).toEqual([])
      const created = await fetch('http://localhost:5173/api/items', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'first' }),
      })
      expect(created.status).toBe(201)
      expect(created.headers.get('x-cors-dev-proxy-replayed')).toMatch(/^POST-items\./)
      expect(await list()).toEqual([{ id: 1, name: 'first' }])
      expect(await (await fetch('http://localhost:5173/api/health')).json()).toEqual({ ok: true })
      // Another body has no recording: MSW's onUnhandledRequest ('error' here) decides, before
      // the request could reach the server listening at its origin.
      const network = await listen(createServer((_req, res) => res.end('from the network')))
      try {
        await expect(
          fetch(`${network.url}/api/items`, { method: 'POST', body: '{"name":"other"}' }),
        ).rejects.toThrow(/onUnhandledRequest/)
      } finally {
        await network.close()
      }
      // A session of its own starts over: the list is empty again.
      module.resetReplay()
      expect(await list()).toEqual([])
    } finally {
      server.close()
    }
  })

  it('refuses a missing --route and a route the config does not have, with a working example', async () => {
    await expect(run(['--out', out])).rejects.toThrow(UsageError)
    await expect(run(['--route', '/nope'])).rejects.toMatchObject({
      message: "route '/nope' is not in cors-dev-proxy.config.json (its routes: /api)",
      example: 'cors-dev-proxy export-msw --route /api',
    })
  })
})
