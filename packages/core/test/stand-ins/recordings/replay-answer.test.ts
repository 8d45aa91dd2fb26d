import { describe, expect, it } from 'vitest'
import { standInCookie } from '../../../src/stand-ins/recordings/replay-answer.js'

describe('standInCookie', () => {
  it('replaces a masked value with a fresh, valid cookie value, attributes kept', () => {
    const one = standInCookie('session=[masked]; HttpOnly; Path=/')
    expect(one).toMatch(/^session=replayed-[0-9a-f]{32}; HttpOnly; Path=\/$/)
    expect(standInCookie('session=[masked]; HttpOnly; Path=/')).not.toBe(one)
    expect(standInCookie('sid=[masked]')).toMatch(/^sid=replayed-[0-9a-f]{32}$/)
  })

  it('leaves a value that is not masked as it is', () => {
    expect(standInCookie('theme=dark; Path=/')).toBe('theme=dark; Path=/')
    expect(standInCookie('[masked]')).toBe('[masked]')
  })
})
