import { resolveOptions } from '@cors-dev-proxy/core/adapter'
import { describe, expect, it } from 'vitest'
import { createCallMapper } from '../src/map-call.js'

const map = createCallMapper(
  resolveOptions({
    '/api': 'http://localhost:3000',
    '/api/v2': 'http://localhost:3000/v2',
    '/auth': { target: 'http://auth.test', pathRewrite: false },
    '/odd': { target: 'http://odd.test', pathRewrite: { '^/odd': '/x' } },
    '/echo': { mock: true },
  }).routes,
)

describe('createCallMapper', () => {
  it.each([
    // A prefix, on any origin; segments respected.
    ['http://localhost:5173/api/users?page=2', '/api/users?page=2'],
    ['https://preview.example/api', '/api'],
    ['http://localhost:5173/api2/users', undefined],
    ['http://localhost:5173/index.html', undefined],
    ['http://localhost:5173/echo/anything', '/echo/anything'],
    // The target's origin, mapped back onto the prefix (the prefix is removed by default).
    ['http://localhost:3000/users?page=2', '/api/users?page=2'],
    ['http://localhost:3000/', '/api'],
    // The longest target path first: /v2 is the '/api/v2' route's.
    ['http://localhost:3000/v2/items', '/api/v2/items'],
    ['http://localhost:3000/v20/items', '/api/v20/items'],
    // pathRewrite: false keeps the path, which must be under the prefix.
    ['http://auth.test/auth/login', '/auth/login'],
    ['http://auth.test/login', undefined],
    // Another rewrite cannot be undone: its target is not mapped, its prefix is.
    ['http://odd.test/x/1', undefined],
    ['http://app.test/odd/1', '/odd/1'],
    ['ws://localhost:3000/users', undefined],
    ['data:text/plain,hi', undefined],
  ])('%s → %s', (url, expected) => {
    expect(map(new URL(url))).toBe(expected)
  })
})
