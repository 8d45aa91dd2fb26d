import { describe, expect, it } from 'vitest'
import { isValidCallbackName, MAX_CALLBACK_NAME_LENGTH } from '../../src/config/callback-name.js'

describe('isValidCallbackName', () => {
  it.each([
    'cb',
    '_',
    '$',
    'jQuery3510_1700000000000',
    'app.handlers.done',
    '$.x_1.$y',
    'a'.repeat(MAX_CALLBACK_NAME_LENGTH),
  ])('accepts %j', (name) => {
    expect(isValidCallbackName(name)).toBe(true)
  })

  it.each([
    '',
    '1cb',
    'a'.repeat(MAX_CALLBACK_NAME_LENGTH + 1),
    'alert(1)//',
    'cb;alert(1)',
    'a..b',
    'a.',
    '.a',
    'a.1b',
    'a b',
    'a-b',
    'a[0]',
    'cb\n',
    'caf\u00e9',
    '</script>',
  ])('rejects %j', (name) => {
    expect(isValidCallbackName(name)).toBe(false)
  })
})
