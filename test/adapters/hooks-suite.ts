import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AdapterHarness, DevServerHandle } from './adapter-harness.js'
import { send } from './clients.js'
import { type EchoBody, startTargetServer, type TargetServer } from './target-server.js'

/**
 * The per-request options through a real dev server: the names users bring from Vite's
 * `server.proxy` (`configure`, `bypass`) and http-proxy-middleware (`on`, `router`,
 * `pathFilter`, a response interceptor as `transformResponse`). Runs on the in-process
 * harnesses: functions cannot travel to a config file in another process.
 */
export function describeHooks(harness: AdapterHarness): void {
  describe(`${harness.name}: hooks and per-request decisions`, () => {
    let target: TargetServer
    let other: TargetServer
    let server: DevServerHandle

    beforeAll(async () => {
      target = await startTargetServer()
      other = await startTargetServer()
      server = await harness.start({
        routes: {
          '/signed': {
            target: target.url,
            on: {
              proxyReq: (proxyReq) => proxyReq.setHeader('authorization', 'Bearer dev-token'),
              proxyRes: (proxyRes) => {
                proxyRes.headers['x-hooked'] = String(proxyRes.statusCode)
              },
            },
          },
          '/configured': {
            target: target.url,
            configure: (proxy) => {
              proxy.on('proxyReq', (proxyReq, req) => proxyReq.setHeader('x-configured', String(req.method)))
            },
          },
          '/tenant': {
            target: target.url,
            router: (req) => (req.headers['x-tenant'] === 'other' ? other.url : undefined),
          },
          // http-proxy-middleware 4: the router changes its own copy of the options.
          '/copy': {
            target: target.url,
            router: (req, _res, options) => {
              if (req.headers['x-tenant'] === 'other') options.headers['x-tenant'] = 'other'
            },
          },
          '/broken': {
            target: target.url,
            pathRewrite: () => {
              throw new Error('no tenant')
            },
          },
          '/filtered': { target: target.url, pathFilter: (path) => path.startsWith('/filtered/api') },
          '/spa': {
            target: target.url,
            bypass: (req) => (req.headers.accept?.includes('text/html') ? '/index.html' : undefined),
          },
          '/rewritten': {
            target: target.url,
            transformResponse: (body) => {
              const echo = JSON.parse(body.toString()) as EchoBody
              return { url: echo.url, rewritten: true }
            },
          },
        },
      })
    })
    afterAll(async () => {
      await server?.close()
      await target?.close()
      await other?.close()
    })

    it('runs on.proxyReq and on.proxyRes around the forwarded request', async () => {
      const res = await send(`${server.origin}/signed/users`)
      expect((JSON.parse(res.body) as EchoBody).headers.authorization).toBe('Bearer dev-token')
      expect(res.headers['x-hooked']).toBe('200')
    })

    it("runs the hooks Vite's configure(proxy) registers", async () => {
      const res = await send(`${server.origin}/configured/x`, { method: 'PUT', body: 'x' })
      expect((JSON.parse(res.body) as EchoBody).headers['x-configured']).toBe('PUT')
    })

    it('sends a request to the target a router picks for it', async () => {
      const before = other.requests.length
      const routed = await send(`${server.origin}/tenant/x`, { headers: { 'x-tenant': 'other' } })
      expect(routed.status).toBe(200)
      expect(other.requests.length).toBe(before + 1)
      expect(other.requests.at(-1)?.url).toBe('/x')
    })

    it('applies what a router sets on its copy of the options to that request only', async () => {
      const set = await send(`${server.origin}/copy/x`, { headers: { 'x-tenant': 'other' } })
      const unset = await send(`${server.origin}/copy/x`)
      expect((JSON.parse(set.body) as EchoBody).headers['x-tenant']).toBe('other')
      expect((JSON.parse(unset.body) as EchoBody).headers['x-tenant']).toBeUndefined()
    })

    it('answers 502 naming a pathRewrite that throws, and sends nothing', async () => {
      const before = target.requests.length
      const res = await send(`${server.origin}/broken/x`)
      expect(res.status).toBe(502)
      expect(res.body).toContain("routes['/broken'].pathRewrite threw: no tenant")
      expect(target.requests.length).toBe(before)
    })

    it('leaves what pathFilter declines, and what bypass redirects, to the dev server', async () => {
      const before = target.requests.length
      const declined = await send(`${server.origin}/filtered/other`)
      const page = await send(`${server.origin}/spa/deep/link`, { headers: { accept: 'text/html' } })
      expect(declined.headers['x-answered-by']).toBeUndefined()
      expect(page.headers['x-answered-by']).toBeUndefined()
      expect(target.requests.length).toBe(before)
      const taken = await send(`${server.origin}/filtered/api/x`)
      expect(taken.headers['x-answered-by']).toBe('target')
      const api = await send(`${server.origin}/spa/data`, { headers: { accept: 'application/json' } })
      expect(api.headers['x-answered-by']).toBe('target')
    })

    it('replaces an answer with what transformResponse returns', async () => {
      const res = await send(`${server.origin}/rewritten/items?x=1`)
      expect(JSON.parse(res.body)).toEqual({ url: '/items?x=1', rewritten: true })
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    })
  })
}
