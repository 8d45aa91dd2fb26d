import { defineConfig, type RunningMockBackend, startMockBackend } from '@cors-dev-proxy/core'
import { resolveOptions } from '@cors-dev-proxy/core/adapter'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { renderCaddy } from '../../packages/cli/src/export/caddy.js'
import { renderNginx } from '../../packages/cli/src/export/nginx.js'
import { refusedUrl } from '../support/refused-port.js'
import { type RunningProxy, startCaddy, startNginx } from '../support/reverse-proxy.js'
import { unclaimedPort } from '../support/unclaimed-port.mjs'
import { type Observation, PARITY_CHECKS } from './parity-cases.js'
import { startDevProxy } from './start-dev-proxy.js'

/*
 * The parity suite: one configuration, served by the dev proxy, by real nginx with the nginx
 * export and by real Caddy with the Caddy export, all forwarding to one mock backend. Every check
 * sends the same request through the three and compares what came back (and what the backend
 * received). Every difference that remains is in EXCEPTIONS with its reason, as on the docs' exports page's
 * "nginx and Caddy exports" section; a difference missing there, or listed but gone, fails.
 */

type Exported = 'nginx' | 'caddy'

/** A field on which an export answers differently from the dev proxy. */
interface Difference {
  check: string
  server: Exported
  field: string
  dev: unknown
  got: unknown
}

/** A difference that is known, and why it stays. */
interface Exception extends Difference {
  reason: string
}

/** The same difference in both exports. */
function inBoth(check: string, field: string, dev: unknown, got: unknown, reason: string): Exception[] {
  return (['nginx', 'caddy'] as const).map((server) => ({ check, server, field, dev, got, reason }))
}

const TRUST =
  'Forwarding headers a client sent are kept by the dev proxy (a tunnel in front of it saw the browser) but replaced by nginx and Caddy with what they saw: at a production edge, trusting them would let any client choose its address, scheme and host. X-Forwarded-For is appended to by all three.'

const SILENCE =
  "The dev proxy's `timeout` (and Caddy's response_header_timeout) is the time to the answer's head; nginx has no such timeout, and its proxy_read_timeout also ends a stream that stays silent longer between two reads."

/** Every difference that remains between the dev proxy and the exports, with its reason. */
const EXCEPTIONS: readonly Exception[] = [
  ...inBoth(
    'forwarding headers the client already sent',
    'echo header x-real-ip',
    '203.0.113.9',
    '127.0.0.1',
    TRUST,
  ),
  ...inBoth(
    'forwarding headers the client already sent',
    'echo header x-forwarded-proto',
    'https',
    'http',
    TRUST,
  ),
  ...inBoth(
    'forwarding headers the client already sent',
    'echo header x-forwarded-host',
    'outer.example',
    '<proxy>',
    TRUST,
  ),
  ...inBoth(
    'forwarding headers the client already sent',
    'echo header x-forwarded-port',
    '444',
    '<proxy port>',
    TRUST,
  ),
  {
    check: 'percent-encoded characters stay encoded',
    server: 'nginx',
    field: 'echo path',
    dev: '/a%2Fb%20c%7E',
    got: '/a/b%20c~',
    reason:
      'nginx matches and rewrites the decoded path, then encodes only what must be: an encoded slash goes up as a slash, an encoded unreserved character (~) as itself (RFC 3986 §2.3 makes that one equivalent). The query is passed as sent.',
  },
  {
    check: 'repeated slashes after the prefix',
    server: 'nginx',
    field: 'echo path',
    dev: '/x//y',
    got: '/x/y',
    reason:
      'nginx merges repeated slashes (merge_slashes, on by default and left on: it is what its location matching relies on).',
  },
  {
    check: 'a stream silent longer than timeout',
    server: 'nginx',
    field: 'event ids',
    dev: ['1', '2'],
    got: ['1'],
    reason: SILENCE,
  },
  {
    check: 'a stream silent longer than timeout',
    server: 'nginx',
    field: 'complete',
    dev: true,
    got: false,
    reason: SILENCE,
  },
  ...inBoth(
    'a WebSocket handshake on a route without ws',
    'outcome',
    { refused: 404 },
    { refused: 426 },
    'Without `ws` the dev proxy leaves the upgrade to its server (`serve` answers 404); nginx and Caddy forward the handshake as a plain request without Upgrade, which the backend answers (the mock with 426).',
  ),
  {
    check: 'Set-Cookie loses its Domain',
    server: 'nginx',
    field: 'header set-cookie',
    dev: 'a=1; Path=/; HttpOnly; SameSite=Lax | b=2; Path=/; HttpOnly; SameSite=Lax',
    got: 'a=1; Domain=; Path=/; HttpOnly; SameSite=Lax | b=2; Domain=; Path=/; HttpOnly; SameSite=Lax',
    reason:
      'proxy_cookie_domain rewrites the value, it cannot remove the attribute: `Domain=` is left empty, which browsers ignore (RFC 6265 §5.2.3), so the cookie is host-only as through the dev proxy.',
  },
  {
    check: 'server-sent events arrive one by one',
    server: 'nginx',
    field: 'header x-accel-buffering',
    dev: 'no',
    got: null,
    reason: 'nginx reads X-Accel-* headers as instructions to itself and never passes them on.',
  },
]

