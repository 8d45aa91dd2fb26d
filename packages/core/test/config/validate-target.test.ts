import { describe, expect, it } from 'vitest'
import { expectConfigError } from '../../../../test/support/config-error.js'
import { validateTarget } from '../../src/config/validate-target.js'

const option = "routes['/api'].target"

describe('validateTarget: accepted', () => {
  it.each([
    ['http://localhost:3000', 'http://localhost:3000/', false],
    ['https://api.example.com', 'https://api.example.com/', false],
    ['http://127.0.0.1:3000/v1', 'http://127.0.0.1:3000/v1', false],
    ['http://[::1]:3000/', 'http://[::1]:3000/', false],
    ['HTTP://LOCALHOST:3000', 'http://localhost:3000/', false],
    ['  http://localhost:3000  ', 'http://localhost:3000/', false],
    ['ws://localhost:3000', 'http://localhost:3000/', true],
    ['wss://localhost:8443/socket', 'https://localhost:8443/socket', true],
    ['ws://localhost:443', 'http://localhost:443/', true],
    ['wss://localhost', 'https://localhost/', true],
  ])('%s → %s (websocket %s)', (input, href, websocket) => {
    const { url, websocket: isWebSocket } = validateTarget(input, option)
    expect(url.href).toBe(href)
    expect(isWebSocket).toBe(websocket)
  })
})

describe('validateTarget: http-proxy target objects and the unspecified address', () => {
  it.each([
    [new URL('http://localhost:3000'), 'http://localhost:3000/', undefined],
    // http-proxy-middleware's README, `router` "target object": the colon of `protocol` is required there.
    [{ protocol: 'https:', host: '127.0.0.1', port: 8004 }, 'https://127.0.0.1:8004/', undefined],
    [
      { protocol: 'http', hostname: 'localhost', port: '3000', pathname: '/v1' },
      'http://localhost:3000/v1',
      undefined,
    ],
    [{ host: 'localhost:3000' }, 'http://localhost:3000/', undefined],
    [{ host: '::1', port: 3000 }, 'http://[::1]:3000/', undefined],
    [{ protocol: 'ws:', host: 'localhost', port: 3000 }, 'http://localhost:3000/', undefined],
    [{ socketPath: '/tmp/api.sock' }, 'http://localhost/', '/tmp/api.sock'],
    ['http://0.0.0.0:3000', 'http://127.0.0.1:3000/', undefined],
    ['http://[::]:3000/v1', 'http://[::1]:3000/v1', undefined],
  ])('%j → %s', (input, href, socketPath) => {
    const target = validateTarget(input, "routes['/api'].target")
    expect(target.url.href).toBe(href)
    expect(target.socketPath).toBe(socketPath)
  })
})

describe('validateTarget: refused', () => {
  it.each([
    [3000, 'INVALID_TARGET', ['must be a URL string, got a number (3000)']],
    [undefined, 'INVALID_TARGET', ['must be a URL string']],
    [{ protocol: 'http:' }, 'INVALID_TARGET', ['has no `host`']],
    [{ host: 'localhost', cert: 'x' }, 'INVALID_TARGET', ["has 'cert'", 'secure: false']],
    [{ socketPath: 42 }, 'INVALID_TARGET', ['socketPath that is not a path string']],
    [{ host: 42 }, 'INVALID_TARGET', ['host that is not a string']],
    [{ protocol: 'ftp:', host: 'localhost' }, 'UNSUPPORTED_SCHEME', ['ftp: is not supported']],
    ['', 'INVALID_TARGET', ['is empty', "'http://localhost:3000'"]],
    ['localhost:3000', 'INVALID_TARGET', ['has no scheme', "'http://localhost:3000'"]],
    ['127.0.0.1:3000/v1', 'INVALID_TARGET', ['has no scheme', "'http://127.0.0.1:3000/v1'"]],
    ['[::1]:3000', 'INVALID_TARGET', ['has no scheme', "'http://[::1]:3000'"]],
    // A mistyped scheme is repaired, not read as a host called `http`.
    ['http//localhost:3000', 'INVALID_TARGET', ['mistyped scheme', "this: 'http://localhost:3000'"]],
    ['https:/localhost:3000/v1', 'INVALID_TARGET', ['mistyped scheme', "this: 'https://localhost:3000/v1'"]],
    ['ws:localhost:3000', 'INVALID_TARGET', ['mistyped scheme', "this: 'ws://localhost:3000'"]],
    // The suggestion would still be wrong (a query), so the example is the placeholder.
    ['localhost:3000/?q=1', 'INVALID_TARGET', ['has no scheme', "this: 'http://localhost:3000'"]],
    ['/relative/path', 'INVALID_TARGET', ['is not an absolute URL']],
    ['http://', 'INVALID_TARGET', ['is not a valid URL']],
    ['http://exa mple.com', 'INVALID_TARGET', ['is not a valid URL']],
    ['http://user:secret@localhost:3000', 'INVALID_TARGET', ['credentials', "authorization: 'Basic"]],
    ['http://localhost:3000/?key=1', 'INVALID_TARGET', ['query or fragment', "'http://localhost:3000/'"]],
    ['http://localhost:3000/v1?', 'INVALID_TARGET', ['query or fragment', "'http://localhost:3000/v1'"]],
    ['http://localhost:3000/#x', 'INVALID_TARGET', ['query or fragment']],
    [
      'ftp://files.example.com',
      'UNSUPPORTED_SCHEME',
      ['ftp: is not supported; use http:, https:, ws: or wss:'],
    ],
    ['file:///tmp/x', 'UNSUPPORTED_SCHEME', ['file: is not supported']],
    ['mailto:me@example.com', 'UNSUPPORTED_SCHEME', ['mailto: is not supported']],
  ] as const)('%j → %s', (input, code, contains) => {
    expectConfigError(() => validateTarget(input, option), { code, option, contains: [...contains] })
  })

  it('never repeats the password in the message', () => {
    const message = expectConfigError(() => validateTarget('http://user:secret@localhost:3000', option), {
      code: 'INVALID_TARGET',
      option,
    })
    expect(message).not.toContain('secret')
  })
})
