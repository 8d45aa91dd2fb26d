import { describe, expect, it } from 'vitest'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { suggestRoute } from '../../src/inspector/suggest-route.js'

const routes = (config: Record<string, unknown>) => resolveOptions(config as never).routes

describe('suggestRoute', () => {
  it.each([
    [
      { '/other': { mock: true } },
      'http://localhost:3000/items?page=2',
      "'/api': 'http://localhost:3000'",
      '/api/items?page=2',
      false,
    ],
    [
      { '/other': { mock: true } },
      'http://localhost:3000/',
      "'/api': 'http://localhost:3000'",
      '/api',
      false,
    ],
    [
      { '/other': { mock: true } },
      'http://localhost:3000/api/items',
      "'/api': { target: 'http://localhost:3000', pathRewrite: false }",
      '/api/items',
      false,
    ],
    [
      { '/api': 'http://localhost:4000' },
      'http://localhost:3000/items',
      "'/api2': 'http://localhost:3000'",
      '/api2/items',
      false,
    ],
    [
      { '/api': 'http://localhost:3000' },
      'http://localhost:3000/items',
      "'/api': 'http://localhost:3000'",
      '/api/items',
      true,
    ],
    [
      { '/v1': 'http://localhost:3000/base' },
      'http://localhost:3000/base/items',
      "'/v1': 'http://localhost:3000/base'",
      '/v1/items',
      true,
    ],
    [
      { '/v1': 'http://localhost:3000/base' },
      'http://localhost:3000/other',
      "'/api': 'http://localhost:3000'",
      '/api/other',
      false,
    ],
    [
      { '/other': { mock: true } },
      'ws://localhost:3001/live',
      "'/socket': { target: 'http://localhost:3001', ws: true }",
      '/socket/live',
      false,
    ],
  ])('%j, %s → %s %s', (config, url, route, path, existing) => {
    expect(suggestRoute(new URL(url), routes(config))).toEqual({ route, path, existing })
  })
})
