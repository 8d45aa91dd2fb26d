import { describe, expect, it } from 'vitest'
import { rememberHostVerdicts } from '../src/host-verdicts.js'

/** A stand-in with webpack-dev-server's `isValidHost` signature that counts its calls. */
function validator(allowed: (value: string, validate: boolean) => boolean) {
  const calls: string[] = []
  const server = {
    options: { allowedHosts: 'auto' },
    isValidHost(
      this: { options: unknown },
      headers: Record<string, unknown>,
      header: string,
      validate = true,
    ) {
      calls.push(`${header}=${String(headers[header])}/${validate}`)
      expect(this.options).toEqual({ allowedHosts: 'auto' })
      return typeof headers[header] === 'string' && allowed(headers[header] as string, validate)
    },
  }
  return { server, calls }
}

describe('rememberHostVerdicts', () => {
  it('asks the dev server once per header, value and mode, and answers as it did', () => {
    const { server, calls } = validator((value, validate) => value.startsWith('localhost') || !validate)
    rememberHostVerdicts(server)
    for (let i = 0; i < 3; i++) {
      expect(server.isValidHost({ host: 'localhost:8080' }, 'host')).toBe(true)
      expect(server.isValidHost({ host: 'evil.example' }, 'host')).toBe(false)
      expect(server.isValidHost({ host: 'evil.example' }, 'host', false)).toBe(true)
      expect(server.isValidHost({ ':authority': 'localhost:8080' }, ':authority')).toBe(true)
    }
    expect(calls).toEqual([
      'host=localhost:8080/true',
      'host=evil.example/true',
      'host=evil.example/false',
      ':authority=localhost:8080/true',
    ])
  })

  it('passes a missing or repeated header to the dev server every time', () => {
    const { server, calls } = validator(() => true)
    rememberHostVerdicts(server)
    server.isValidHost({}, 'origin')
    server.isValidHost({}, 'origin')
    server.isValidHost({ origin: ['a', 'b'] }, 'origin')
    expect(calls).toHaveLength(3)
  })

  it('stays bounded when every request brings a new Host', () => {
    const { server, calls } = validator(() => false)
    rememberHostVerdicts(server)
    for (let i = 0; i < 1000; i++) server.isValidHost({ host: `h${i}.example` }, 'host')
    // The first value was forgotten when the memo filled up: asked again.
    server.isValidHost({ host: 'h0.example' }, 'host')
    expect(calls).toHaveLength(1001)
  })

  it('leaves a dev server without isValidHost alone', () => {
    const server = {}
    rememberHostVerdicts(server)
    expect(server).toEqual({})
  })
})
