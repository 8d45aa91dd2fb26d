// Mocks beside real routes: per-path answers from the config, from functions and from files in
// the route's mocks folder (read again when they change), everything else forwarded; the mocked
// answers get the route's CORS policy, cookie and redirect rewriting, and reach serverFetch and
// the Fetch front end too. Real servers on 127.0.0.1 port 0.
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../../test/support/proxy-server.js'
import {
  captureLogSink,
  listen,
  type StartedServer,
  sendHttp2Request,
  sendRequest,
} from '../../../../../test/support/servers.js'
import { createDevServerProxy, type DevServerProxy, resolveOptions } from '../../../src/adapter.js'
import { createFetchHandler, type Routes, SERVER_URL_VARIABLE, serverFetch } from '../../../src/index.js'

const PAGE = 'http://localhost:5173'

let root: string
let target: StartedServer<Server>
let dev: { url: string; close: () => Promise<void> }
let proxy: DevServerProxy
const sink = captureLogSink()
const seen: string[] = []

/** The routes of the dev server (and of the Fetch handler): each kind of mock on a route with a real target. */
function routesFor(targetUrl: string): Routes {
  return {
    '/api': {
      target: targetUrl,
      cors: { origin: PAGE, credentials: true },
      mocks: {
        'GET /users/:id': { json: { id: 1, name: 'Ada' }, headers: { 'x-from': 'config' } },
        'GET /login': {
          status: 302,
          headers: {
            location: `${targetUrl}/welcome?x=1`,
            'set-cookie': ['sid=abc; Domain=api.example.com; Path=/', 'theme=dark; Domain=api.example.com'],
          },
        },
        'POST /orders/:id': async ({ params, query, body, method }) =>
          (body as { fake?: boolean }).fake
            ? { status: 201, json: { id: params.id, method, body, page: query.get('page') } }
            : undefined,
        '/broken': () => {
          throw new Error('no database here')
        },
        'GET /wrong': () => ({ status: 'fine' }) as never,
      },
    },
    '/files': { target: targetUrl, mocks: true },
  }
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'cors-dev-proxy-mocks-'))
  target = await listen(
    createServer((req, res) => {
      let body = ''
      req.setEncoding('utf8')
      req.on('data', (chunk: string) => (body += chunk))
      req.on('end', () => {
        seen.push(`${req.method} ${req.url}`)
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ from: 'target', method: req.method, url: req.url, body }))
      })
    }),
  )
  const server = createServer()
  proxy = createDevServerProxy(resolveOptions(routesFor(target.url), { logger: sink, log: 'debug' }), {
    server,
    root,
  })
  server.on('request', (req, res) => proxy.middleware(req, res, () => res.writeHead(404).end()))
  dev = await listen(server)
})
afterAll(async () => {
  await proxy?.close()
  await dev?.close()
  await target?.close()
  await rm(root, { recursive: true, force: true })
})

const json = (body: Buffer) => JSON.parse(body.toString()) as Record<string, unknown>

