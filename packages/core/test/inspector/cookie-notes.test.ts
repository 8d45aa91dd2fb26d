import { describe, expect, it } from 'vitest'
import { cookieNotes } from '../../src/inspector/cookie-notes.js'

const page = 'http://localhost:5173'

describe('cookieNotes', () => {
  it.each([
    // Same site (ports do not make sites): kept.
    ['http://localhost:3000/login', 'sid=1; Path=/', true, []],
    // Cross-site without SameSite=None: dropped, with the default named.
    ['http://127.0.0.1:3000/login', 'sid=1; Path=/', true, ["cookie 'sid' is dropped"]],
    ['http://127.0.0.1:3000/login', 'sid=1; SameSite=Strict', true, ['SameSite=strict']],
    // SameSite=None without Secure: rejected whatever the site.
    ['http://127.0.0.1:3000/login', 'sid=1; SameSite=None', true, ['SameSite=None requires Secure']],
    // Secure over http (not localhost): rejected.
    [
      'http://api.example.test/login',
      'sid=1; Secure; SameSite=None',
      true,
      ['it is Secure and the answer came over http'],
    ],
    ['https://api.example.test/login', 'sid=1; Secure; SameSite=None', true, []],
    // Without credentials nothing is stored.
    ['http://localhost:3000/login', 'sid=1', false, ['does not send credentials']],
  ])('%s sets %s (credentials %s)', (url, setCookie, credentials, expected) => {
    const notes = cookieNotes([['set-cookie', setCookie]], new URL(url), page, credentials)
    expect(notes).toHaveLength(expected.length)
    expected.forEach((part, index) => {
      expect(notes[index]).toContain(part)
    })
  })

  it('says nothing when no cookie is set', () => {
    expect(
      cookieNotes([['content-type', 'text/plain']], new URL('http://127.0.0.1:3000/'), page, true),
    ).toEqual([])
  })
})
