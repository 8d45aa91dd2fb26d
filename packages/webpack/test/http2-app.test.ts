import { CorsDevProxyError } from '@cors-dev-proxy/core'
import { describe, expect, it } from 'vitest'
import type { DevServerLike } from '../src/dev-server-types.js'
import { assertAppServesHttp2 } from '../src/http2-app.js'

/** What webpack-dev-server's default app looks like to the check: Express has `settings`. */
const express = Object.assign(() => {}, { settings: {} })
const connect = () => {}

describe('assertAppServesHttp2', () => {
  it.each<[title: string, server: unknown, app: unknown, refused: boolean]>([
    ["server: 'http2' on Express", 'http2', express, true],
    ["server: { type: 'http2' } on Express (normalized)", { type: 'http2', options: {} }, express, true],
    ["server: 'http2' on connect", 'http2', connect, false],
    ["server: { type: 'http2' } on connect", { type: 'http2' }, connect, false],
    ["server: 'https' on Express", 'https', express, false],
    ["server: 'http' on Express", { type: 'http' }, express, false],
    ['no server option', undefined, express, false],
    ["server: 'http2' before the app exists", 'http2', undefined, false],
  ])('%s: refused %s', (_title, server, app, refused) => {
    const devServer: DevServerLike = { app, options: { server } }
    if (!refused) {
      expect(() => assertAppServesHttp2(devServer)).not.toThrow()
      return
    }
    let error: unknown
    try {
      assertAppServesHttp2(devServer)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(CorsDevProxyError)
    expect(error).toMatchObject({ code: 'CONFLICTING_OPTIONS', option: 'devServer.app' })
    expect((error as Error).message).toContain(
      "Fix it like this: { devServer: { server: 'http2', app: () => require('connect')(), ...corsDevProxy(routes) } }",
    )
    expect((error as Error).message).toContain("import connect from 'connect'")
  })
})
