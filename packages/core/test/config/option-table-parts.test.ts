import { describe, expect, it } from 'vitest'
import { ANSWER_OPTIONS } from '../../src/config/option-table-answer.js'
import { GLOBAL_ONLY_OPTIONS } from '../../src/config/option-table-global.js'
import { REQUEST_OPTIONS } from '../../src/config/option-table-request.js'
import { CONTRACT_OPTIONS } from '../../src/contract/options/openapi-option-table.js'

// The parts of the option table that hold simple options are keyed by name: the keys give
// `RouteOptions` its fields, the entries' `name` the option lists. The two must agree.
describe('the parts of the option table keyed by name', () => {
  it('key each entry by its own name', () => {
    for (const part of [REQUEST_OPTIONS, ANSWER_OPTIONS, CONTRACT_OPTIONS, GLOBAL_ONLY_OPTIONS]) {
      for (const [key, entry] of Object.entries(part)) expect(entry.name).toBe(key)
    }
  })

  it('would show a key that is not its entry’s name', () => {
    const part: Record<string, { readonly name: string }> = {
      ...REQUEST_OPTIONS,
      xfwdd: REQUEST_OPTIONS.xfwd,
    }
    expect(Object.entries(part).filter(([key, entry]) => entry.name !== key)).toEqual([
      ['xfwdd', REQUEST_OPTIONS.xfwd],
    ])
  })
})
