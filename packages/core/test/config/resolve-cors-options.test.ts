import { describe, expect, it } from 'vitest'
import type { CorsOptions } from '../../src/config/cors-options.js'
import { CorsDevProxyError } from '../../src/config/errors.js'
import { resolveCorsOptions } from '../../src/config/resolve-cors-options.js'

function errorOf(options: unknown, option?: string): CorsDevProxyError {
  try {
    resolveCorsOptions(options as CorsOptions, { option })
  } catch (error) {
    if (error instanceof CorsDevProxyError) return error
    throw error
  }
  throw new Error('expected a CorsDevProxyError')
}

describe('resolveCorsOptions', () => {
  it('fills in the defaults', () => {
    const resolved = resolveCorsOptions(true)!
    expect(resolved).toMatchObject({
      allowMethods: 'GET,HEAD,PUT,PATCH,POST,DELETE',
      allowHeaders: undefined,
      exposeHeaders: undefined,
      credentials: false,
      maxAge: undefined,
      preflightContinue: false,
      optionsSuccessStatus: 204,
    })
    expect(resolved.origin.kind).toBe('match')
    expect(Object.isFrozen(resolved)).toBe(true)
  })

  it.each([
    [undefined, { loopback: true, origins: [], patterns: [] }],
    ['HTTP://LocalHost:80', { loopback: false, origins: ['http://localhost'], patterns: [] }],
    [/\.test$/i, { loopback: false, origins: [], patterns: [/\.test$/i] }],
    [
      ['http://a.test', /^https:\/\/b\.test$/g, 'null', 'http://a.test'],
      { loopback: false, origins: ['http://a.test', 'null'], patterns: [/^https:\/\/b\.test$/] },
    ],
  ])('keeps what origin %s admits, as written, for the exports', (origin, allowed) => {
    const policy = resolveCorsOptions({ origin })!.origin
    expect(policy.kind === 'match' && policy.allowed).toEqual(allowed)
    expect(policy.kind === 'match' && Object.isFrozen(policy.allowed.patterns)).toBe(true)
  })

  it('means no policy for false, undefined and origin: false', () => {
    expect(resolveCorsOptions(false)).toBeUndefined()
    expect(resolveCorsOptions(undefined)).toBeUndefined()
    expect(resolveCorsOptions({ origin: false })).toBeUndefined()
  })

  it('joins lists as the cors package does and never mutates the input', () => {
    const options: CorsOptions = Object.freeze({
      origin: Object.freeze([/x/g]) as unknown as RegExp[],
      methods: ['GET', 'PUT'],
      allowedHeaders: ['content-type', 'x-a'],
      exposedHeaders: 'x-total',
      maxAge: 0,
    })
    const resolved = resolveCorsOptions(options)!
    expect(resolved).toMatchObject({
      allowMethods: 'GET,PUT',
      allowHeaders: 'content-type,x-a',
      exposeHeaders: 'x-total',
      maxAge: '0',
    })
    expect((options.origin as RegExp[])[0]!.flags).toBe('g')
  })

  it.each([
    [{ origni: true }, 'UNKNOWN_OPTION', "routes['/api'].cors.origni", /did you mean `origin`/],
    [{ headers: ['x-a'] }, 'UNKNOWN_OPTION', "routes['/api'].cors.headers", /did you mean `allowedHeaders`/],
    [{ bogus: 1 }, 'UNKNOWN_OPTION', "routes['/api'].cors.bogus", /Known options: origin, methods/],
    [{ origin: '*', credentials: true }, 'INVALID_CORS', "routes['/api'].cors.origin", /browser refuses/],
    [
      { origin: 'http://localhost:5173/' },
      'INVALID_CORS',
      "routes['/api'].cors.origin",
      /remove the trailing slash/,
    ],
    [{ origin: 'localhost:5173' }, 'INVALID_CORS', "routes['/api'].cors.origin", /scheme:\/\/host\[:port\]/],
    [
      { origin: ['http://localhost:5173', '*'] },
      'INVALID_CORS',
      "routes['/api'].cors.origin[1]",
      /matches nothing/,
    ],
    [{ origin: [42] }, 'INVALID_CORS', "routes['/api'].cors.origin[0]", /got a number/],
    [{ origin: 42 }, 'INVALID_CORS', "routes['/api'].cors.origin", /must be true, '\*'/],
    [{ methods: 'GET, P UT' }, 'INVALID_CORS', "routes['/api'].cors.methods", /"P UT"/],
    [{ methods: 5 }, 'INVALID_CORS', "routes['/api'].cors.methods", /string or an array/],
    [{ allowedHeaders: [1] }, 'INVALID_CORS', "routes['/api'].cors.allowedHeaders", /strings only/],
    [{ credentials: 'yes' }, 'INVALID_CORS', "routes['/api'].cors.credentials", /true or false/],
    [{ maxAge: -1 }, 'INVALID_CORS', "routes['/api'].cors.maxAge", /whole number/],
    [{ maxAge: '600' }, 'INVALID_CORS', "routes['/api'].cors.maxAge", /whole number/],
    [{ optionsSuccessStatus: 404 }, 'INVALID_CORS', "routes['/api'].cors.optionsSuccessStatus", /2xx/],
    [{ preflightContinue: 1 }, 'INVALID_CORS', "routes['/api'].cors.preflightContinue", /true or false/],
    [[], 'INVALID_CORS', "routes['/api'].cors", /must be true, false or an object/],
  ])('rejects %j', (options, code, option, problem) => {
    const error = errorOf(options, "routes['/api'].cors")
    expect(error.code).toBe(code)
    expect(error.option).toBe(option)
    expect(error.message).toMatch(problem)
    expect(error.message).toContain('Fix it like this:')
  })

  it.each([
    ["routes['/api'].cors", [], '{ cors: { credentials: true } }'],
    ['cors', [], 'createCorsMiddleware({ credentials: true })'],
    ['cors', { credential: true }, 'createCorsMiddleware({ credentials: true })'],
    ['cors', { bogus: 1 }, "createCorsMiddleware({ origin: 'http://localhost:5173', credentials: true })"],
    [
      'cors',
      { origin: '*', credentials: true },
      "createCorsMiddleware({ origin: 'http://localhost:5173', credentials: true }) or createCorsMiddleware({ origin: true, credentials: true })",
    ],
    [
      "routes['/api'].cors",
      { origin: [/x/, 1] },
      "{ origin: ['http://localhost:5173', /\\.localhost:\\d+$/] }",
    ],
  ])('at %s, shows %j the fix for where it is written', (option, options, example) => {
    expect(errorOf(options, option).message).toContain(`Fix it like this: ${example}`)
  })

  it('warns about what the browser caps or ignores', () => {
    const warnings: string[] = []
    const warn = (message: string) => warnings.push(message)
    resolveCorsOptions({ maxAge: 86400 }, { warn })
    resolveCorsOptions({ methods: ['get', 'patch', 'PATCH'] }, { warn })
    resolveCorsOptions({ origin: true, credentials: true, allowedHeaders: '*' }, { warn })
    resolveCorsOptions({ maxAge: 7200, methods: 'GET,PUT', allowedHeaders: '*' }, { warn })
    expect(warnings).toHaveLength(4)
    expect(warnings[0]).toMatch(/cors\.maxAge is 86400 s, but Chromium caches a preflight for at most 7200 s/)
    expect(warnings[1]).toMatch(/lists 'get': the browser sends GET and compares case-sensitively/)
    expect(warnings[2]).toMatch(/lists 'patch': it matches only scripts that write 'patch'/)
    expect(warnings[3]).toMatch(/'\*' with `credentials: true`/)
  })

  it('warns that Set-Cookie is never exposed to a script, and only then', () => {
    const warnings: string[] = []
    const warn = (message: string) => warnings.push(message)
    resolveCorsOptions({ exposedHeaders: ['x-total', 'Set-Cookie'] }, { warn, option: "routes['/api'].cors" })
    resolveCorsOptions({ exposedHeaders: 'x-total, x-set-cookie' }, { warn })
    expect(warnings).toEqual([
      expect.stringMatching(
        /^routes\['\/api'\]\.cors\.exposedHeaders lists 'Set-Cookie', which the browser never lets a script read/,
      ),
    ])
  })
})
