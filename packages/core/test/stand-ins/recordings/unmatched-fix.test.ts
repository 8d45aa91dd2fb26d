import { describe, expect, it } from 'vitest'
import { resolveOptions } from '../../../src/adapter.js'
import { checkMatch } from '../../../src/stand-ins/recordings/options/resolve-match-options.js'
import type { Difference } from '../../../src/stand-ins/recordings/recording-diff.js'
import { type FixRoute, unmatchedFixes } from '../../../src/stand-ins/recordings/unmatched-fix.js'
import { encodeUnmatchedNote, readUnmatchedNote } from '../../../src/stand-ins/recordings/unmatched-note.js'

/*
 * The fixes the overlay and the inspector show for a request no recording matches under
 * `replay: 'only'` (each a route object the proxy accepts), and the header note that carries
 * them with the differences (printable ASCII, bounded, read back whole).
 */

const route = (match?: unknown, target: string | undefined = 'http://localhost:3000'): FixRoute => ({
  prefix: '/api',
  target,
  match: checkMatch(match, "routes['/api'].match"),
})
const query = (name: string, recorded?: string, request?: string): Difference => ({
  part: 'query',
  name,
  recorded,
  request,
})

/** Every fix's config evaluates to routes the proxy resolves without an error. */
function expectValid(configs: readonly string[]): void {
  for (const config of configs) {
    const routes = new Function(`return ${config}`)() as Parameters<typeof resolveOptions>[0]
    expect(() => resolveOptions(routes, { log: 'silent' }), config).not.toThrow()
  }
}

describe('unmatchedFixes', () => {
  it.each([
    {
      what: 'a query key only the request has: record it, or ignore the key',
      route: route(),
      found: [query('_t', undefined, '1712')],
      configs: [
        "{ '/api': { target: 'http://localhost:3000', record: 'missing' } }",
        "{ '/api': { target: 'http://localhost:3000', replay: 'only', match: { ignoreQuery: ['_t'] } } }",
      ],
    },
    {
      what: "the route's own rules are kept, the key added to its ignoreQuery",
      route: route({ ignoreQuery: ['ts'], matchHeaders: ['X-Tenant'], body: 'subset' }),
      found: [query('page', '2', '3')],
      configs: [
        "{ '/api': { target: 'http://localhost:3000', record: 'missing', match: { ignoreQuery: ['ts'], matchHeaders: ['x-tenant'], body: 'subset' } } }",
        "{ '/api': { target: 'http://localhost:3000', replay: 'only', match: { ignoreQuery: ['ts', 'page'], matchHeaders: ['x-tenant'], body: 'subset' } } }",
      ],
    },
    {
      what: 'a body field that differs: record it only',
      route: route(),
      found: [{ part: 'body', name: 'name', recorded: '"second"', request: '"third"' } as const],
      configs: ["{ '/api': { target: 'http://localhost:3000', record: 'missing' } }"],
    },
    {
      what: "body fields only the request has: body: 'subset'",
      route: route(),
      found: [{ part: 'body', name: 'requestId', recorded: undefined, request: '"r1"' } as const],
      configs: [
        "{ '/api': { target: 'http://localhost:3000', record: 'missing' } }",
        "{ '/api': { target: 'http://localhost:3000', replay: 'only', match: { body: 'subset' } } }",
      ],
    },
    {
      what: 'a query key and the method: record it only',
      route: route(),
      found: [query('_t', undefined, '1'), { part: 'method', recorded: 'GET', request: 'PUT' } as const],
      configs: ["{ '/api': { target: 'http://localhost:3000', record: 'missing' } }"],
    },
    {
      what: 'a match function decides: no rules written over it',
      route: route(() => true),
      found: [query('_t', undefined, '1')],
      configs: ["{ '/api': { target: 'http://localhost:3000', record: 'missing' } }"],
    },
    {
      what: 'quotes in a prefix, a target and a key stay inside their literals',
      route: { ...route(), prefix: "/it's" },
      found: [query("a'b\\", undefined, '1')],
      configs: [
        "{ '/it\\'s': { target: 'http://localhost:3000', record: 'missing' } }",
        "{ '/it\\'s': { target: 'http://localhost:3000', replay: 'only', match: { ignoreQuery: ['a\\'b\\\\'] } } }",
      ],
    },
  ])('$what', ({ route: given, found, configs }) => {
    const fixes = unmatchedFixes(given, found)
    expect(fixes.map((fix) => fix.config)).toEqual(configs)
    expect(fixes[0]?.why).toContain("record: 'missing' in place of replay: 'only'")
    expectValid(configs)
  })

  it('names the recorded key when ignoring it needs a new recording', () => {
    const [, ignore] = unmatchedFixes(route(), [query('page', '2', '3')])
    expect(ignore?.why).toBe(
      'Or, if ?page does not change the answer, leave it out of the match (then record again: the recordings that hold it keep it in their key)',
    )
  })
})

describe('the unmatched note header', () => {
  const note = {
    route: '/api',
    closest: 'cors-dev-proxy/recordings/api/GET-items.0123456789abcdef.json',
    differences: [query('q', undefined, '<img src=x onerror="alert(1)"> café ☕\n')],
    fixes: unmatchedFixes(route(), [query('q', undefined, 'x')]),
  }

  it('is printable ASCII and reads back whole, HTML and non-ASCII included', () => {
    const value = encodeUnmatchedNote(note)
    expect(value).toMatch(/^[\x20-\x7e]+$/)
    expect(readUnmatchedNote(value)).toEqual({ ...note, more: 0 })
  })

  it('cuts each value to 80 characters and keeps at most 12 differences, counting the rest', () => {
    const many = Array.from({ length: 15 }, (_, index) => query(`k${index}`, 'x'.repeat(200), undefined))
    const read = readUnmatchedNote(encodeUnmatchedNote({ ...note, differences: many }))
    expect(read?.differences).toHaveLength(12)
    expect(read?.more).toBe(3)
    expect(read?.differences[0]?.recorded).toBe(`${'x'.repeat(77)}...`)
    expect(read?.differences[0]).not.toHaveProperty('request')
  })

  it.each([
    '',
    'not json',
    'null',
    '{"route":1}',
    '{"route":"/api","closest":null,"differences":[{"part":"cookie"}],"fixes":[]}',
  ])('reads %j as no note', (value) => {
    expect(readUnmatchedNote(value)).toBeUndefined()
  })
})
