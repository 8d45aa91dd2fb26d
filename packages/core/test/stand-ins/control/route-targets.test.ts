import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { captureLogSink, listen, sendRequest } from '../../../../../test/support/servers.js'
import type { Routes } from '../../../src/config/options.js'
import { describeRoutes } from '../../../src/log/describe-routes.js'
import { createFetchHandler } from '../../../src/proxy/create-fetch-handler.js'
import { createDevServerProxy } from '../../../src/proxy/dev-server-proxy.js'
import { resolveProxyOptions as resolveOptions } from '../../../src/proxy/resolve-proxy-options.js'
import { pickTargets } from '../../../src/stand-ins/control/target-overrides.js'

/** A backend that names itself, echoes Host, and redirects `/moved` to its own URL. */
async function startBackend(name: string) {
  const server = createServer((req, res) => {
    if (req.url === '/moved') {
      res.writeHead(302, { location: `http://${req.headers.host}/elsewhere` })
      res.end()
      return
    }
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ backend: name, url: req.url, host: req.headers.host }))
  })
  return listen(server)
}

type Started = Awaited<ReturnType<typeof startBackend>>
let local: Started
let staging: Started
let routes: Routes

/**
 * A bare `http` dev server with the set-up; `close` is its restart's first half. `overrideDir`:
 * where its `cors-dev-proxy.local.json` is read (the working directory otherwise).
 */
async function startDevServer(config: Routes, overrideDir?: string) {
  const server = createServer()
  const sink = captureLogSink()
  const resolved = resolveOptions(config, { log: 'info', logger: sink })
  const picked =
    overrideDir === undefined
      ? resolved
      : { ...resolved, routes: pickTargets(resolved.routes, { cwd: overrideDir, env: {} }) }
  const proxy = createDevServerProxy(picked, { server })
  server.on('request', (req, res) => proxy.middleware(req, res, () => res.end('dev server')))
  const front = await listen(server)
  return {
    url: front.url,
    sink,
    async close() {
      await front.close()
      await proxy.close()
    },
  }
}

const body = (res: { body: Buffer }) => JSON.parse(res.body.toString()) as Record<string, unknown>

beforeAll(async () => {
  local = await startBackend('local')
  staging = await startBackend('staging')
  routes = {
    '/api': { targets: { local: local.url, staging: staging.url } },
    '/slow': { target: local.url, latency: 0 },
  }
})
afterAll(async () => {
  await local?.close()
  await staging?.close()
})