describe('mocks from the config, beside the target', () => {
  it('answers a mocked path itself, marked, and forwards every other path to the target', async () => {
    const mocked = await sendRequest(`${dev.url}/api/users/7`)
    expect(mocked.status).toBe(200)
    expect(json(mocked.body)).toEqual({ id: 1, name: 'Ada' })
    expect(mocked.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(mocked.headers['x-from']).toBe('config')
    expect(mocked.headers['x-cors-dev-proxy-mocked']).toBe("'GET /users/:id'")
    const real = await sendRequest(`${dev.url}/api/users`)
    expect(json(real.body)).toMatchObject({ from: 'target', url: '/users' })
    expect(real.headers['x-cors-dev-proxy-mocked']).toBeUndefined()
    const otherMethod = await sendRequest(`${dev.url}/api/users/7`, { method: 'DELETE' })
    expect(json(otherMethod.body)).toMatchObject({ from: 'target', method: 'DELETE', url: '/users/7' })
    expect(seen).not.toContain('GET /users/7')
    expect(sink.text()).toMatch(/GET \/api\/users\/7 → mocked by 'GET \/users\/:id' 200/)
  })

  it("gives mocked answers the route's CORS policy, and answers the preflight itself", async () => {
    const mocked = await sendRequest(`${dev.url}/api/users/7`, { headers: { origin: PAGE } })
    expect(mocked.headers['access-control-allow-origin']).toBe(PAGE)
    expect(mocked.headers['access-control-allow-credentials']).toBe('true')
    const preflight = await sendRequest(`${dev.url}/api/orders/1`, {
      method: 'OPTIONS',
      headers: {
        origin: PAGE,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers['x-cors-dev-proxy-mocked']).toBeUndefined()
    const refused = await sendRequest(`${dev.url}/api/users/7`, { headers: { origin: 'http://evil.test' } })
    expect(refused.headers['access-control-allow-origin']).toBeUndefined()
  })

  it("rewrites a mocked answer's cookies and redirect as a forwarded answer's", async () => {
    const answer = await sendRequest(`${dev.url}/api/login`)
    expect(answer.status).toBe(302)
    expect(answer.headers.location).toBe(`${dev.url}/api/welcome?x=1`)
    expect(answer.headers['set-cookie']).toEqual(['sid=abc; Path=/', 'theme=dark'])
  })

  it('asks a function with the params, query and JSON body, and forwards the body when it passes', async () => {
    const headers = { 'content-type': 'application/json' }
    const mocked = await sendRequest(`${dev.url}/api/orders/42?page=3`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ fake: true }),
    })
    expect(mocked.status).toBe(201)
    expect(json(mocked.body)).toEqual({ id: '42', method: 'POST', body: { fake: true }, page: '3' })
    const passed = await sendRequest(`${dev.url}/api/orders/43`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ fake: false, items: [1, 2] }),
    })
    expect(json(passed.body)).toEqual({
      from: 'target',
      method: 'POST',
      url: '/orders/43',
      body: JSON.stringify({ fake: false, items: [1, 2] }),
    })
  })

  it('answers 500 naming the key when a function throws or returns what is not an answer, and keeps serving', async () => {
    const thrown = await sendRequest(`${dev.url}/api/broken`)
    expect(thrown.status).toBe(500)
    expect(thrown.body.toString()).toBe(
      "cors-dev-proxy: mock '/broken' of route '/api' threw: no database here\n",
    )
    const wrong = await sendRequest(`${dev.url}/api/wrong`)
    expect(wrong.status).toBe(500)
    expect(wrong.body.toString()).toContain(
      "mock 'GET /wrong' of route '/api' cannot be used: status must be a whole number from 200 to 599",
    )
    expect(sink.lines.filter((line) => line.level === 'error').map((line) => line.message)).toEqual(
      expect.arrayContaining([
        expect.stringContaining("mock '/broken' of route '/api' threw: no database here"),
      ]),
    )
    expect((await sendRequest(`${dev.url}/api/users/7`)).status).toBe(200)
  })
})

describe('mock files, read again when they change', () => {
  const folder = () => join(root, 'cors-dev-proxy', 'mocks', 'files')
  const file = (name: string) => join(folder(), name)

  it('forwards until a file exists, then answers from it; an edit changes the very next answer', async () => {
    expect(json((await sendRequest(`${dev.url}/files/users/5`)).body)).toMatchObject({ from: 'target' })
    await mkdir(folder(), { recursive: true })
    await writeFile(file('GET _users_{id}.json'), JSON.stringify({ json: { version: 0 } }))
    const first = await sendRequest(`${dev.url}/files/users/5`)
    expect(json(first.body)).toEqual({ version: 0 })
    expect(first.headers['x-cors-dev-proxy-mocked']).toBe(
      join('cors-dev-proxy', 'mocks', 'files', 'GET _users_{id}.json'),
    )
    // Edits in place, of the same size, one right after the other: each is the next answer.
    for (let version = 1; version <= 5; version += 1) {
      await writeFile(file('GET _users_{id}.json'), JSON.stringify({ json: { version } }))
      expect(json((await sendRequest(`${dev.url}/files/users/5`)).body)).toEqual({ version })
    }
    // The most specific file wins; a removed file gives the path back to the target.
    await writeFile(file('GET _users_5.json'), JSON.stringify({ status: 404, json: { error: 'gone' } }))
    expect((await sendRequest(`${dev.url}/files/users/5`)).status).toBe(404)
    await unlink(file('GET _users_5.json'))
    await unlink(file('GET _users_{id}.json'))
    expect(json((await sendRequest(`${dev.url}/files/users/5`)).body)).toMatchObject({ from: 'target' })
  })

  it('answers 500 naming a file that is not JSON or not an answer, and ignores files of other names', async () => {
    await mkdir(folder(), { recursive: true })
    await writeFile(file('GET _bad.json'), '{ "json": ')
    const bad = await sendRequest(`${dev.url}/files/bad`)
    expect(bad.status).toBe(500)
    expect(bad.body.toString()).toMatch(
      /^cors-dev-proxy: mock cors-dev-proxy\/mocks\/files\/GET _bad\.json of route '\/files' cannot be used: it is not JSON/,
    )
    await writeFile(file('GET _bad.json'), JSON.stringify({ stauts: 201 }))
    expect((await sendRequest(`${dev.url}/files/bad`)).body.toString()).toContain(
      'cannot be used: stauts is not an answer field (did you mean `status`?)',
    )
    await writeFile(file('notes.txt'), 'not a mock')
    expect(json((await sendRequest(`${dev.url}/files/notes.txt`)).body)).toMatchObject({ from: 'target' })
  })
})

