import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { listen, sendRequest } from '../../../../test/support/servers.js'
import { type HookableResponse, onResponseHead, takesFlatHead } from '../../src/http/response-head.js'
import { createCorsDevProxy } from '../../src/index.js'

/**
 * A head written as a flat `[name, value, …]` list is only safe where `writeHead` takes one:
 * compression middlewares (Storybook's dev server has one) replace `res.writeHead` with a
 * wrapper that reads its headers as an object, and a list then goes out as fields `0`, `1`, ….
 */

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** What such a middleware does: its own writeHead, which knows only the object form. */
function wrapWriteHeadObjectsOnly(res: ServerResponse): void {
  const original = res.writeHead
  res.writeHead = function objectOnly(this: ServerResponse, status: number, ...rest: unknown[]) {
    const headers = rest.find((item) => typeof item === 'object' && item !== null)
    if (headers) for (const [name, value] of Object.entries(headers)) this.setHeader(name, value as string)
    return original.call(this, status)
  } as ServerResponse['writeHead']
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = await listen(createServer(handler))
  cleanup.push(server.close)
  return server.url
}

describe('takesFlatHead', () => {
  it("is true for Node's own writeHead and for the hooks' wrapper, false for another one", async () => {
    const seen: boolean[] = []
    const url = await serve((_req, res) => {
      seen.push(takesFlatHead(res))
      wrapWriteHeadObjectsOnly(res)
      seen.push(takesFlatHead(res))
      onResponseHead(res as unknown as HookableResponse, () => {})
      seen.push(takesFlatHead(res))
      res.writeHead(200, ['x-a', '1', 'x-b', '2'])
      res.end()
    })
    const answer = await sendRequest(url)
    expect(seen).toEqual([true, false, true])
    // The hooks' wrapper folded the list into the response before the object-only one ran.
    expect(answer.headers).toMatchObject({ 'x-a': '1', 'x-b': '2' })
    expect(answer.headers['0']).toBeUndefined()
  })
})

describe('behind a middleware that replaced writeHead', () => {
  it('answers a preflight and relays a proxied head with their real field names', async () => {
    const target = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-from-target': 'yes' })
      res.end(JSON.stringify({ path: req.url }))
    })
    const proxy = createCorsDevProxy(
      { '/api': { target, cors: { maxAge: 321 } }, '/plain': target },
      { log: 'silent' },
    )
    cleanup.push(() => proxy.close())
    const url = await serve((req, res) => {
      wrapWriteHeadObjectsOnly(res)
      proxy.middleware(req, res, () => {
        res.statusCode = 404
        res.end()
      })
    })
    const preflight = await sendRequest(`${url}/api/items`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': 'http://localhost:5173',
      'access-control-max-age': '321',
    })
    expect(preflight.headers['0']).toBeUndefined()

    for (const prefix of ['/api', '/plain']) {
      const get = await sendRequest(`${url}${prefix}/items`)
      expect(get.status).toBe(200)
      expect(get.headers).toMatchObject({ 'content-type': 'application/json', 'x-from-target': 'yes' })
      expect(get.headers['0']).toBeUndefined()
      expect(JSON.parse(get.body.toString())).toEqual({ path: '/items' })
    }
  })
})
