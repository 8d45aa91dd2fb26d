import { createServer } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../test/support/proxy-server.js'
import { captureLogSink, listen, sendRequest } from '../../../../test/support/servers.js'
import type { RouteOptions } from '../../src/index.js'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** A target that serves only `/api/...` paths (it expects the prefix) and refuses cross-origin pages. */
async function start(route: Omit<RouteOptions, 'target'> = {}) {
  const target = await listen(
    createServer((req, res) => {
      const origin = req.headers.origin
      if (origin !== undefined && origin !== `http://127.0.0.1:${target.port}`) {
        res.writeHead(403).end('bad origin')
        return
      }
      res.writeHead(req.url?.startsWith('/api/') ? 200 : 404).end()
    }),
  )
  cleanup.push(target.close)
  const sink = captureLogSink()
  const proxy = await serveProxy({ '/api': { target: target.url, ...route } }, { logger: sink })
  cleanup.push(proxy.close)
  return { proxy, target, sink }
}

describe('hints about surprising answers', () => {
  it('explains a 404 after prefix removal once per route, with the fix', async () => {
    const { proxy, target, sink } = await start()
    for (let i = 0; i < 3; i++) expect((await sendRequest(`${proxy.url}/api/users?x=${i}`)).status).toBe(404)
    const hints = sink.lines.filter((line) => line.message.includes('answered 404'))
    expect(hints).toHaveLength(1)
    expect(hints[0]?.message).toBe(
      `[cors-dev-proxy] ${target.url} answered 404 for /users; /api was removed from the path (the default). ` +
        "If the server serves /api/users, set `pathRewrite: false` on route '/api'.",
    )
  })

  it('gives no 404 hint when the prefix was kept', async () => {
    const { proxy, sink } = await start({ pathRewrite: false })
    expect((await sendRequest(`${proxy.url}/api/users`)).status).toBe(200)
    expect((await sendRequest(`${proxy.url}/api`)).status).toBe(404)
    expect(sink.text()).not.toContain('answered 404')
  })

  it('explains a 403 to a request whose Origin went up unchanged, once per route; none when it was rewritten', async () => {
    const { proxy, sink } = await start({ pathRewrite: false })
    const own = proxy.url
    expect((await sendRequest(`${proxy.url}/api/x`, { headers: { origin: own } })).status).toBe(200)
    for (let i = 0; i < 2; i++) {
      expect(
        (await sendRequest(`${proxy.url}/api/x`, { headers: { origin: 'http://localhost:4000' } })).status,
      ).toBe(403)
    }
    const hints = sink.lines.filter((line) => line.message.includes('answered 403'))
    expect(hints).toHaveLength(1)
    expect(hints[0]?.message).toContain('whose Origin http://localhost:4000 went to it unchanged')
    expect(hints[0]?.message).toContain(`open the page from the dev server (${own})`)
  })
})