/** A same-origin JSON POST to the control API, as the inspector page sends it. */
function post(url: string, change: unknown, headers: Record<string, string> = {}) {
  return sendRequest(`${url}/__cors-dev-proxy/control`, {
    method: 'POST',
    headers: { origin: url, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(change),
  })
}

describe('targets, switched live', () => {
  it("switches the next request's target, with Host and redirects following it, and forgets it on restart", async () => {
    const dev = await startDevServer(routes)
    try {
      expect(body(await sendRequest(`${dev.url}/api/users`))).toMatchObject({
        backend: 'local',
        url: '/users',
      })
      const view = await sendRequest(`${dev.url}/__cors-dev-proxy/control`)
      expect(body(view).routes).toContainEqual(
        expect.objectContaining({
          route: '/api',
          target: 'local',
          targets: [
            { name: 'local', url: `${local.url}/` },
            { name: 'staging', url: `${staging.url}/` },
          ],
        }),
      )
      const switched = await post(dev.url, { route: '/api', target: 'staging' })
      expect(switched.status).toBe(200)
      expect(body(switched)).toMatchObject({ route: '/api', target: 'staging' })
      const next = body(await sendRequest(`${dev.url}/api/users`))
      expect(next).toMatchObject({ backend: 'staging', host: new URL(staging.url).host })
      // The redirect at staging comes back pointing at the dev server, as at the default target.
      const moved = await sendRequest(`${dev.url}/api/moved`)
      expect(moved.headers.location).toBe(`${dev.url}/api/elsewhere`)
      expect(dev.sink.text()).toContain("control: route '/api' now uses target 'staging', faults none")
    } finally {
      await dev.close()
    }
    const restarted = await startDevServer(routes)
    try {
      expect(body(await sendRequest(`${restarted.url}/api/users`))).toMatchObject({ backend: 'local' })
    } finally {
      await restarted.close()
    }
  })

  it('turns faults on and off live, on a route that opted in', async () => {
    const dev = await startDevServer(routes)
    try {
      const on = await post(dev.url, { route: '/slow', failRate: 1, failWith: 502 })
      expect(body(on)).toMatchObject({ faultsOn: true, faults: { failRate: 1, failWith: 502 } })
      expect(body(await sendRequest(`${dev.url}/__cors-dev-proxy/control`)).faultsOn).toBe(true)
      expect((await sendRequest(`${dev.url}/slow/x`)).status).toBe(502)
      await post(dev.url, { route: '/slow', faultsOn: false })
      expect((await sendRequest(`${dev.url}/slow/x`)).status).toBe(200)
      expect(body(await sendRequest(`${dev.url}/__cors-dev-proxy/control`)).faultsOn).toBe(false)
    } finally {
      await dev.close()
    }
  })

  it('refuses what is not a same-origin JSON change, and says what is wrong with a bad one', async () => {
    const dev = await startDevServer(routes)
    try {
      const foreign = await post(
        dev.url,
        { route: '/api', target: 'staging' },
        { origin: 'http://evil.example' },
      )
      expect(foreign.status).toBe(403)
      const form = await post(dev.url, { route: '/api', target: 'staging' }, { 'content-type': 'text/plain' })
      expect(form.status).toBe(415)
      const unknown = await post(dev.url, { route: '/api', target: 'prod' })
      expect(unknown.status).toBe(400)
      expect(body(unknown).error).toBe(`route '/api' has no target "prod"; its targets: local, staging`)
      expect((await post(dev.url, { route: '/nope', latency: 3 })).status).toBe(404)
      expect(body(await post(dev.url, { route: '/slow', failRate: 2 })).error).toContain(
        'failRate must be a number from 0',
      )
      // Nothing of it changed the route.
      expect(body(await sendRequest(`${dev.url}/api/users`))).toMatchObject({ backend: 'local' })
    } finally {
      await dev.close()
    }
  })
})

describe('a restart', () => {
  const backendOf = async (url: string) => body(await sendRequest(`${url}/api/users`)).backend

  it('forgets the faults set live: the route comes back as configured', async () => {
    const dev = await startDevServer(routes)
    try {
      await post(dev.url, { route: '/slow', latency: 50, failRate: 1, failWith: 502 })
      expect((await sendRequest(`${dev.url}/slow/x`)).status).toBe(502)
    } finally {
      await dev.close()
    }
    const restarted = await startDevServer(routes)
    try {
      expect((await sendRequest(`${restarted.url}/slow/x`)).status).toBe(200)
      const view = body(await sendRequest(`${restarted.url}/__cors-dev-proxy/control`))
      expect(view.faultsOn).toBe(false)
      expect(view.routes).toContainEqual(
        expect.objectContaining({
          route: '/slow',
          faultsOn: true,
          faults: expect.objectContaining({ failRate: 0 }),
        }),
      )
    } finally {
      await restarted.close()
    }
  })

  it('comes back to the target cors-dev-proxy.local.json picks, whatever was switched live', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdp-targets-'))
    writeFileSync(join(dir, 'cors-dev-proxy.local.json'), JSON.stringify({ targets: { '/api': 'staging' } }))
    try {
      const dev = await startDevServer(routes, dir)
      try {
        expect(await backendOf(dev.url)).toBe('staging')
        await post(dev.url, { route: '/api', target: 'local' })
        expect(await backendOf(dev.url)).toBe('local')
      } finally {
        await dev.close()
      }
      const restarted = await startDevServer(routes, dir)
      try {
        expect(await backendOf(restarted.url)).toBe('staging')
      } finally {
        await restarted.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('comes back to the target CORS_DEV_PROXY_TARGETS picks, whatever was switched live', async () => {
    process.env.CORS_DEV_PROXY_TARGETS = '/api=staging'
    try {
      const dev = await startDevServer(routes)
      try {
        expect(await backendOf(dev.url)).toBe('staging')
        await post(dev.url, { route: '/api', target: 'local' })
        expect(await backendOf(dev.url)).toBe('local')
      } finally {
        await dev.close()
      }
      const restarted = await startDevServer(routes)
      try {
        expect(await backendOf(restarted.url)).toBe('staging')
      } finally {
        await restarted.close()
      }
    } finally {
      delete process.env.CORS_DEV_PROXY_TARGETS
    }
  })
})

describe('the start-up pick', () => {
  it('takes cors-dev-proxy.local.json, then CORS_DEV_PROXY_TARGETS over it, and shows it on the startup line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdp-targets-'))
    try {
      const { routes: resolved } = resolveOptions(routes)
      expect(describeRoutes(resolved)).toContain(`/api → ${local.url} (target 'local' of local, staging)`)
      writeFileSync(
        join(dir, 'cors-dev-proxy.local.json'),
        JSON.stringify({ targets: { '/api/': 'staging' } }),
      )
      const fromFile = pickTargets(resolved, { cwd: dir, env: {} })
      expect(describeRoutes(fromFile)).toContain(`/api → ${staging.url} (target 'staging' of local, staging)`)
      const fromEnv = pickTargets(resolved, { cwd: dir, env: { CORS_DEV_PROXY_TARGETS: '/api=local' } })
      expect(fromEnv.find((route) => route.prefix === '/api')?.control?.initial).toBe('local')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('names the route and its known targets for a bad pick', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdp-targets-'))
    try {
      const { routes: resolved } = resolveOptions(routes)
      expect(() =>
        pickTargets(resolved, { cwd: dir, env: { CORS_DEV_PROXY_TARGETS: '/api=stagin' } }),
      ).toThrow(
        "[cors-dev-proxy] CORS_DEV_PROXY_TARGETS picks 'stagin' for route '/api', which knows the targets 'local', 'staging'\n  Fix it like this: CORS_DEV_PROXY_TARGETS=/api=local",
      )
      expect(() =>
        pickTargets(resolved, { cwd: dir, env: { CORS_DEV_PROXY_TARGETS: '/slow=local' } }),
      ).toThrow("names route '/slow', which has no `targets` (routes with targets: '/api')")
      expect(() => pickTargets(resolved, { cwd: dir, env: { CORS_DEV_PROXY_TARGETS: 'staging' } })).toThrow(
        'write <route prefix>=<target name> pairs',
      )
      writeFileSync(join(dir, 'cors-dev-proxy.local.json'), '{ targets: ')
      expect(() => pickTargets(resolved, { cwd: dir, env: {} })).toThrow(
        'cors-dev-proxy.local.json is not JSON',
      )
      // resolveOptions reads the environment itself.
      process.env.CORS_DEV_PROXY_TARGETS = '/api=staging'
      try {
        expect(resolveOptions(routes).routes.find((route) => route.prefix === '/api')?.control?.initial).toBe(
          'staging',
        )
      } finally {
        delete process.env.CORS_DEV_PROXY_TARGETS
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the Fetch front end', () => {
  it('shares the step: an injected fault and the target in use', async () => {
    const handler = createFetchHandler(
      {
        '/api': { targets: { staging: staging.url, local: local.url } },
        '/flaky': { target: local.url, failRate: 1, failWith: 500 },
      },
      { log: 'silent' },
    )
    try {
      const failed = await handler(new Request('http://dev.test/flaky/x'))
      expect(failed?.status).toBe(500)
      expect(failed?.headers.get('x-cors-dev-proxy-fault')).toBe('failRate; 500')
      const answer = await handler(new Request('http://dev.test/api/users'))
      expect(await answer?.json()).toMatchObject({ backend: 'staging' })
    } finally {
      await handler.close()
    }
  })
})
