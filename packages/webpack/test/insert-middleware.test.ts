import { describe, expect, it } from 'vitest'
import { insertAfterSecurityChecks } from '../src/insert-middleware.js'

const named = (...names: string[]) => names.map((name) => ({ name, middleware: () => {} }))
const names = (list: Array<{ name?: string } | (() => void)>) =>
  list.map((entry) => (typeof entry === 'function' ? 'fn' : entry.name))

describe('insertAfterSecurityChecks', () => {
  // The lists webpack-dev-server 5.2 and 6.1 build (abridged), and what the proxy needs.
  it.each<[title: string, before: string[], after: string[]]>([
    [
      'webpack-dev-server 5/6 over http: after the checks, before compression and the build',
      [
        'host-header-check',
        'cross-origin-header-check',
        'compression',
        'webpack-dev-middleware',
        'options-middleware',
      ],
      [
        'host-header-check',
        'cross-origin-header-check',
        'cors-dev-proxy',
        'compression',
        'webpack-dev-middleware',
        'options-middleware',
      ],
    ],
    [
      'http2: before the status-message patch and the rest',
      [
        'host-header-check',
        'cross-origin-header-check',
        'http2-status-message-patch',
        'webpack-dev-middleware',
      ],
      [
        'host-header-check',
        'cross-origin-header-check',
        'cors-dev-proxy',
        'http2-status-message-patch',
        'webpack-dev-middleware',
      ],
    ],
    [
      'a version without the checks: first',
      ['compression', 'webpack-dev-middleware', 'options-middleware'],
      ['cors-dev-proxy', 'compression', 'webpack-dev-middleware', 'options-middleware'],
    ],
    ['an empty list', [], ['cors-dev-proxy']],
  ])('%s', (_title, before, after) => {
    const [entry] = named('cors-dev-proxy')
    expect(names(insertAfterSecurityChecks(named(...before), entry!))).toEqual(after)
  })

  it('keeps bare functions and leaves the given list unchanged', () => {
    const list: Array<{ name?: string; middleware: () => void } | (() => void)> = [
      () => {},
      ...named('host-header-check'),
    ]
    const result = insertAfterSecurityChecks(list, { name: 'cors-dev-proxy', middleware: () => {} })
    expect(names(result)).toEqual(['fn', 'host-header-check', 'cors-dev-proxy'])
    expect(list).toHaveLength(2)
  })
})
