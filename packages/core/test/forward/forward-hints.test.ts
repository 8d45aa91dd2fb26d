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
  it('explains a 404 after prefix removal once per route, when the path with the prefix exists', async () => {
    const { proxy, target, sink } = await start()
    for (let i = 0; i < 3; i++) expect((await sendRequest(`${proxy.url}/api/users?x=${i}`)).status).toBe(404)
    await expect.poll(() => sink.lines.filter((line) => line.message.includes('answered 404')).length).toBe(1)
    const hints = sink.lines.filter((line) => line.message.includes('answered 404'))
    expect(hints[0]?.message).toBe(
      `[cors-dev-proxy] ${target.url} answered 404 for /users, and 200 for /api/users: route '/api' removes its ` +
        "prefix (the default), and the server seems to expect it: set `pathRewrite: false` on route '/api'.",
    )
  })

  it('says nothing about an ordinary 404 (a missing item), and asks the target at most three times', async () => {
    const seen: string[] = []
    const target = await listen(
      createServer((req, res) => {
        seen.push(`${req.method} ${req.url}`)
        res.writeHead(req.url === '/items/1' ? 200 : 404).end()
      }),
    )
    cleanup.push(target.close)
    const sink = captureLogSink()
    const proxy = await serveProxy({ '/api': target.url }, { logger: sink })
    cleanup.push(proxy.close)
    for (let i = 2; i < 8; i++) expect((await sendRequest(`${proxy.url}/api/items/${i}`)).status).toBe(404)
    await expect.poll(() => seen.filter((line) => line.startsWith('HEAD /api/')).length).toBe(3)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(seen.filter((line) => line.startsWith('HEAD /api/'))).toHaveLength(3)
    expect(sink.text()).not.toContain('answered 404')
  })

  it('never probes for a method other than GET or HEAD', async () => {
    const seen: string[] = []
    const target = await listen(
      createServer((req, res) => {
        seen.push(`${req.method} ${req.url}`)
        req.resume()
        res.writeHead(404).end()
      }),
    )
    cleanup.push(target.close)
    const proxy = await serveProxy({ '/api': target.url }, { log: 'silent' })
    cleanup.push(proxy.close)
    await sendRequest(`${proxy.url}/api/items`, { method: 'DELETE' })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(seen).toEqual(['DELETE /items'])
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
