import { describe, expect, it } from 'vitest'
import { nuxtLogSink } from '../src/nuxt-log-sink.js'

describe('nuxtLogSink', () => {
  it("takes the core's tag off each line, coloured or not, since Nuxt's logger prints its own", () => {
    const lines: string[] = []
    const sink = nuxtLogSink({
      info: (message) => lines.push(`info ${message}`),
      warn: (message) => lines.push(`warn ${message}`),
      error: (message) => lines.push(`error ${message}`),
    })
    sink.info('[cors-dev-proxy] routes: /api → http://localhost:3000')
    sink.warn('\x1b[33m[cors-dev-proxy]\x1b[39m OPTIONS /api/x refused')
    sink.error('\x1b[31m[cors-dev-proxy]\x1b[39m 502 GET /api [cors-dev-proxy] stays inside')
    expect(lines).toEqual([
      'info routes: /api → http://localhost:3000',
      'warn OPTIONS /api/x refused',
      'error 502 GET /api [cors-dev-proxy] stays inside',
    ])
  })
})
