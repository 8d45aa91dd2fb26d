import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { CorsDevProxyConfig, RouteOptions } from '@cors-dev-proxy/core'
import { resolveOptions } from '@cors-dev-proxy/core/adapter'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readEvents, send } from '../../../../test/parity/parity-client.js'
import { startDevProxy } from '../../../../test/parity/start-dev-proxy.js'
import { type RunningProxy, startCaddy, startNginx } from '../../../../test/support/reverse-proxy.js'
import { listen, type StartedServer } from '../../../../test/support/servers.js'
import { localhostCertificate } from '../../../../test/support/tls.js'
import { unclaimedPort } from '../../../../test/support/unclaimed-port.mjs'
import { renderCaddy } from '../../src/export/caddy.js'
import { renderNginx } from '../../src/export/nginx.js'

/*
 * The exports at work on what the mock backend of the parity suite does not send: a stream
 * without `X-Accel-Buffering`, Set-Cookie lines of every shape, a self-signed https target.
 * The dev proxy, nginx and Caddy run the same routes; where they differ, the tests say how and why.
 */

/**
 * Streams in lock step: `?stream=<key>` sends its next chunk only once the client has read the
 * one before (`nextChunk` is called for each chunk the test reads). A proxy that buffers never
 * lets the first chunk through, and the stream never ends; no timing is involved, so a loaded
 * machine cannot make a streaming proxy look like a buffering one.
 */
const lockSteps = new Map<string, () => void>()

/**
 * `?stream=<key>`: three chunks in lock step, as a plain (not event-stream) chunked answer;
 * `?echo`: the request headers as JSON; `?c=...`: these Set-Cookie lines; `?cl=...`: this
 * Content-Location.
 */
function target(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://target')
  if (url.searchParams.has('echo')) {
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify(req.headers))
    return
  }
  const contentLocation = url.searchParams.get('cl')
  if (contentLocation !== null) res.setHeader('content-location', contentLocation)
  const stream = url.searchParams.get('stream')
  if (stream !== null) {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' })
    let sent = 0
    const next = () => {
      sent += 1
      res.write(`id: ${sent}\n\n`)
      if (sent === 3) {
        lockSteps.delete(stream)
        res.end()
      }
    }
    lockSteps.set(stream, next)
    next()
    return
  }
  res.setHeader('set-cookie', url.searchParams.getAll('c'))
  res.end('ok')
}

/** Routes to the plain target, each with its cookie rewrites. */
const cookieRoutes: Record<string, Omit<RouteOptions, 'target'>> = {
  '/c-default': {},
  '/c-string': { cookieDomainRewrite: 'new.example' },
  '/c-map': { cookieDomainRewrite: { 'old.example': 'new.example' } },
  '/c-keep': { cookieDomainRewrite: false },
  '/c-path': { cookieDomainRewrite: false, cookiePathRewrite: { '/': '/c-path/' } },
}

const servers = new Map<'dev' | 'nginx' | 'caddy', RunningProxy>()
let plain: StartedServer<ReturnType<typeof createServer>>
let tls: StartedServer<ReturnType<typeof createHttpsServer>>

