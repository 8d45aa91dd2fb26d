import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import * as adapter from '../src/adapter.js'
import * as client from '../src/client/index.js'
import * as main from '../src/index.js'

const page = readFileSync(new URL('../../../docs/reference/api.md', import.meta.url), 'utf8')

describe('the public API', () => {
  const entries = { main, adapter, client }

  it('keeps the main entry deliberate: at most 30 runtime values', () => {
    expect(Object.keys(main).length).toBeGreaterThan(5)
    expect(Object.keys(main).length).toBeLessThanOrEqual(30)
  })

  it.each(Object.entries(entries))(
    "documents every runtime value of the %s entry on the docs' API page",
    (_name, entry) => {
      const undocumented = Object.keys(entry).filter((name) => !page.includes(`\`${name}`))
      expect(undocumented).toEqual([])
    },
  )

  it('keeps internals out of the main entry', () => {
    for (const internal of [
      'resolveOptions',
      'composeSteps',
      'requestUpstream',
      'createLogger',
      'matchRoute',
    ]) {
      expect(main).not.toHaveProperty(internal)
    }
  })
})
