import { describe, expect, it } from 'vitest'
import { routeFolderOf, slugOf } from '../../src/stand-ins/route-folder.js'

describe('slugOf and routeFolderOf', () => {
  it('keeps letters, digits, _ and -, and bounds the length', () => {
    expect(slugOf('/users/../etc/passwd', 60)).toBe('users-etc-passwd')
    expect(slugOf('a'.repeat(100), 10)).toBe('aaaaaaaaaa')
  })

  it('names a route folder after its prefix', () => {
    expect(routeFolderOf('/api')).toBe('api')
    expect(routeFolderOf('/api/v1')).toBe('api-v1')
    expect(routeFolderOf('/')).toBe('root')
  })
})
