// `/__cors-dev-proxy/mock`: "Mock this answer" over HTTP, as the inspector page calls it, on a
// dev server whose root is a temporary folder.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen, openRequest, type StartedServer, sendRequest } from '../../../../../test/support/servers.js'
import { createDevServerProxy, type DevServerProxy, resolveOptions } from '../../../src/adapter.js'

let root: string
let target: StartedServer<Server>
let dev: { url: string; close: () => Promise<void> }
let proxy: DevServerProxy

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'cors-dev-proxy-mock-endpoint-'))
  target = await listen(
    createServer((req, res) => {
      res.setHeader('content-type', 'application/json')
      res.setHeader('content-encoding', 'gzip')
      res.setHeader('x-total', '2')
      res.end(gzipSync(JSON.stringify({ url: req.url, password: 'hunter2' })))
    }),
  )
  const server = createServer()
  const routes = { '/api': { target: target.url, mocks: true as const, cors: true }, '/plain': target.url }
  proxy = createDevServerProxy(resolveOptions(routes, { log: 'silent' }), { server, root })
  server.on('request', (req, res) => proxy.middleware(req, res, () => res.writeHead(404).end()))
  dev = await listen(server)
})
afterAll(async () => {
  await proxy?.close()
  await dev?.close()
  await target?.close()
  await rm(root, { recursive: true, force: true })
})

const own = () => ({ origin: dev.url, 'content-type': 'application/json' })
const post = (body: string, headers: Record<string, string> = own()) =>
  sendRequest(`${dev.url}/__cors-dev-proxy/mock`, { method: 'POST', headers, body })
/** The id of the last exchange of `url`, once the recorder has it (a response is recorded when it closes). */
async function idOf(url: string): Promise<number> {
  const find = async () => {
    const list = JSON.parse((await sendRequest(`${dev.url}/__cors-dev-proxy/exchanges`)).body.toString()) as {
      id: number
      url: string
    }[]
    return list.findLast((exchange) => exchange.url === url)?.id
  }
  await expect.poll(find).toBeDefined()
  return (await find()) as number
}

describe('/__cors-dev-proxy/mock', () => {
  it('lists the routes with mocks and their folders', async () => {
    const answer = await sendRequest(`${dev.url}/__cors-dev-proxy/mock`)
    expect(JSON.parse(answer.body.toString())).toEqual({
      routes: [{ route: '/api', folder: join('cors-dev-proxy', 'mocks', 'api') }],
    })
  })

  it('refuses what is not a same-origin JSON POST of a known exchange of a route with mocks', async () => {
    expect(
      (await post('{"id":1}', { origin: 'http://evil.test', 'content-type': 'application/json' })).status,
    ).toBe(403)
    expect((await post('{"id":1}', { origin: dev.url, 'content-type': 'text/plain' })).status).toBe(415)
    expect((await post('{"id":"x"}')).status).toBe(400)
    expect((await post('{"id":999999}')).status).toBe(404)
    await sendRequest(`${dev.url}/plain/a`)
    const plain = await post(JSON.stringify({ id: await idOf('/plain/a') }))
    expect(plain.status).toBe(409)
    expect(JSON.parse(plain.body.toString()).error).toBe(
      "route '/plain' has no mocks: add mocks: true to it, and this answer can be one",
    )
    await sendRequest(`${dev.url}/api/no-inspector`)
    const unkept = await post(JSON.stringify({ id: await idOf('/api/no-inspector') }))
    expect(JSON.parse(unkept.body.toString()).error).toMatch(
      /^its body was not kept: bodies are copied only while an inspector is open/,
    )
  })

  it('writes the exchange as its exact path, decoded, masked, without our headers; the next request answers from it', async () => {
    const events = await openRequest(`${dev.url}/__cors-dev-proxy/events`)
    try {
      await sendRequest(`${dev.url}/api/users/42?full=1`, { headers: { origin: 'http://localhost:5173' } })
      const written = await post(JSON.stringify({ id: await idOf('/api/users/42?full=1') }))
      const file = join('cors-dev-proxy', 'mocks', 'api', 'GET _users_42.json')
      expect(written.status).toBe(201)
      expect(JSON.parse(written.body.toString())).toEqual({ key: 'GET /users/42', file })
      expect(JSON.parse(await readFile(join(root, file), 'utf8'))).toEqual({
        status: 200,
        headers: { 'content-type': 'application/json', 'x-total': '2' },
        json: { url: '/users/42?full=1', password: '[masked]' },
      })
      const next = await sendRequest(`${dev.url}/api/users/42?again`, {
        headers: { origin: 'http://localhost:5173' },
      })
      expect(next.headers['x-cors-dev-proxy-mocked']).toBe(file)
      expect(next.headers['access-control-allow-origin']).toBe('http://localhost:5173')
      expect(JSON.parse(next.body.toString())).toEqual({ url: '/users/42?full=1', password: '[masked]' })
      const againId = await idOf('/api/users/42?again')
      const exchanges = JSON.parse(
        (await sendRequest(`${dev.url}/__cors-dev-proxy/exchanges`)).body.toString(),
      ) as {
        id: number
      }[]
      expect(exchanges.find((exchange) => exchange.id === againId)).toMatchObject({
        upstreamUrl: `mocked by ${file}`,
        upstreamProtocol: 'mock',
        mockedFrom: file,
      })
      const again = await post(JSON.stringify({ id: againId }))
      expect(JSON.parse(again.body.toString()).error).toBe('this answer came from a mock already')
    } finally {
      events.destroy()
    }
  })
})