beforeAll(async () => {
  const { cert, key } = await localhostCertificate()
  plain = await listen(createServer(target))
  tls = await listen(createHttpsServer({ cert, key }, target), 'https')
  const tlsTarget = `https://localhost:${tls.port}`
  const config: CorsDevProxyConfig = {
    routes: {
      ...Object.fromEntries(
        Object.entries(cookieRoutes).map(([prefix, options]) => [prefix, { target: plain.url, ...options }]),
      ),
      '/stream': plain.url,
      '/loc': plain.url,
      '/noxfwd': { target: plain.url, xfwd: false },
      '/tls-insecure': { target: tlsTarget, secure: false },
      '/tls-verified': tlsTarget,
      // Nothing listens on port 9: only the target the environment picks answers.
      '/controlled': {
        targets: { local: 'http://127.0.0.1:9', staging: plain.url },
        latency: 50,
        failRate: 1,
        failWith: 500,
      },
    },
    log: 'silent',
  }
  // The developer's pick, as `CORS_DEV_PROXY_TARGETS=/controlled=staging cors-dev-proxy nginx` reads it.
  process.env.CORS_DEV_PROXY_TARGETS = '/controlled=staging'
  const resolved = resolveOptions(config)
  delete process.env.CORS_DEV_PROXY_TARGETS
  const [nginxPort, caddyPort] = [await unclaimedPort(), await unclaimedPort()]
  const at = (port: number) => ({ listen: `127.0.0.1:${port}`, serverName: undefined })
  servers.set('dev', await startDevProxy(config))
  servers.set('nginx', await startNginx(renderNginx(resolved, at(nginxPort)), nginxPort))
  servers.set('caddy', await startCaddy(renderCaddy(resolved, at(caddyPort)), caddyPort))
})

afterAll(async () => {
  await Promise.all([...servers.values()].map((server) => server.stop()))
  await plain?.close()
  await tls?.close()
})

describe.each(['dev', 'nginx', 'caddy'] as const)('through %s', (name) => {
  const origin = () => servers.get(name)?.origin ?? ''

  it('streams an answer chunk by chunk, though the target never says X-Accel-Buffering', async () => {
    // The target sends each chunk only after the one before came through (lockSteps).
    const key = `${name}-${Math.random()}`
    const { answer, events, complete } = await readEvents(
      origin(),
      `/stream/x?stream=${encodeURIComponent(key)}`,
      () => lockSteps.get(key)?.(),
    )
    expect(answer.status).toBe(200)
    expect(events.map((event) => event.id)).toEqual(['1', '2', '3'])
    expect(complete).toBe(true)
  })

  it('reaches a self-signed target with secure: false, and refuses it (502) by default', async () => {
    expect((await send(origin(), { path: '/tls-insecure/x' })).body).toBe('ok')
    expect((await send(origin(), { path: '/tls-verified/x' })).status).toBe(502)
  })
})

describe('a route with targets and dev-time faults', () => {
  it('is forwarded by nginx and Caddy to the target in use, without the faults the dev proxy injects', async () => {
    const seen = new Map<string, string>()
    for (const [name, server] of servers) {
      const answer = await send(server.origin, { path: '/controlled/x' })
      seen.set(name, `${answer.status} ${name === 'dev' ? '' : answer.body}`.trim())
    }
    expect(Object.fromEntries(seen)).toEqual({ dev: '500', nginx: '200 ok', caddy: '200 ok' })
  })
})

describe('Content-Location pointing at the target', () => {
  it('is pointed back at the proxy by the dev proxy and Caddy; nginx passes it unchanged', async () => {
    const seen = new Map<string, string | undefined>()
    for (const [name, server] of servers) {
      const answer = await send(server.origin, {
        path: `/loc/x?cl=${encodeURIComponent(`${plain.url}/y?z=1`)}`,
      })
      seen.set(name, answer.headers['content-location']?.[0]?.replace(server.origin, '<proxy>'))
    }
    expect(Object.fromEntries(seen)).toEqual({
      dev: '<proxy>/loc/y?z=1',
      caddy: '<proxy>/loc/y?z=1',
      // proxy_redirect rewrites Location and Refresh only.
      nginx: `${plain.url}/y?z=1`,
    })
  })
})

