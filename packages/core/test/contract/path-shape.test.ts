import { describe, expect, it } from 'vitest'
import { pathShape } from '../../src/contract/path-shape.js'

describe('pathShape', () => {
  it.each([
    ['/v1/users/42', '/v1/users/{id}'],
    ['/v1/users/42/orders/5f1d7a2b9c8e4b0012345678', '/v1/users/{id}/orders/{id}'],
    ['/items/0B6B8A3E-4F2C-4D7A-9A61-3C2B1E0F9D8C', '/items/{id}'],
    ['/commits/9fceb02d0ae598e95dc970b74767f19372d61af8', '/commits/{id}'],
  ])('writes the ids of %s as {id}', (path, shape) => {
    expect(pathShape(path)).toBe(shape)
  })

  it.each(['/v1/users/me', '/v2/pets', '/files/report-2024.pdf', '/tags/cafe', '/'])(
    'leaves %s as it is: no segment is an id',
    (path) => {
      expect(pathShape(path)).toBe(path)
    },
  )
})
