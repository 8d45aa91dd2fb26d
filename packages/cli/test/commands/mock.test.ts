import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MOCK_SWITCHES } from '../../src/commands/mock-switches.js'
import { type RunningCliServer, runCliHere, startCliServer } from '../support/cli-process.js'
import { startCliServerHere } from '../support/cli-server-here.js'
import { rawRequest } from '../support/raw-request.js'

/**
 * `cors-dev-proxy mock`: what it prints, its CORS flags, and its stop. `runCli` runs from the
 * sources in this process (startCliServerHere, runCliHere); the stop on SIGTERM is the built
 * binary's, in a child process.
 */

const PAGE = readFileSync(new URL('../../../../docs/guide/mock-backend.md', import.meta.url), 'utf8')
const ORIGIN = 'http://localhost:5173'
let mock: RunningCliServer

beforeAll(async () => {
  mock = await startCliServerHere([
    'mock',
    '--port',
    '0',
    '--cors',
    'reflect',
    '--origin',
    'http://app.test:8080',
  ])
})

afterAll(async () => {
  await mock?.stop()
})

/** The switch names of the docs' Mock backend page (its switch table). */
function pageSwitches(): string[] {
  const section = PAGE
  const table = section.slice(
    section.indexOf('| switch |'),
    section.indexOf('\n\n', section.indexOf('| switch |')),
  )
  return [...table.matchAll(/^\| `(\w+)` \|/gm)].map((match) => match[1] as string)
}

describe('mock', () => {
  it('prints its URL, its CORS mode and every switch of the docs table', () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    expect(mock.output()).toContain('mock backend, CORS reflect, origin http://app.test:8080')
    const names = pageSwitches()
    expect(names.length).toBeGreaterThan(5)
    expect(MOCK_SWITCHES.map(([name]) => name)).toEqual(names)
    for (const name of names) expect(mock.output()).toMatch(new RegExp(`^ +${name}=`, 'm'))
    expect(mock.output()).toContain('/events?count=3&interval=100')
  })

  it('answers with the fixed --origin in reflect mode, and prints each request once answered', async () => {
    const res = await rawRequest(mock.origin, '/users?x=1', { headers: { origin: ORIGIN } })
    expect(res.status).toBe(200)
    expect(res.headers['access-control-allow-origin']).toBe('http://app.test:8080')
    expect(JSON.parse(res.body)).toMatchObject({ method: 'GET', path: '/users', origin: ORIGIN })
    await mock.waitFor(`[mock] GET /users?x=1 → 200 from ${ORIGIN}`)
    const preflight = await rawRequest(mock.origin, '/items', {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'PUT' },
    })
    expect(preflight.status).toBe(204)
    await mock.waitFor('[mock] OPTIONS /items (preflight) → 204')
  })

  it('sends credentials with --cors wildcard --credentials, and stops on SIGTERM with exit 0', async () => {
    const own = await startCliServer(['mock', '--port', '0', '--cors', 'wildcard', '--credentials'])
    const res = await rawRequest(own.origin, '/me', { headers: { origin: ORIGIN } })
    expect(res.headers['access-control-allow-origin']).toBe('*')
    expect(res.headers['access-control-allow-credentials']).toBe('true')
    const result = await own.stop('SIGTERM')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('[mock] SIGTERM: stopping')
  })

  it('sends no CORS headers by default', async () => {
    const own = await startCliServerHere(['mock', '--port', '0'])
    const res = await rawRequest(own.origin, '/me', { headers: { origin: ORIGIN } })
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
    expect(own.output()).toContain('mock backend, CORS off')
    expect((await own.stop('SIGINT')).code).toBe(0)
  })

  it.concurrent.each([
    [
      ['--cors', 'on'],
      '--cors must be off, reflect or wildcard, got "on"',
      'cors-dev-proxy mock --cors reflect',
    ],
    [
      ['--cors', 'off', '--origin', ORIGIN],
      '--origin answers with a fixed origin in reflect mode',
      'cors-dev-proxy mock --cors reflect --origin',
    ],
    [
      ['--credentials'],
      '--credentials needs a CORS mode that sends CORS headers',
      'cors-dev-proxy mock --cors wildcard --credentials',
    ],
    [
      ['--origin', 'localhost'],
      '--origin must be an origin, scheme://host[:port] without a path, got "localhost"',
      'cors-dev-proxy mock --cors reflect --origin http://localhost:5173',
    ],
    [['--port', '-1'], '--port needs a value', 'cors-dev-proxy mock --port 3000'],
  ])('%j is refused with exit 2', async (args, message, example) => {
    const result = await runCliHere(['mock', ...args])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(message)
    if (example !== undefined) expect(result.stderr).toContain(`example: ${example}`)
  })
})