describe('xfwd: false', () => {
  it('adds no forwarding header; Caddy also removes the ones the client sent', async () => {
    const seen = new Map<string, unknown>()
    for (const [name, server] of servers) {
      const answer = await send(server.origin, {
        path: '/noxfwd/x?echo',
        headers: {
          'x-forwarded-for': '203.0.113.9',
          'x-forwarded-proto': 'https',
          'x-real-ip': '203.0.113.9',
        },
      })
      const headers = JSON.parse(answer.body) as Record<string, string>
      seen.set(
        name,
        Object.fromEntries(Object.entries(headers).filter(([header]) => /^x-(forwarded|real)/.test(header))),
      )
    }
    const passed = {
      'x-forwarded-for': '203.0.113.9',
      'x-forwarded-proto': 'https',
      'x-real-ip': '203.0.113.9',
    }
    // Caddy always sets X-Forwarded-For/-Proto/-Host itself: deleting them is the only way not to send its own.
    expect(Object.fromEntries(seen)).toEqual({
      dev: passed,
      nginx: passed,
      caddy: { 'x-real-ip': '203.0.113.9' },
    })
  })
})

/** Set-Cookie lines of every shape a backend sends. */
const COOKIES = [
  'a=1; Domain=old.example; Path=/',
  'b=2; domain = old.example ; path=/x',
  'c=3; Path=/; HttpOnly',
  'd=4; Domain=; Path=/',
  'e=5; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Domain=Old.Example',
  'f=6; Domain=other.example; Domain=old.example',
]

/** nginx can rewrite an attribute's value, not remove the attribute: removal leaves `Domain=`. */
const EMPTY_DOMAIN =
  'an empty Domain is what nginx leaves where the dev proxy removes the attribute; browsers ignore an empty Domain (RFC 6265 §5.2.3), so the cookie is host-only either way'
/** nginx writes the attribute it rewrote as `name=value`. */
const SPACES =
  "nginx writes the attribute it rewrote without the spaces around `=` (the dev proxy keeps the backend's); browsers trim them anyway (RFC 6265 §5.2)"

/**
 * Where an export writes a Set-Cookie line differently from the dev proxy: per server and route,
 * the dev proxy's line → the export's line, with the reason. Caddy writes every line as the dev
 * proxy does.
 */
const COOKIE_DIFFERENCES: Record<
  string,
  ReadonlyArray<readonly [dev: string, got: string, reason: string]>
> = {
  'nginx /c-default': [
    ['a=1; Path=/', 'a=1; Domain=; Path=/', EMPTY_DOMAIN],
    ['b=2; path=/x', 'b=2; domain=; path=/x', EMPTY_DOMAIN],
    ['d=4; Path=/', 'd=4; Domain=; Path=/', EMPTY_DOMAIN],
    [
      'e=5; Expires=Wed, 21 Oct 2037 07:28:00 GMT',
      'e=5; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Domain=',
      EMPTY_DOMAIN,
    ],
    ['f=6', 'f=6; Domain=; Domain=', EMPTY_DOMAIN],
  ],
  'nginx /c-string': [['b=2; domain =new.example; path=/x', 'b=2; domain=new.example; path=/x', SPACES]],
  'nginx /c-map': [['b=2; domain =new.example; path=/x', 'b=2; domain=new.example; path=/x', SPACES]],
}

describe('Set-Cookie rewrites', () => {
  it.each(Object.keys(cookieRoutes))(
    '%s: nginx and Caddy write what the dev proxy writes',
    async (prefix) => {
      const query = COOKIES.map((line) => `c=${encodeURIComponent(line)}`).join('&')
      const seen = new Map<string, string[]>()
      for (const [name, server] of servers) {
        seen.set(
          name,
          (await send(server.origin, { path: `${prefix}/x?${query}` })).headers['set-cookie'] ?? [],
        )
      }
      const dev = seen.get('dev') ?? []
      expect(dev).toHaveLength(COOKIES.length)
      for (const name of ['nginx', 'caddy']) {
        const known = new Map(COOKIE_DIFFERENCES[`${name} ${prefix}`]?.map(([from, to]) => [from, to]))
        // Every listed difference occurs (the dev line exists), and no other.
        for (const from of known.keys()) expect(dev).toContain(from)
        expect(seen.get(name), name).toEqual(dev.map((line) => known.get(line) ?? line))
      }
    },
  )
})
