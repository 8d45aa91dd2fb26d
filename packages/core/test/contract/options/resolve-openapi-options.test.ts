import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { expectConfigError } from '../../../../../test/support/config-error.js'
import { resolveOptions } from '../../../src/config/resolve-options.js'
import { resolveRoute } from '../../../src/config/resolve-route.js'
import { checkOpenApi, openApiDocumentSource } from '../../../src/contract/options/resolve-openapi-options.js'
import { describeRoutes } from '../../../src/log/describe-routes.js'

const TARGET = 'http://localhost:3000'
const AT = "routes['/api'].openapi"
const DEFAULTS = { enforce: false, mock: false, maxBodyBytes: 1_048_576 }
const PETSTORE = { openapi: '3.0.3', info: { title: 'Pets', version: '1' }, paths: {} }

/** The resolved `openapi` of a route `/api` to the target with `openapi: value`. */
const resolvedOn = (value: unknown) => {
  const route = resolveRoute('/api', { target: TARGET, openapi: value })
  if (route.kind !== 'forward') throw new Error('a forwarding route was expected')
  return route.openapi
}

describe("a route's openapi, resolved", () => {
  it.each([
    ['a path', './openapi.yaml', { document: './openapi.yaml', ...DEFAULTS }],
    [
      'a URL string',
      'https://api.test/openapi.json',
      { document: 'https://api.test/openapi.json', ...DEFAULTS },
    ],
    [
      'an object with every field',
      { document: 'spec/openapi.yaml', enforce: 'request', mock: 'missing', maxBodyBytes: 0 },
      { document: 'spec/openapi.yaml', enforce: 'request', mock: 'missing', maxBodyBytes: 0 },
    ],
    [
      'switches off',
      { document: './a.yaml', enforce: false, mock: false },
      { document: './a.yaml', ...DEFAULTS },
    ],
  ])('from %s', (_title, written, expected) => {
    const resolved = resolvedOn(written)
    expect(resolved).toEqual(expected)
    expect(Object.isFrozen(resolved)).toBe(true)
  })

  it('from a URL object, copied', () => {
    const url = new URL('https://api.test/v1/openapi.yaml')
    const resolved = resolvedOn({ document: url })
    expect(resolved?.document).toBeInstanceOf(URL)
    expect(String(resolved?.document)).toBe(url.href)
    expect(resolved?.document).not.toBe(url)
    expect(resolvedOn(url)).toEqual({ document: url, ...DEFAULTS })
  })

  it('from the document as an object, a copy the caller keeps untouched', () => {
    const resolved = resolvedOn({ document: PETSTORE, mock: 'missing' })
    expect(resolved).toEqual({ document: PETSTORE, ...DEFAULTS, mock: 'missing' })
    expect(resolved?.document).not.toBe(PETSTORE)
  })

  it('is absent without openapi, or with false, and on the default route', () => {
    expect(resolvedOn(undefined)).toBeUndefined()
    expect(resolvedOn(false)).toBeUndefined()
    expect(resolveOptions({ '/api': TARGET }).routes[0]).toMatchObject({ openapi: undefined })
  })

  it('says where the document is on the routes line', () => {
    const route = resolveRoute('/api', {
      target: TARGET,
      openapi: { document: './openapi.yaml', enforce: 'request', mock: 'missing' },
    })
    expect(describeRoutes([route])).toBe(
      'routes: /api → http://localhost:3000 (openapi: ./openapi.yaml, enforce: request, mock: missing)',
    )
    const inline = resolveRoute('/api', { target: TARGET, openapi: { document: PETSTORE } })
    expect(describeRoutes([inline])).toBe('routes: /api → http://localhost:3000 (openapi: inline)')
  })
})

