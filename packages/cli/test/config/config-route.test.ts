import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { UsageError } from '../../src/args/usage-error.js'
import { configRoute, routePrefix } from '../../src/config/config-route.js'

const folder = mkdtempSync(join(tmpdir(), 'cdp-config-route-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const fix = (first: string) => `cors-dev-proxy export-msw --route ${first}`

/** A config file named `<name>.json` in the test's folder. */
function project(name: string, config: unknown): string {
  writeFileSync(join(folder, `${name}.json`), JSON.stringify(config))
  return join(folder, `${name}.json`)
}

describe('routePrefix', () => {
  it.each([
    ['api', '/api'],
    ['/api/', '/api'],
    ['/v1/admin//', '/v1/admin'],
    ['/', '/'],
  ])('%s → %s', (given, prefix) => {
    expect(routePrefix(given)).toBe(prefix)
  })
})

describe('configRoute', () => {
  it("gives the config file's route with its recordings settings and match rules", async () => {
    const file = project('with-route', {
      routes: { '/api': { target: 'http://localhost:3000', match: { ignoreQuery: ['_t'] } } },
      recordings: { dir: 'fixtures/recordings' },
    })
    const { route, recordings } = await configRoute(folder, '/api', file, fix)
    expect(route.prefix).toBe('/api')
    expect(route.match?.ignoreQuery).toEqual(['_t'])
    expect(recordings.dir).toMatch(/fixtures[/\\]recordings$/)
  })

  it('names the routes the file has, and a valid command, for a prefix it does not have', async () => {
    const file = project('no-route', { routes: { '/api': 'http://localhost:3000' } })
    const error = await configRoute(folder, '/nope', file, fix).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(UsageError)
    expect((error as UsageError).message).toBe("route '/nope' is not in no-route.json (its routes: /api)")
    expect((error as UsageError).example).toBe('cors-dev-proxy export-msw --route /api')
  })

  it('tells a route that answers from the mock backend from one the file lacks', async () => {
    const file = project('mock-route', {
      routes: { '/api': 'http://localhost:3000', '/echo': { mock: true } },
    })
    const error = await configRoute(folder, '/echo', file, fix).catch((caught: unknown) => caught)
    expect((error as Error).message).toBe(
      "route '/echo' is not a forwarding route of mock-route.json (its routes: /api)",
    )
  })
})
