import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../../test/support/proxy-server.js'
import { collectBody, listen, sendRequest } from '../../../../../test/support/servers.js'
import { resolveOptions } from '../../../src/config/resolve-options.js'
import { importHar } from '../../../src/stand-ins/recordings/har-import.js'
import type { MatchOption } from '../../../src/stand-ins/recordings/options/route-match-options.js'

/*
 * A route's `match`: query keys left out, headers the key holds, a body that holds the recorded
 * one, a function that decides. Recorded through a real proxy from a backend that echoes what it
 * got, replayed with `replay: 'only'`. Real servers on 127.0.0.1 port 0.
 */

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cdp-match-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

type Call = readonly [method: string, path: string, headers?: Record<string, string>, body?: string]

async function record(match: MatchOption | undefined, calls: readonly Call[]): Promise<void> {
  let call = 0
  const target = await listen(
    createServer(async (req, res) => {
      const body = (await collectBody(req)).toString()
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ call: ++call, url: req.url, tenant: req.headers['x-tenant'] ?? null, body }))
    }),
  )
  const proxy = await serveProxy(
    { '/api': { target: target.url, record: true, match } },
    { log: 'silent', recordings: { dir } },
  )
  for (const [method, path, headers, body] of calls)
    await sendRequest(`${proxy.url}${path}`, { method, headers, body })
  await proxy.close()
  await target.close()
}

async function replay(
  match: MatchOption | undefined,
  calls: readonly Call[],
): Promise<{ status: number; call?: number }[]> {
  const proxy = await serveProxy(
    { '/api': { target: 'http://127.0.0.1:9', replay: 'only', match } },
    { log: 'silent', recordings: { dir } },
  )
  const answers: { status: number; call?: number }[] = []
  for (const [method, path, headers, body] of calls) {
    const answer = await sendRequest(`${proxy.url}${path}`, { method, headers, body })
    const data = answer.status === 200 ? (JSON.parse(answer.body.toString()) as { call: number }) : undefined
    answers.push({ status: answer.status, ...(data === undefined ? {} : { call: data.call }) })
  }
  await proxy.close()
  return answers
}

async function files(): Promise<{ request: { path: string; headers?: Record<string, string> } }[]> {
  const names = (await readdir(join(dir, 'api'))).sort()
  return Promise.all(names.map(async (name) => JSON.parse(await readFile(join(dir, 'api', name), 'utf8'))))
}

const JSON_TYPE = { 'content-type': 'application/json' }

describe('match: ignoreQuery', () => {
  it('leaves the named query keys out when recording and when replaying', async () => {
    const match = { ignoreQuery: ['_t', 'timestamp'] }
    await record(match, [['GET', '/api/items?page=2&_t=111']])
    expect((await files()).map((file) => file.request.path)).toEqual(['/items?page=2'])
    expect(await replay(match, [['GET', '/api/items?_t=999&page=2&timestamp=5']])).toEqual([
      { status: 200, call: 1 },
    ])
    // Another page is another request.
    expect(await replay(match, [['GET', '/api/items?page=3&_t=1']])).toEqual([{ status: 404 }])
  })

  it('keys the requests import-har writes by the same rules', async () => {
    const match = { ignoreQuery: ['_t'] }
    const resolved = resolveOptions(
      { '/api': { target: 'http://localhost:3000', match } },
      { recordings: { dir } },
    )
    const route = resolved.routes[0]
    const har = {
      log: {
        entries: [
          {
            startedDateTime: '2026-12-01T10:00:00.000Z',
            request: { method: 'GET', url: 'http://localhost:5173/api/items?page=2&_t=5', headers: [] },
            response: {
              status: 200,
              headers: [],
              content: { text: '{"call":7}', mimeType: 'application/json' },
            },
          },
        ],
      },
    }
    const sink = { info: () => {}, warn: () => {}, error: () => {} }
    await importHar(
      har,
      '/api',
      resolved.recordings,
      sink,
      dir,
      route?.kind === 'forward' ? route.match : undefined,
    )
    expect(await replay(match, [['GET', '/api/items?_t=99&page=2']])).toEqual([{ status: 200, call: 7 }])
  })

  it('tells apart what differs in an ignored key without the rule', async () => {
    await record(undefined, [['GET', '/api/items?page=2&_t=111']])
    expect(await replay(undefined, [['GET', '/api/items?page=2&_t=999']])).toEqual([{ status: 404 }])
  })
})

