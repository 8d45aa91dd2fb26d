import { createServer, type IncomingMessage } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../test/support/proxy-server.js'
import { listen, sendRequest } from '../../../../test/support/servers.js'
import { CorsDevProxyError } from '../../src/config/errors.js'
import type { ProxyRequest } from '../../src/config/options.js'
import { createPathRewriter, removesPrefixOnly } from '../../src/config/resolve-path-rewrite.js'
import { PathRewriteFailure } from '../../src/http/rewrite-path.js'

// The rewriters only hand the request to user functions; a marker object shows it is passed through.
const req = { url: '/marker' } as IncomingMessage as ProxyRequest

describe('createPathRewriter: default (prefix removed)', () => {
  const rewrite = createPathRewriter({ prefix: '/api' })
  it.each([
    ['/api/users?x=1', '/users?x=1'],
    ['/api/users', '/users'],
    // The prefix itself leaves an empty path: joinTargetPath sends the target's own path.
    ['/api', ''],
    ['/api/', '/'],
    ['/api?q=1', '?q=1'],
    ['/api/?q=1', '/?q=1'],
    ['/api//x', '//x'],
    ['/api/a/b/c', '/a/b/c'],
  ])('%s → %s', (input, expected) => {
    expect(rewrite(input, req)).toBe(expected)
  })

  it('keeps the path for the root route', () => {
    expect(createPathRewriter({ prefix: '/' })('/users?x=1', req)).toBe('/users?x=1')
  })

  it('removes a multi-segment prefix', () => {
    expect(createPathRewriter({ prefix: '/api/v1' })('/api/v1/users?x', req)).toBe('/users?x')
  })
})

describe('createPathRewriter: false keeps the path', () => {
  it.each(['/api/users?x=1', '/api', '/api?q'])('%s', (input) => {
    expect(createPathRewriter({ prefix: '/api', pathRewrite: false })(input, req)).toBe(input)
  })
})

describe('createPathRewriter: object of RegExp → replacement (http-proxy-middleware 3 semantics)', () => {
  it.each([
    [{ '^/api': '' }, '/api/users?x=1', '/users?x=1'],
    [{ '^/api': '' }, '/api', ''],
    [{ '^/api': '' }, '/api?q=1', '?q=1'],
    [{ '^/api': '/v2' }, '/api/users', '/v2/users'],
    [{ '^/api/old': '/api/new' }, '/api/old/x', '/api/new/x'],
    // No rule matches: the path is forwarded unchanged, prefix included.
    [{ '^/api/old': '/api/new' }, '/api/other', '/api/other'],
    // Empty object: no rules, path unchanged.
    [{}, '/api/x', '/api/x'],
    // First matching rule wins, in insertion order; later rules are not applied.
    [{ '^/api/a': '/first', '^/api': '/second', '/first': '/third' }, '/api/a/b', '/first/b'],
    [{ '^/api/b': '/first', '^/api': '/second' }, '/api/a/b', '/second/a/b'],
    // Only the first occurrence is replaced (no `g` flag), as with String.prototype.replace.
    [{ x: 'y' }, '/api/x/x', '/api/y/x'],
    // Capture groups work.
    [{ '^/api/users/(\\d+)': '/people/$1' }, '/api/users/42?full', '/people/42?full'],
    // A result without a leading slash gets one.
    [{ '^/api/': '' }, '/api/users', '/users'],
  ])('%j: %s → %s', (rules, input, expected) => {
    expect(createPathRewriter({ prefix: '/api', pathRewrite: rules })(input, req)).toBe(expected)
  })

  it('refuses an invalid RegExp at construction, naming the rule', () => {
    const build = () =>
      createPathRewriter({
        prefix: '/api',
        pathRewrite: { '^/api(': '' },
        option: "routes['/api'].pathRewrite",
      })
    expect(build).toThrow(CorsDevProxyError)
    expect(build).toThrow("routes['/api'].pathRewrite['^/api('] is not a valid regular expression")
    expect(build).toThrow('Fix it like this:')
  })

  it("quotes the rule's key as a JavaScript literal in the error, whatever it contains", () => {
    const build = () =>
      createPathRewriter({ prefix: '/api', pathRewrite: { "^/it's(": '' }, option: 'pathRewrite' })
    expect(build).toThrow("pathRewrite['^/it\\'s('] is not a valid regular expression")
  })
})

