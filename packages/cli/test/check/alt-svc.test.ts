import { describe, expect, it } from 'vitest'
import { readAltSvc } from '../../src/check/alt-svc.js'
import { bodyOfType } from '../../src/check/body-type.js'

describe('readAltSvc', () => {
  it.each([
    ['h3=":443"; ma=86400', true, 'HTTP/3 advertised (h3 at ":443")'],
    ['h3-29=":8443", h2=":443"', true, 'HTTP/3 advertised (h3-29 at ":8443")'],
    ['h2="alt.example:443"', false, 'alternatives advertised: h2'],
    ['clear', false, 'withdraws'],
    ['garbage', false, 'alternatives advertised: none'],
  ])('%s', (value, http3, note) => {
    const altSvc = readAltSvc(value)
    expect(altSvc.http3).toBe(http3)
    expect(altSvc.note).toContain(note)
  })
})

describe('bodyOfType', () => {
  it.each([
    ['text', 'text/plain;charset=UTF-8'],
    ['form', 'application/x-www-form-urlencoded;charset=UTF-8'],
    ['multipart', 'multipart/form-data; boundary=----cors-dev-proxy-check'],
    ['json', 'application/json'],
    ['application/xml', 'application/xml'],
    ['text/plain; charset=utf-8', 'text/plain; charset=utf-8'],
  ])('%s → Content-Type %s', (value, contentType) => {
    expect(bodyOfType(value)?.contentType).toBe(contentType)
  })

  it.each(['xml', 'a b/c', 'text/plain\r\nx: y', ''])('refuses %j', (value) => {
    expect(bodyOfType(value)).toBeUndefined()
  })
})