let backend: RunningMockBackend
const running = new Map<'dev' | Exported, RunningProxy>()

beforeAll(async () => {
  backend = await startMockBackend()
  const target = backend.origin
  // A port nothing listens on: the connection is refused.
  const dead = await refusedUrl()
  const config = defineConfig({
    routes: {
      '/api': { target, cors: { credentials: true, exposedHeaders: ['x-total'], maxAge: 600 } },
      '/api/v2': {
        target: `${target}/v2`,
        headers: { 'x-token': 'fixed' },
        cors: {
          origin: ['http://app.test', /\.example\.test$/],
          allowedHeaders: ['content-type', 'x-token'],
        },
      },
      '/plain': target,
      '/keep': { target, pathRewrite: false },
      '/live': { target, ws: true, cors: true },
      '/slow': { target, timeout: 300 },
      '/dead': dead,
    },
    log: 'silent',
  })
  const resolved = resolveOptions(config)
  const [nginxPort, caddyPort] = [await unclaimedPort(), await unclaimedPort()]
  const listen = (port: number) => ({ listen: `127.0.0.1:${port}`, serverName: undefined })
  const started = await Promise.allSettled([
    startDevProxy(config),
    startNginx(renderNginx(resolved, listen(nginxPort)), nginxPort),
    startCaddy(renderCaddy(resolved, listen(caddyPort)), caddyPort),
  ])
  started.forEach((result, index) => {
    if (result.status === 'fulfilled')
      running.set((['dev', 'nginx', 'caddy'] as const)[index] as 'dev', result.value)
  })
  const failed = started.find((result) => result.status === 'rejected')
  if (failed) throw failed.reason
})

afterAll(async () => {
  await Promise.all([...running.values()].map((proxy) => proxy.stop()))
  await backend?.close()
})

/** Each server's own address becomes `<proxy>` (its port alone `<proxy port>`), the backend's `<backend>`. */
function normalize(observation: Observation, proxy: string): Observation {
  const own = new URL(proxy)
  const text = JSON.stringify(observation)
    .replaceAll(own.host, '<proxy>')
    .replaceAll(`"${own.port}"`, '"<proxy port>"')
    .replaceAll(new URL(backend.origin).host, '<backend>')
  return JSON.parse(text)
}

/** Differences in a stable order: by server, then field. */
function sorted<T extends Difference>(list: T[]): T[] {
  return list.sort((a, b) => a.server.localeCompare(b.server) || a.field.localeCompare(b.field))
}

/** The fields on which `got` differs from `dev`, compared as JSON. */
function differences(check: string, server: Exported, dev: Observation, got: Observation): Difference[] {
  const fields = new Set([...Object.keys(dev), ...Object.keys(got)])
  return [...fields]
    .filter((field) => JSON.stringify(dev[field]) !== JSON.stringify(got[field]))
    .map((field) => ({ check, server, field, dev: dev[field], got: got[field] }))
}

describe('the dev proxy, nginx and Caddy answer alike', () => {
  it.each(PARITY_CHECKS.map((check) => [check.name, check] as const))('%s', async (name, check) => {
    const seen = new Map<string, Observation>()
    for (const [server, proxy] of running) {
      const observation = await check.observe({
        proxy: proxy.origin,
        backend: backend.origin,
        received: () => backend.log.length,
      })
      seen.set(server, normalize(observation, proxy.origin))
    }
    const dev = seen.get('dev') ?? {}
    expect(dev).toMatchObject(check.expected)
    const found = (['nginx', 'caddy'] as const).flatMap((server) =>
      differences(name, server, dev, seen.get(server) ?? {}),
    )
    const known = EXCEPTIONS.filter((exception) => exception.check === name).map(
      ({ reason: _reason, ...difference }) => difference,
    )
    // Unlisted differences fail here, and so do listed ones that no longer occur.
    expect(sorted(found)).toEqual(sorted(known))
  })

  it('lists exceptions only for checks that exist, each with a reason', () => {
    const names = new Set(PARITY_CHECKS.map((check) => check.name))
    for (const exception of EXCEPTIONS) {
      expect(names).toContain(exception.check)
      expect(exception.reason.length).toBeGreaterThan(20)
    }
  })
})