describe('mocks reach every front end', () => {
  it('answers an HTTP/2 client, repeated fields joined but Set-Cookie lines kept apart', async () => {
    const h2 = await serveProxy(
      {
        '/api': {
          target: target.url,
          mocks: {
            'GET /two': { headers: { 'x-many': ['a', 'b'], 'set-cookie': ['a=1', 'b=2'] }, body: 'two' },
          },
        },
      },
      { log: 'silent' },
      'h2c',
    )
    try {
      const answer = await sendHttp2Request(`${h2.url}/api/two`)
      expect(answer.status).toBe(200)
      expect(answer.headers['x-many']).toBe('a, b')
      expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2'])
      expect(answer.body.toString()).toBe('two')
    } finally {
      await h2.close()
    }
  })

  it('answers serverFetch from the mocks, as the page', async () => {
    const before = process.env[SERVER_URL_VARIABLE]
    process.env[SERVER_URL_VARIABLE] = dev.url
    try {
      const answer = await serverFetch('/api/users/9')
      expect(answer.headers.get('x-cors-dev-proxy-mocked')).toBe("'GET /users/:id'")
      expect(await answer.json()).toEqual({ id: 1, name: 'Ada' })
    } finally {
      if (before === undefined) delete process.env[SERVER_URL_VARIABLE]
      else process.env[SERVER_URL_VARIABLE] = before
    }
  })

  it('answers from the mocks behind the Fetch handler, and forwards the rest', async () => {
    const handler = createFetchHandler(routesFor(target.url), { log: 'silent' })
    try {
      const mocked = (await handler(
        new Request('http://localhost/api/users/3', { headers: { origin: PAGE } }),
      )) as Response
      expect(mocked.headers.get('x-cors-dev-proxy-mocked')).toBe("'GET /users/:id'")
      expect(mocked.headers.get('access-control-allow-origin')).toBe(PAGE)
      expect(await mocked.json()).toEqual({ id: 1, name: 'Ada' })
      const created = (await handler(
        new Request('http://localhost/api/orders/8', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ fake: true }),
        }),
      )) as Response
      expect(created.status).toBe(201)
      const real = (await handler(new Request('http://localhost/api/users'))) as Response
      expect(await real.json()).toMatchObject({ from: 'target', url: '/users' })
    } finally {
      await handler.close()
    }
  })

  it("wraps a mocked answer for a JSONP callback on a jsonp route, as the target's", async () => {
    const handler = createFetchHandler(
      { '/api': { target: target.url, jsonp: true, mocks: { 'GET /users/:id': { json: { id: 1 } } } } },
      { log: 'silent' },
    )
    try {
      const wrapped = (await handler(new Request('http://localhost/api/users/3?callback=show'))) as Response
      expect(wrapped.headers.get('content-type')).toMatch(/javascript/)
      expect(await wrapped.text()).toMatch(/show\(\{"id":1\}\)/)
      const plain = (await handler(new Request('http://localhost/api/users/3'))) as Response
      expect(await plain.json()).toEqual({ id: 1 })
    } finally {
      await handler.close()
    }
  })
})