describe("a route's openapi, refused", () => {
  it.each([
    [
      'bad enforce',
      { document: './a.yaml', enforce: true },
      `${AT}.enforce`,
      ["must be false or 'request'", "enforce: 'request'"],
    ],
    [
      'bad enforce word',
      { document: './a.yaml', enforce: 'response' },
      `${AT}.enforce`,
      ["enforce: 'request'"],
    ],
    [
      'bad mock',
      { document: './a.yaml', mock: true },
      `${AT}.mock`,
      ["must be false or 'missing'", "mock: 'missing'"],
    ],
    [
      'negative maxBodyBytes',
      { document: './a.yaml', maxBodyBytes: -1 },
      `${AT}.maxBodyBytes`,
      ['whole number from 0'],
    ],
    ['no document', { enforce: 'request' }, `${AT}.document`, ['is missing']],
    ['a number', 42, AT, ['must be a path, a URL or { document']],
    ['an empty path', { document: ' ' }, `${AT}.document`, ['must be a path']],
    ['an ftp: URL', 'ftp://api.test/openapi.yaml', AT, ['http:, https: or file: URL, got ftp:']],
    [
      'Swagger 2.0',
      { document: { swagger: '2.0', paths: {} } },
      `${AT}.document`,
      ['Swagger 2.0', 'swagger2openapi'],
    ],
    [
      'no openapi version',
      { document: { paths: {} } },
      `${AT}.document`,
      ['OpenAPI 3.0 or 3.1', 'got undefined'],
    ],
    [
      'an OpenAPI 4 document',
      { document: { ...PETSTORE, openapi: '4.0.0' } },
      `${AT}.document`,
      ["got '4.0.0'"],
    ],
    ['a function inside', { document: { ...PETSTORE, x: () => 1 } }, `${AT}.document`, ['plain data']],
  ])('%s', (_title, written, option, contains) => {
    expectConfigError(() => resolvedOn(written), {
      code: 'INVALID_OPTION',
      option,
      contains: [...contains, "Fix it like this: { openapi: { document: './openapi.yaml'"],
    })
  })

  it.each([
    [
      'enfore',
      'request',
      'did you mean `enforce`?',
      "Fix it like this: { openapi: { document: './openapi.yaml', enforce: 'request' } }",
    ],
    [
      'maxBodySize',
      10,
      'did you mean `maxBodyBytes`?',
      "document: './openapi.yaml', maxBodyBytes: 1048576 } }",
    ],
    ['documnt', './a.yaml', 'did you mean `document`?', "{ openapi: { document: './openapi.yaml' } }"],
    ['errors', true, "Prism's `--errors`", "{ openapi: { document: './openapi.yaml', enforce: 'request' } }"],
    ['apiSpec', './a.yaml', 'is called `document` here', "{ openapi: { document: './openapi.yaml' } }"],
    ['zzzz', 1, 'Known options: document, enforce, mock, maxBodyBytes', "enforce: 'request' } }"],
  ])('an unknown key %s', (key, value, problem, fix) => {
    expectConfigError(() => resolvedOn({ document: './a.yaml', [key]: value }), {
      code: 'UNKNOWN_OPTION',
      option: `${AT}.${key}`,
      contains: [problem, fix],
    })
  })

  it('on a mock route, and in the shared options', () => {
    expectConfigError(() => resolveRoute('/api', { mock: true, openapi: './openapi.yaml' }), {
      code: 'CONFLICTING_OPTIONS',
      option: AT,
      contains: ["openapi: './openapi.yaml'"],
    })
    expectConfigError(() => resolveOptions({ '/api': TARGET }, { openapi: './openapi.yaml' } as never), {
      code: 'UNKNOWN_OPTION',
      option: 'options.openapi',
      contains: ["{ '/api': { target: 'http://localhost:3000', openapi: './openapi.yaml' } }"],
    })
  })

  it('is the option table validator, named by its path', () => {
    expect(checkOpenApi('./a.yaml', 'x')).toEqual({ document: './a.yaml', ...DEFAULTS })
  })
})

describe('where a resolved document is read from', () => {
  const root = resolve('/srv/app')

  it.each([
    [
      'a relative path, against the root',
      './openapi.yaml',
      { kind: 'file', path: resolve(root, 'openapi.yaml') },
    ],
    [
      'an absolute path, as it is',
      resolve('/specs/openapi.yaml'),
      { kind: 'file', path: resolve('/specs/openapi.yaml') },
    ],
    [
      'a file: URL, as its path',
      pathToFileURL(resolve('/specs/a.yaml')),
      { kind: 'file', path: resolve('/specs/a.yaml') },
    ],
    [
      'an https: URL string',
      'https://api.test/openapi.yaml',
      { kind: 'url', url: new URL('https://api.test/openapi.yaml') },
    ],
    ['an object', PETSTORE, { kind: 'object', document: PETSTORE }],
  ])('%s', (_title, document, expected) => {
    expect(openApiDocumentSource(document, root)).toEqual(expected)
  })
})