describe('match: matchHeaders', () => {
  it('keys the named header only: one file per tenant, any other header ignored', async () => {
    const match = { matchHeaders: ['X-Tenant'] }
    await record(match, [
      ['GET', '/api/items', { 'x-tenant': 'a', 'x-trace': '1' }],
      ['GET', '/api/items', { 'x-tenant': 'b', 'x-trace': '2' }],
    ])
    expect(
      (await files())
        .map((file) => file.request.headers)
        .sort((a, b) => (a?.['x-tenant'] ?? '').localeCompare(b?.['x-tenant'] ?? '')),
    ).toEqual([{ 'x-tenant': 'a' }, { 'x-tenant': 'b' }])
    expect(
      await replay(match, [
        ['GET', '/api/items', { 'x-tenant': 'b', 'x-trace': '9' }],
        ['GET', '/api/items', { 'x-tenant': 'a' }],
        ['GET', '/api/items', { 'x-tenant': 'c' }],
      ]),
    ).toEqual([{ status: 200, call: 2 }, { status: 200, call: 1 }, { status: 404 }])
  })

  it('holds no header unless named: two tenants share one file without the rule', async () => {
    await record(undefined, [
      ['GET', '/api/items', { 'x-tenant': 'a' }],
      ['GET', '/api/items', { 'x-tenant': 'b' }],
    ])
    expect(await files()).toHaveLength(1)
  })

  it('keeps a secret header named by matchHeaders off the disk, and still tells its values apart', async () => {
    const match = { matchHeaders: ['x-api-key'] }
    await record(match, [
      ['GET', '/api/items', { 'x-api-key': 'key-one-123' }],
      ['GET', '/api/items', { 'x-api-key': 'key-two-456' }],
    ])
    const text = (
      await Promise.all(
        (await readdir(join(dir, 'api'))).map((name) => readFile(join(dir, 'api', name), 'utf8')),
      )
    ).join('\n')
    expect(text).not.toContain('key-one-123')
    expect(text).not.toContain('key-two-456')
    expect(
      await replay(match, [
        ['GET', '/api/items', { 'x-api-key': 'key-two-456' }],
        ['GET', '/api/items', { 'x-api-key': 'key-one-123' }],
        ['GET', '/api/items', { 'x-api-key': 'key-three' }],
      ]),
    ).toEqual([{ status: 200, call: 2 }, { status: 200, call: 1 }, { status: 404 }])
  }, 30_000)
})

describe("match: body: 'subset'", () => {
  it('matches a request whose JSON body holds every recorded field', async () => {
    const match = { body: 'subset' } as const
    await record(match, [
      ['POST', '/api/search', JSON_TYPE, '{"q":"ada"}'],
      ['POST', '/api/search', JSON_TYPE, '{"q":"ada","filter":{"tag":"x"}}'],
    ])
    expect(
      await replay(match, [
        ['POST', '/api/search', JSON_TYPE, '{"q":"ada","requestId":"r-1","at":12}'],
        ['POST', '/api/search', JSON_TYPE, '{"filter":{"tag":"x","n":1},"q":"ada","requestId":"r-2"}'],
        ['POST', '/api/search', JSON_TYPE, '{"q":"bob","requestId":"r-3"}'],
      ]),
    ).toEqual([{ status: 200, call: 1 }, { status: 200, call: 2 }, { status: 404 }])
    // Exact bodies only without the rule.
    expect(
      await replay(undefined, [['POST', '/api/search', JSON_TYPE, '{"q":"ada","requestId":"r-1"}']]),
    ).toEqual([{ status: 404 }])
  })
})

describe('match: a function', () => {
  it('decides which recording answers', async () => {
    const match = (request: { method: string; path: string }, recorded: { method: string; path: string }) =>
      request.method === recorded.method && request.path.startsWith(recorded.path.replace(/\/\d+$/, '/'))
    await record(undefined, [['GET', '/api/users/1?x=1']])
    expect(
      await replay(match, [
        ['GET', '/api/users/42?y=2'],
        ['POST', '/api/users/42'],
      ]),
    ).toEqual([{ status: 200, call: 1 }, { status: 404 }])
  })
})

describe('match: validation', () => {
  it.each([
    [{ ignoreQuery: '_t' }, "routes['/api'].match.ignoreQuery"],
    [{ matchHeaders: ['x tenant'] }, "routes['/api'].match.matchHeaders"],
    [{ body: 'partial' }, "routes['/api'].match.body"],
    [{ ignoreHeaders: ['x'] }, "routes['/api'].match.ignoreHeaders"],
    ['subset', "routes['/api'].match"],
  ])('refuses %j, naming %s and a valid fix', (match, option) => {
    expect(() =>
      resolveOptions({ '/api': { target: 'http://localhost:3000', match: match as never } }),
    ).toThrow(expect.objectContaining({ option, message: expect.stringContaining('Fix it like this: ') }))
  })
})