describe('createPathRewriter: function', () => {
  it('gets the full path and the request, and its string result is used', () => {
    const seen: unknown[] = []
    const rewrite = createPathRewriter({
      prefix: '/api',
      pathRewrite: (path, request) => {
        seen.push(path, request)
        return path.replace(/^\/api/, '/v2')
      },
    })
    expect(rewrite('/api/users?x=1', req)).toBe('/v2/users?x=1')
    expect(seen).toEqual(['/api/users?x=1', req])
  })

  it.each([
    ['', ''],
    ['users', '/users'],
    ['?q=1', '?q=1'],
    ['http://evil.example/x', '/http://evil.example/x'],
  ])('a result %j becomes %j (an empty one stays empty, for joinTargetPath)', (result, expected) => {
    expect(createPathRewriter({ prefix: '/api', pathRewrite: () => result })('/api/x', req)).toBe(expected)
  })

  it.each([
    ['undefined', () => undefined, 'returned undefined'],
    ['a number', () => 42, 'returned number'],
  ])('%s keeps the path unchanged, reports it, and never throws', (_name, fn, text) => {
    const problems: Array<[string, string]> = []
    const rewrite = createPathRewriter({
      prefix: '/api',
      pathRewrite: fn as unknown as (path: string) => string,
      option: "routes['/api'].pathRewrite",
    })
    const report = (message: string, key: string) => problems.push([message, key])
    expect(rewrite('/api/x?y', req, report)).toBe('/api/x?y')
    expect(rewrite('/api/z', req, report)).toBe('/api/z')
    expect(problems).toHaveLength(2)
    expect(problems[0]?.[0]).toContain(text)
    expect(problems[0]?.[0]).toContain("routes['/api'].pathRewrite")
    // The same cause gives the same key, so the logger prints it once.
    expect(problems[0]?.[1]).toBe(problems[1]?.[1])
  })

  it('a throw is a PathRewriteFailure naming the option, with the cause kept', () => {
    const cause = new Error('boom')
    const rewrite = createPathRewriter({
      prefix: '/api',
      pathRewrite: () => {
        throw cause
      },
      option: "routes['/api'].pathRewrite",
    })
    const caught = (() => {
      try {
        rewrite('/api/x', req)
      } catch (error) {
        return error
      }
    })()
    expect(caught).toBeInstanceOf(PathRewriteFailure)
    expect(caught).toMatchObject({
      option: "routes['/api'].pathRewrite",
      message: "routes['/api'].pathRewrite threw: boom",
      cause,
    })
  })

  it('hands a function the options it is given (the request’s copy), else the route as written', () => {
    const seen: unknown[] = []
    const source = { target: 'http://h' }
    const rewrite = createPathRewriter({
      prefix: '/api',
      pathRewrite: (path, _req, _res, options) => {
        seen.push(options)
        return path
      },
      source,
    })
    const copy = { ...source, headers: {} }
    rewrite('/api/x', req, undefined, undefined, copy)
    rewrite('/api/x', req)
    expect(seen[0]).toBe(copy)
    expect(seen[1]).toBe(source)
  })

  it('awaits an async function, and stays synchronous for a synchronous one', async () => {
    const rewrite = createPathRewriter({
      prefix: '/api',
      pathRewrite: async (path) => {
        await new Promise((resolve) => setTimeout(resolve, 5))
        return path.replace(/^\/api/, '/v2')
      },
    })
    const result = rewrite('/api/users?x=1', req)
    expect(result).toBeInstanceOf(Promise)
    expect(await result).toBe('/v2/users?x=1')
    expect(createPathRewriter({ prefix: '/api', pathRewrite: (path) => path })('/api/x', req)).toBe('/api/x')
  })

  it('an async function that resolves to undefined keeps the path unchanged and reports it', async () => {
    const problems: string[] = []
    const rewrite = createPathRewriter({
      prefix: '/api',
      pathRewrite: (async () => undefined) as unknown as (path: string) => Promise<string>,
      option: "routes['/api'].pathRewrite",
    })
    expect(await rewrite('/api/x', req, (message) => problems.push(message))).toBe('/api/x')
    expect(problems).toEqual([expect.stringContaining('returned undefined')])
  })

  it('an async function that rejects rejects with a PathRewriteFailure naming the option', async () => {
    const rewrite = createPathRewriter({
      prefix: '/api',
      pathRewrite: async () => Promise.reject(new Error('lookup failed')),
      option: "routes['/api'].pathRewrite",
    })
    await expect(rewrite('/api/x', req)).rejects.toThrow(
      new PathRewriteFailure("routes['/api'].pathRewrite", new Error('lookup failed')),
    )
  })
})

