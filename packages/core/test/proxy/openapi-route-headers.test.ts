// A route's `openapi` checks the request as the target gets it: a header the document requires
// and the route supplies (its `headers`, a `proxyReq` hook) is not missing, whether
// the check runs after the exchange or, under `enforce: 'request'`, before the target is asked;
// the same call on a route that does not supply it breaks the document. (A header parameter
// named Authorization is ignored, as OpenAPI 3 says: `auth` is not part of this.)
import { createServer, request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { listen } from '../../../../test/support/servers.js'
import { createCorsDevProxy } from '../../src/index.js'

const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'keyed', version: '1' },
  paths: {
    '/pets': {
      get: {
        parameters: [
          { name: 'x-api-key', in: 'header', required: true, schema: { type: 'string', minLength: 3 } },
        ],
        responses: {
          '200': { description: 'pets', content: { 'application/json': { schema: { type: 'array' } } } },
        },
      },
    },
  },
}

const closers: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

async function start(routes: Parameters<typeof createCorsDevProxy>[0]) {
  const proxy = createCorsDevProxy(routes, { log: 'silent', inspector: true })
  const listening = await listen(
    createServer((req, res) => proxy.middleware(req, res, () => res.writeHead(404).end())),
  )
  closers.push(() => proxy.close(), listening.close)
  return listening.url
}

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'sec-fetch-site': 'same-origin' } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        body += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
      .on('error', reject)
      .end()
  })
}

async function violationsOf(origin: string, count: number) {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const list = JSON.parse((await get(`${origin}/__cors-dev-proxy/exchanges`)).body) as {
      url: string
      violations?: { pointer: string }[]
    }[]
    if (list.length >= count && list.every((one) => one.violations !== undefined)) {
      return Object.fromEntries(list.map((one) => [one.url, one.violations?.map((v) => v.pointer)]))
    }
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error('the exchanges were never all checked')
}

describe('openapi and the headers a route adds', () => {
  it('counts the route’s headers and proxyReq hooks as sent, after the exchange and under enforce', async () => {
    const seen: (string | undefined)[] = []
    const backend = await listen(
      createServer((req, res) => {
        seen.push(req.headers['x-api-key'] as string | undefined)
        res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
      }),
    )
    closers.push(backend.close)
    const openapi = { document: DOCUMENT }
    const origin = await start({
      '/headers': { target: backend.url, openapi, headers: { 'X-Api-Key': 'k-123' } },
      '/hooked': {
        target: backend.url,
        openapi,
        on: { proxyReq: (proxyReq) => proxyReq.setHeader('x-api-key', 'k-456') },
      },
      '/enforced': {
        target: backend.url,
        openapi: { ...openapi, enforce: 'request' },
        headers: { 'x-api-key': 'k-789' },
      },
      '/bare': { target: backend.url, openapi },
      '/bare-enforced': { target: backend.url, openapi: { ...openapi, enforce: 'request' } },
    })
    for (const prefix of ['/headers', '/hooked', '/enforced', '/bare']) {
      expect((await get(`${origin}${prefix}/pets`)).status).toBe(200)
    }
    const refused = await get(`${origin}/bare-enforced/pets`)
    expect(refused.status).toBe(400)
    expect(refused.body).toContain('x-api-key')
    expect(seen).toEqual(['k-123', 'k-456', 'k-789', undefined])
    const byUrl = await violationsOf(origin, 5)
    expect(byUrl['/headers/pets']).toEqual([])
    expect(byUrl['/hooked/pets']).toEqual([])
    expect(byUrl['/enforced/pets']).toEqual([])
    expect(byUrl['/bare/pets']).toEqual(['header.x-api-key'])
  })
})
