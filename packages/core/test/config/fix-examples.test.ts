import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { localhostCertificate } from '../../../../test/support/tls.js'
import { CorsDevProxyError, type CorsDevProxyErrorCode } from '../../src/config/errors.js'
import { configMistakes } from '../support/config-mistakes.js'
import {
  type CheckedAlternative,
  checkExample,
  exampleOf,
  parseOptionPath,
  splitAlternatives,
} from '../support/fix-example.js'
import { framesOf, withStacksByPath } from '../support/source-frames.js'

// Point 8 of P6a: every "Fix it like this" example is itself a valid configuration, in the
// place the message names. The interpreter's rules are in test/support/fix-example.ts.

/**
 * Floors, so the corpus (or what it reaches) cannot shrink without this test saying so: the
 * distinct example strings, the distinct (code, option path, example) triples checked, and the
 * `throw` lines of `packages/*\/src` (every one must be reached).
 */
const MIN_DISTINCT_EXAMPLES = 146
const MIN_CHECKED_PLACES = 1163
const MIN_THROW_SITES = 57

const REPOSITORY = fileURLToPath(new URL('../../../../', import.meta.url))

/** A `throw` of a configuration error: the error itself, or the validators' helpers that build one. */
const CONFIG_THROW = /\bthrow\s+(?:new CorsDevProxyError\b|(?:fail|invalid|unsupported)\()/

/**
 * Every line of `packages/core/src` that throws a configuration error, as
 * `packages/core/src/config/x.ts:12`; each must be reached by the corpus. Errors of request
 * time (a hook that threw) are answered, not thrown at the user, and the adapters' own checks
 * of their dev server are tested with real dev servers, so neither is counted.
 */
function throwSites(): string[] {
  const sites: string[] = []
  for (const pkg of ['core']) {
    const src = `packages/${pkg}/src`
    let files: string[]
    try {
      files = readdirSync(`${REPOSITORY}${src}`, { recursive: true, encoding: 'utf8' })
    } catch {
      continue
    }
    for (const file of files.filter((name) => name.endsWith('.ts'))) {
      const lines = readFileSync(`${REPOSITORY}${src}/${file}`, 'utf8').split('\n')
      lines.forEach((line, index) => {
        const comment = /^\s*(?:\/\/|\*|\/\*)/.test(line)
        if (!comment && CONFIG_THROW.test(line)) sites.push(`${src}/${file}:${index + 1}`)
      })
    }
  }
  return sites
}

const error = (code: CorsDevProxyErrorCode, option: string, example: string) =>
  new CorsDevProxyError(code, option, 'is wrong', example)

describe('the example interpreter', () => {
  it.each([
    ["{ a: 1 } or { b: 2 } or 'c or d'", ['{ a: 1 }', '{ b: 2 }', "'c or d'"]],
    ["{ p: 'x or y' }", ["{ p: 'x or y' }"]],
    [
      "({ '/api': 'http://localhost:3000' }, { log: 'debug' })",
      ["({ '/api': 'http://localhost:3000' }, { log: 'debug' })"],
    ],
    [
      '{ origin: /\\.localhost:\\d+$/ } or { origin: true }',
      ['{ origin: /\\.localhost:\\d+$/ }', '{ origin: true }'],
    ],
  ])('splits %s into complete expressions', (example, alternatives) => {
    expect(splitAlternatives(example)).toEqual(alternatives)
  })

  it.each([
    "{ pathRewrite: { '^/api': '' } } or { pathRewrite: false } to keep the prefix",
    "pathRewrite: { '^/api/v1': '/v2' }",
    '{ headers: { ... } }',
    '(path, req) => ...',
    '',
  ])('refuses %s, which is not JavaScript', (example) => {
    expect(splitAlternatives(example)).toBeUndefined()
  })

  it('reads option paths', () => {
    expect(parseOptionPath("routes['/it\\'s'].cors.origin[1]")).toEqual([
      { name: 'routes' },
      { key: "/it's" },
      { name: 'cors' },
      { name: 'origin' },
      { index: 1 },
    ])
    expect(parseOptionPath("routes['/api'].headers['X-Key']")).toEqual([
      { name: 'routes' },
      { key: '/api' },
      { name: 'headers' },
      { key: 'X-Key' },
    ])
  })

  it.each([
    ['INVALID_CORS', "routes['/api'].cors.origin", "{ origin: 'http://localhost:5173' }", 'fragment'],
    [
      'INVALID_CORS',
      'options.cors.origin',
      "{ cors: { origin: 'http://localhost:5173', credentials: true } }",
      'fragment',
    ],
    ['INVALID_CORS', 'cors.maxAge', '{ maxAge: 600 }', 'fragment'],
    ['INVALID_OPTION', "routes['/api'].headers['x']", "{ headers: { 'x-api-key': 'dev' } }", 'fragment'],
    ['INVALID_OPTION', "routes['/api'].mock.cors", "{ mock: { cors: 'reflect' } }", 'fragment'],
    ['UNKNOWN_OPTION', "routes['/api'].chageOrigin", '{ changeOrigin: false }', 'fragment'],
    ['UNKNOWN_OPTION', 'options.logLevel', "{ log: 'debug' }", 'fragment'],
    ['INVALID_TARGET', "routes['/api'].target", "'http://localhost:3000'", 'value'],
    ['INVALID_OPTION', 'options', "{ log: 'debug' }", 'value'],
    ['INVALID_ROUTES', 'routes', "{ '/api': 'http://localhost:3000' }", 'routes'],
    [
      'UNKNOWN_OPTION',
      "routes['/api'].log",
      "({ '/api': 'http://localhost:3000' }, { log: 'debug' })",
      'arguments',
    ],
    ['INVALID_OPTION', 'mock.cors', "createMockBackend({ cors: 'reflect' })", 'call'],
    ['INVALID_OPTION', 'jsonp.param', "createJsonpMiddleware({ param: 'callback' })", 'call'],
    ['CONFLICTING_OPTIONS', 'http2', '{ https: { cert, key }, http2: true }', 'fragment'],
  ] as const)('accepts %s at %s: %s (%s)', async (code, option, example, shape) => {
    const checked = await checkExample(error(code, option, example), await localhostCertificate())
    expect(checked.map((alternative) => alternative.shape)).toEqual([shape])
  })

  it.each([
    // Prose after the code, or a fragment that is not an expression.
    [
      'INVALID_OPTION',
      "routes['/api'].pathRewrite",
      "{ pathRewrite: { '^/api': '' } } or { pathRewrite: false } to keep the prefix",
    ],
    ['INVALID_OPTION', "routes['/api'].pathRewrite['(']", "pathRewrite: { '^/api/v1': '/v2' }"],
    ['UNKNOWN_OPTION', "routes['/api'].header", '{ headers: { ... } }'],
    // Valid JavaScript, invalid configuration.
    ['UNKNOWN_OPTION', "routes['/api'].autoRewrite", '{ pathRewrite: true }'],
    ['INVALID_CORS', "routes['/api'].cors.origin", "{ origin: 'http://localhost:5173/' }"],
    ['INVALID_TARGET', "routes['/api'].target", "'localhost:3000'"],
    ['INVALID_OPTION', 'port', '{ port: 70000 }'],
    ['UNKNOWN_OPTION', 'options.mock', "{ '/api': { target: 'http://localhost:3000', mock: true } }"],
    [
      'INVALID_CORS',
      "routes['/api'].cors",
      "{ cors: { origin: 'http://localhost:5173', credentials: 'yes' } }",
    ],
    // Names the user does not have.
    ['UNKNOWN_OPTION', 'options.logProvider', '{ logger: { info, warn, error } }'],
    ['CONFLICTING_OPTIONS', 'http2', '{ https: { cert, key, ca }, http2: true }'],
    // Right value, wrong place.
    ['UNKNOWN_OPTION', 'cors.credential', '{ cors: { credentials: true } }'],
    ['INVALID_OPTION', 'jsonp.param', "{ jsonp: { param: 'callback' } }"],
    ['UNKNOWN_OPTION', 'options.ignorePath', '{ pathRewrite: false }'],
    ['INVALID_CORS', "routes['/api'].cors.origin[1]", "'http://localhost:5173'"],
    ['INVALID_OPTION', "routes['/api'].mock.cors", "createMockBackend({ cors: 'reflect' })"],
    ['INVALID_OPTION', 'mock.cors', "{ mock: { cors: 'reflect' } }"],
    ['INVALID_CORS', 'cors.origin', "({ '/api': 'http://localhost:3000' }, { cors: true })"],
    // A configuration that works, but warns.
    ['INVALID_CORS', "routes['/api'].cors.maxAge", '{ maxAge: 86400 }'],
    // One good alternative does not excuse a bad one.
    [
      'CONFLICTING_OPTIONS',
      "routes['/api']",
      "{ '/api': { mock: true } } or { '/api': { target: 'http://localhost:3000', mock: true } }",
    ],
  ] as const)('rejects %s at %s: %s', async (code, option, example) => {
    await expect(checkExample(error(code, option, example), await localhostCertificate())).rejects.toThrow()
  })

  it('rejects an error that shows no example', async () => {
    const bare = new CorsDevProxyError('INVALID_OPTION', 'options.log', 'is wrong')
    expect(exampleOf(bare)).toBeUndefined()
    await expect(checkExample(bare, await localhostCertificate())).rejects.toThrow('shows no example')
  })
})

describe('every example fix the validators print', () => {
  it('is a configuration that resolves where the message puts it', async () => {
    const scope = await localhostCertificate()
    const problems: string[] = []
    const errors = new Map<string, CorsDevProxyError>()
    const reached = new Set<string>()
    const stackTraceLimit = Error.stackTraceLimit
    Error.stackTraceLimit = 50
    await withStacksByPath(async () => {
      for (const mistake of configMistakes()) {
        let thrown: unknown
        try {
          await mistake.run()
        } catch (caught) {
          thrown = caught
        } finally {
          Error.stackTraceLimit = 50
        }
        if (thrown === undefined) {
          if (mistake.mustThrow) problems.push(`${mistake.title}: nothing was thrown`)
          continue
        }
        if (!(thrown instanceof CorsDevProxyError)) {
          problems.push(`${mistake.title}: threw ${String(thrown)} instead of a CorsDevProxyError`)
          continue
        }
        for (const frame of framesOf(thrown)) reached.add(frame)
        const key = `${thrown.code} ${thrown.option}\n${exampleOf(thrown)}`
        if (!errors.has(key)) errors.set(key, thrown)
      }
    }).finally(() => {
      Error.stackTraceLimit = stackTraceLimit
    })
    const sites = throwSites()
    for (const site of sites) {
      if (!reached.has(site)) problems.push(`${site}: no mistake in the corpus reaches this throw`)
    }

    const checked: CheckedAlternative[] = []
    const examples = new Set<string>()
    for (const thrown of errors.values()) {
      examples.add(exampleOf(thrown) ?? '')
      try {
        checked.push(...(await checkExample(thrown, scope)))
      } catch (failure) {
        problems.push(`${thrown.code}: ${(failure as Error).message}`)
      }
    }
    expect(problems).toEqual([])

    const shapes = new Map<string, Set<string>>()
    for (const alternative of checked) {
      const sources = shapes.get(alternative.shape) ?? new Set()
      sources.add(alternative.source)
      shapes.set(alternative.shape, sources)
    }
    const byShape = [...shapes].map(([shape, sources]) => `${shape} ${sources.size}`).join(', ')
    const summary = `${errors.size} places, ${examples.size} distinct examples, ${sites.length} throw sites; alternatives by shape: ${byShape}`
    expect([...shapes.keys()].sort(), summary).toEqual(['arguments', 'call', 'fragment', 'routes', 'value'])
    expect(examples.size, summary).toBeGreaterThanOrEqual(MIN_DISTINCT_EXAMPLES)
    expect(errors.size, summary).toBeGreaterThanOrEqual(MIN_CHECKED_PLACES)
    expect(sites.length, summary).toBeGreaterThanOrEqual(MIN_THROW_SITES)
  })
})