describe('pathRewrite over real sockets', () => {
  const cleanup: Array<() => Promise<void>> = []
  afterEach(async () => {
    for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
  })

  it('sends each form of pathRewrite to the target, joined to the base path, query kept', async () => {
    const target = await listen(createServer((request, response) => response.end(request.url)))
    cleanup.push(target.close)
    const proxy = await serveProxy(
      {
        '/default': target.url,
        '/based': `${target.url}/v1/`,
        '/kept': { target: target.url, pathRewrite: false },
        '/rules': {
          target: target.url,
          pathRewrite: { '^/rules/old': '/new', '^/rules/users/(\\d+)': '/people/$1' },
        },
        '/fn': {
          target: `${target.url}/base`,
          pathRewrite: (path, request) => `/${request.method?.toLowerCase()}${path.replace(/^\/fn/, '')}`,
        },
      },
      { log: 'silent' },
    )
    cleanup.push(proxy.close)
    const cases: Array<[path: string, upstream: string]> = [
      ['/default/users?x=1', '/users?x=1'],
      ['/default', '/'],
      ['/default?x=1', '/?x=1'],
      ['/based/users?x=1', '/v1/users?x=1'],
      ['/based', '/v1/'],
      ['/kept/users?x=1', '/kept/users?x=1'],
      ['/kept', '/kept'],
      ['/rules/old/x?y=2', '/new/x?y=2'],
      ['/rules/users/42?full', '/people/42?full'],
      ['/rules/other', '/rules/other'],
      ['/fn/users?x=1', '/base/get/users?x=1'],
    ]
    for (const [path, upstream] of cases) {
      expect((await sendRequest(`${proxy.url}${path}`)).body.toString(), path).toBe(upstream)
    }
  })
})

describe('removesPrefixOnly: the default rewrite written out as a map', () => {
  it.each<[prefix: string, pathRewrite: Record<string, string> | false | undefined, expected: boolean]>([
    ['/api', { '^/api': '' }, true],
    ['/api', { '^\\/api': '' }, true],
    ['/api/v1', { '^/api/v1': '' }, true],
    ['/api', { '^/api': '/v2' }, false],
    ['/api', { '^/api/': '' }, false],
    ['/api', { '/api': '' }, false],
    ['/api', { '^/api': '', '^/x': '' }, false],
    ['/api', { '^/other': '' }, false],
    ['/a+b', { '^/a+b': '' }, false],
    ['/', { '^/': '' }, false],
    ['/api', false, false],
    ['/api', undefined, false],
  ])('%s with %o → %s', (prefix, pathRewrite, expected) => {
    expect(removesPrefixOnly(prefix, pathRewrite)).toBe(expected)
  })

  it('rewrites every path the way the default does, so the resolver may keep the default', () => {
    const written = createPathRewriter({ prefix: '/api', pathRewrite: { '^/api': '' } })
    const fallback = createPathRewriter({ prefix: '/api' })
    const req = {} as ProxyRequest
    for (const path of ['/api', '/api/', '/api/users', '/api?x=1', '/api/users?x=/api']) {
      expect(written(path, req)).toBe(fallback(path, req))
    }
  })
})
