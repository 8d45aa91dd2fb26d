import { describe, expect, it } from 'vitest'
import {
  describeType,
  globalOption,
  isPlainObject,
  nestedExample,
  quote,
  renderValue,
  routeOption,
} from '../../src/config/option-path.js'

describe('option paths', () => {
  it.each([
    [routeOption('/api'), "routes['/api']"],
    [routeOption('/api', 'target'), "routes['/api'].target"],
    [routeOption("/it's", 'ws'), "routes['/it\\'s'].ws"],
    [routeOption('/a\\b'), "routes['/a\\\\b']"],
    [globalOption('timeout'), 'options.timeout'],
    [quote('x'), "'x'"],
    [quote('a\nb\u2028\0'), "'a\\u000ab\\u2028\\u0000'"],
    [nestedExample("routes['/api'].cors.origin", 'cors', '{ origin: true }'), '{ cors: { origin: true } }'],
    [nestedExample('options.jsonp', 'jsonp', "{ param: 'cb' }"), "{ jsonp: { param: 'cb' } }"],
    [nestedExample('cors.origin', 'cors', '{ origin: true }'), 'createCorsMiddleware({ origin: true })'],
    [nestedExample('mock', 'mock', '{}'), 'createMockBackend({})'],
    [nestedExample('jsonp.param', 'jsonp', "{ param: 'cb' }"), "createJsonpMiddleware({ param: 'cb' })"],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected)
  })
})

describe('renderValue and describeType', () => {
  it.each([
    [renderValue('http://h'), "'http://h'"],
    [renderValue('x'.repeat(80)), `'${'x'.repeat(57)}...'`],
    [renderValue(3), '3'],
    [renderValue(false), 'false'],
    [renderValue(() => 1), '(path, req) => ...'],
    [renderValue([1]), '[...]'],
    [renderValue({ a: 1 }), '{ ... }'],
    [describeType(null), 'null'],
    [describeType([]), 'an array'],
    [describeType({}), 'an object'],
    [describeType(undefined), 'undefined'],
    [describeType(1), 'a number (1)'],
    [describeType('yes'), "a string ('yes')"],
    [describeType(true), 'a boolean (true)'],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected)
  })
})

describe('isPlainObject', () => {
  it.each([
    [{}, true],
    [Object.create(null), true],
    [[], false],
    [null, false],
    [new URL('http://h'), false],
    [new Map(), false],
    [() => {}, false],
    ['x', false],
  ])('%j → %s', (value, expected) => {
    expect(isPlainObject(value)).toBe(expected)
  })
})
