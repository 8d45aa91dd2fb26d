import { describe, expect, it } from 'vitest'
import { caddyConfigForFront, frontListenAddresses } from '../../src/serve/caddy-front-config.js'
import { createFrontRestore, type FrontRequest } from '../../src/serve/front-request.js'

const TOKEN = 'a'.repeat(48)
const restore = createFrontRestore(TOKEN)
const socket = { remoteAddress: '127.0.0.1', encrypted: true, ping: () => 'pong' }

/** A request as Caddy forwards it: its token, the browser's address, the client's forwarding headers. */
function fromCaddy(headers: Record<string, string>): FrontRequest {
  return { headers: { 'cdp-front': TOKEN, 'cdp-front-client': '192.0.2.7', ...headers }, socket }
}

describe('createFrontRestore', () => {
  it.each([
    ['no token', {}],
    ['a wrong token', { 'cdp-front': 'b'.repeat(48) }],
    ['a token of another length', { 'cdp-front': TOKEN.slice(1) }],
  ])('refuses a request with %s, changing nothing', (_name, headers) => {
    const req: FrontRequest = { headers: { ...headers, 'x-forwarded-for': '' }, socket }
    expect(restore(req)).toBe(false)
    expect(req.headers).toEqual({ ...headers, 'x-forwarded-for': '' })
    expect(req.socket).toBe(socket)
  })

  it.each([
    // What the client sent comes back; what it did not send (Caddy's empty value) is gone.
    [{ 'x-forwarded-for': '', 'x-forwarded-proto': '', 'x-forwarded-host': '' }, {}],
    [
      { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https', 'x-forwarded-host': '' },
      { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' },
    ],
  ])('takes off what Caddy added: %o becomes %o', (sent, kept) => {
    const req = fromCaddy({ accept: '*/*', ...sent })
    expect(restore(req)).toBe(true)
    expect(req.headers).toEqual({ accept: '*/*', ...kept })
  })

  it("shows the browser's address on the request's socket, the rest of the socket unchanged", () => {
    const req = fromCaddy({})
    restore(req)
    const seen = req.socket as typeof socket
    expect(seen.remoteAddress).toBe('192.0.2.7')
    expect(seen.encrypted).toBe(true)
    expect(seen.ping()).toBe('pong')
    expect(socket.remoteAddress).toBe('127.0.0.1')
  })
})

describe('caddyConfigForFront', () => {
  it.each([
    ['127.0.0.1', true, ['127.0.0.1:8443', '[::1]:8443']],
    ['localhost', false, ['127.0.0.1:8443']],
    ['0.0.0.0', true, [':8443']],
    ['::', true, [':8443']],
    ['192.0.2.1', true, ['192.0.2.1:8443']],
    ['[2001:db8::1]', true, ['[2001:db8::1]:8443']],
  ])('listens for host %s (::1 there: %s) on %o', (host, ipv6, expected) => {
    expect(frontListenAddresses(host, 8443, ipv6)).toEqual(expected)
  })

  it('keeps Caddy to itself: no admin endpoint, no trust store, no redirect server, storage and token as given', () => {
    const json = JSON.parse(
      caddyConfigForFront({
        port: 8443,
        host: '127.0.0.1',
        innerPort: 40000,
        certFile: '/c/cert.pem',
        keyFile: '/c/key.pem',
        storageDir: '/c/caddy/data',
        token: TOKEN,
        ipv6Loopback: false,
      }),
    )
    expect(json.admin).toEqual({ disabled: true })
    expect(json.storage).toEqual({ module: 'file_system', root: '/c/caddy/data' })
    expect(json.apps.pki.certificate_authorities.local.install_trust).toBe(false)
    const server = json.apps.http.servers.front
    expect(server.protocols).toEqual(['h1', 'h2', 'h3'])
    expect(server.automatic_https).toEqual({ disable_redirects: true })
    const proxy = server.routes[0].handle[1]
    expect(proxy.upstreams).toEqual([{ dial: '127.0.0.1:40000' }])
    expect(proxy.headers.request.set['cdp-front']).toEqual([TOKEN])
  })
})
