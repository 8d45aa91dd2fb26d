import { describe, expect, it } from 'vitest'
import { didYouMean, editDistance } from '../../src/config/did-you-mean.js'

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 3],
    ['', 'abc', 3],
    ['target', 'target', 0],
    ['chageOrigin', 'changeOrigin', 1],
    ['chnageOrigin', 'changeOrigin', 1],
    ['timout', 'timeout', 1],
    ['kitten', 'sitting', 3],
    ['ca', 'abc', 3],
  ])('%s ↔ %s = %i', (a, b, expected) => {
    expect(editDistance(a, b)).toBe(expected)
  })
})

describe('didYouMean', () => {
  const names = [
    'target',
    'changeOrigin',
    'pathRewrite',
    'headers',
    'xfwd',
    'ws',
    'timeout',
    'cookieDomainRewrite',
  ]
  it.each([
    ['chageOrigin', 'changeOrigin'],
    ['changeorigin', 'changeOrigin'],
    ['CHANGEORIGIN', 'changeOrigin'],
    ['traget', 'target'],
    ['targt', 'target'],
    ['header', 'headers'],
    ['timout', 'timeout'],
    ['wss', 'ws'],
    ['xfw', 'xfwd'],
    ['pathRewrit', 'pathRewrite'],
    ['cookieDomainRewite', 'cookieDomainRewrite'],
  ])('%s → %s', (input, expected) => {
    expect(didYouMean(input, names)).toBe(expected)
  })

  it.each(['bogus', 'foo', 'http', 'proxy', 'x'])('%s → nothing', (input) => {
    expect(didYouMean(input, names)).toBeUndefined()
  })
})
