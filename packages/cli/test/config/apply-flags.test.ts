import type { CorsDevProxyConfig } from '@cors-dev-proxy/core'
import { describe, expect, it } from 'vitest'
import { applyFlags, type ConfigFlags } from '../../src/config/apply-flags.js'

describe('applyFlags', () => {
  it.each<[string, Partial<CorsDevProxyConfig>, ConfigFlags, CorsDevProxyConfig]>([
    [
      'no flags: the file as it is',
      { routes: { '/api': 'http://a' }, log: 'warn' },
      {},
      { routes: { '/api': 'http://a' }, log: 'warn' },
    ],
    ['no file', {}, { routes: [['/api', 'http://b']] }, { routes: { '/api': 'http://b' } }],
    [
      'a --route replaces the file route of the same prefix, trailing slash or not, and adds the others',
      { routes: { '/api/': 'http://a', '/other': 'http://o' } },
      {
        routes: [
          ['/api', 'http://b'],
          ['/new', 'http://n'],
        ],
      },
      { routes: { '/other': 'http://o', '/api': 'http://b', '/new': 'http://n' } },
    ],
    [
      '--mock adds a mock route with its WebSocket echo',
      {},
      { mocks: ['/m'] },
      { routes: { '/m': { mock: true, ws: true } } },
    ],
    ['--cors on a file without cors', { routes: {} }, { cors: true }, { routes: {}, cors: true }],
    [
      '--cors keeps the file’s cors object',
      { routes: {}, cors: { origin: 'http://x.test' } },
      { cors: true },
      { routes: {}, cors: { origin: 'http://x.test' } },
    ],
    [
      '--cors-origin and --cors-credentials replace those two fields only',
      { routes: {}, cors: { origin: 'http://x.test', maxAge: 60 } },
      { corsOrigins: ['http://localhost:5173'], corsCredentials: true },
      { routes: {}, cors: { origin: 'http://localhost:5173', maxAge: 60, credentials: true } },
    ],
    [
      'several --cors-origin become a list',
      {},
      { corsOrigins: ['http://a.test', 'http://b.test'] },
      { routes: {}, cors: { origin: ['http://a.test', 'http://b.test'] } },
    ],
    ['--log replaces log', { routes: {}, log: 'warn' }, { log: 'debug' }, { routes: {}, log: 'debug' }],
  ])('%s', (_name, config, flags, expected) => {
    const before = structuredClone(config)
    expect(applyFlags(config, flags)).toEqual(expected)
    expect(config).toEqual(before)
  })
})
