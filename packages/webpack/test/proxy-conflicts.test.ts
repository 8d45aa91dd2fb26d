import { describe, expect, it } from 'vitest'
import { findProxyConflicts, type ProxyConflict } from '../src/proxy-conflicts.js'

const target = 'http://localhost:4000'

/** `index key 'context' → prefix`, with `(glob)` when estimated from a glob: one string per conflict. */
function summary(conflicts: ProxyConflict[]): string[] {
  return conflicts.map(
    ({ index, key, context, glob, prefix }) =>
      `${index} ${key} '${context}' → ${prefix}${glob ? ' (glob)' : ''}`,
  )
}

describe('findProxyConflicts', () => {
  it.each<[title: string, prefixes: string[], proxy: unknown, expected: string[]]>([
    ['the same path', ['/api'], [{ context: '/api', target }], ["0 context '/api' → /api"]],
    [
      'a context that is a leading part of the prefix (startsWith)',
      ['/api'],
      [{ context: '/ap', target }],
      ["0 context '/ap' → /api"],
    ],
    [
      'a context under the prefix',
      ['/api'],
      [{ context: '/api/v1', target }],
      ["0 context '/api/v1' → /api"],
    ],
    [
      'a context on a segment boundary under the prefix',
      ['/api'],
      [{ context: '/api/', target }],
      ["0 context '/api/' → /api"],
    ],
    [
      'the root context takes every route, longest prefix first',
      ['/api', '/live'],
      [{ context: '/', target }],
      ["0 context '/' → /live", "0 context '/' → /api"],
    ],
    ['a route on / takes every context', ['/'], [{ context: '/other', target }], ["0 context '/other' → /"]],
    ['segment-safe: /api2 is not under /api', ['/api'], [{ context: '/api2', target }], []],
    ['segment-safe: /api is not under /api2', ['/api2'], [{ context: '/api/x', target }], []],
    ['an unrelated path', ['/api'], [{ context: '/auth', target }], []],
    [
      'a list names the element that overlaps',
      ['/api'],
      [{ context: ['/auth', '/api/v1'], target }],
      ["0 context '/api/v1' → /api"],
    ],
    [
      'the path answered by a longer route names that route only',
      ['/api', '/api/v2'],
      [{ context: '/api/v2/users', target }],
      ["0 context '/api/v2/users' → /api/v2"],
    ],
    [
      'a context around a longer route names it and the route of the context itself',
      ['/api', '/api/v2'],
      [{ context: '/api/v', target }],
      ["0 context '/api/v' → /api/v2", "0 context '/api/v' → /api"],
    ],
    [
      'a glob, from its literal start',
      ['/api'],
      [{ context: '/api/**', target }],
      ["0 context '/api/**' → /api (glob)"],
    ],
    ['a glob elsewhere', ['/api'], [{ context: '/api2/**', target }], []],
    [
      'a glob without a literal start may take any route',
      ['/api'],
      [{ context: '**/*.json', target }],
      ["0 context '**/*.json' → /api (glob)"],
    ],
    [
      'negations in a glob list only remove paths',
      ['/api'],
      [{ context: ['/static/**', '!**/*.html'], target }],
      [],
    ],
    ['`path`, the older key', ['/api'], [{ path: '/api', target }], ["0 path '/api' → /api"]],
    [
      "`pathFilter`, http-proxy-middleware 3's key",
      ['/api'],
      [{ pathFilter: '/api', target }],
      ["0 pathFilter '/api' → /api"],
    ],
    [
      '`context` first, as webpack-dev-server reads it',
      ['/api'],
      [{ context: '/other', pathFilter: '/api', target }],
      [],
    ],
    [
      'an entry with a router and no target',
      ['/api'],
      [{ context: '/api', router: () => target }],
      ["0 context '/api' → /api"],
    ],
    [
      'the index of each entry',
      ['/api'],
      [
        { context: '/auth', target },
        { context: '/api', target },
      ],
      ["1 context '/api' → /api"],
    ],
    ['a function context cannot be analysed', ['/api'], [{ context: () => true, target }], []],
    ['an entry given as a function cannot be analysed', ['/api'], [() => ({ context: '/api', target })], []],
    ['a bypass-only entry proxies nothing', ['/api'], [{ context: '/api', bypass: () => '/index.html' }], []],
    ['an entry without a filter is not guessed at', ['/api'], [{ target }], []],
    ['no proxy option', ['/api'], undefined, []],
    ['a proxy option that is not a list', ['/api'], { '/api': target }, []],
  ])('%s', (_title, prefixes, proxy, expected) => {
    expect(summary(findProxyConflicts(prefixes, proxy))).toEqual(expected)
  })

  it('never mutates the option it reads', () => {
    const proxy = Object.freeze([
      Object.freeze({ context: Object.freeze(['/api/**', '!**/*.html']), target }),
    ])
    expect(summary(findProxyConflicts(['/api'], proxy))).toEqual(["0 context '/api/**' → /api (glob)"])
  })
})
