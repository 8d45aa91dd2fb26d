import { CorsDevProxyError } from '@cors-dev-proxy/core'
import { describe, expect, it } from 'vitest'
import { corsDevProxyFixtures } from '../src/cors-dev-proxy-fixtures.js'
import { checkTestOptions, splitFixturesOptions } from '../src/fixture-options.js'

describe('the fixtures options', () => {
  it.each([
    [
      { mode: 'record' },
      "corsDevProxyFixtures.mode is \"record\"; use 'replay' (recordings only) or 'missing'",
    ],
    [{ failOnUnmatched: 'yes' }, 'corsDevProxyFixtures.failOnUnmatched must be true or false'],
    [{ configFile: 1 }, 'corsDevProxyFixtures.configFile must be true or a file name'],
    [{ root: '' }, 'corsDevProxyFixtures.root must be a folder path'],
  ])('%j is refused with its name and a fix', (options, message) => {
    const call = () => checkTestOptions(options as never, 'corsDevProxyFixtures')
    expect(call).toThrow(CorsDevProxyError)
    expect(call).toThrow(message)
    expect(call).toThrow('Fix it like this: ')
  })

  it('splits ours from the core configuration, the caller object untouched', () => {
    const options = {
      routes: { '/api': 'http://localhost:3000' },
      mode: 'missing' as const,
      log: 'debug' as const,
    }
    expect(splitFixturesOptions(options)).toEqual([
      { configFile: undefined, root: undefined, mode: 'missing', failOnUnmatched: undefined },
      { routes: { '/api': 'http://localhost:3000' }, log: 'debug' },
    ])
    expect(options.mode).toBe('missing')
  })

  it('refuses a mistake in the routes when the test file loads, with the core message', () => {
    expect(() =>
      corsDevProxyFixtures({
        routes: { '/api': { target: 'http://localhost:3000', replai: 'only' } as never },
      }),
    ).toThrow(/routes\['\/api'\]\.replai/)
    expect(() =>
      corsDevProxyFixtures({ routes: { '/api': 'http://localhost:3000' }, mode: 'replay' }),
    ).not.toThrow()
  })

  it("gives Playwright an option fixture, its own context's override and the replay fixture", () => {
    const fixtures = corsDevProxyFixtures({ routes: { '/api': 'http://localhost:3000' } })
    expect(fixtures.corsDevProxy).toEqual([{}, { option: true }])
    expect(Object.keys(fixtures)).toEqual(['corsDevProxy', 'context', 'corsDevProxyReplay'])
  })
})
