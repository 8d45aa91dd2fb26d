import { resolveOptions } from '@cors-dev-proxy/core/adapter'
import { describe, expect, it } from 'vitest'
import { captureLogSink } from '../../../test/support/servers.js'
import type { DevServerLike } from '../src/dev-server-types.js'
import { createSetupCheck } from '../src/setup-check.js'

/** A dev server stand-in whose infrastructure logger is captured. */
function fakeDevServer(): { devServer: DevServerLike; lines: string[] } {
  const lines: string[] = []
  const line = (level: string) => (message: unknown) => lines.push(`${level} ${String(message)}`)
  return {
    devServer: { options: {}, logger: { info: line('info'), warn: line('warn'), error: line('error') } },
    lines,
  }
}

const routes = { '/api': 'http://localhost:3000', '/live': 'ws://localhost:3000' }

describe('createSetupCheck', () => {
  it('reports a start whose setupMiddlewares never ran, with the fix, through the dev server logger', () => {
    const { devServer, lines } = fakeDevServer()
    createSetupCheck(resolveOptions(routes)).verify(devServer)
    expect(lines).toEqual([
      "error [cors-dev-proxy] nothing is proxied: a setupMiddlewares written after ...corsDevProxy() in devServer replaced cors-dev-proxy's, so requests to '/live', '/api' get the dev server's own answer (a 404). Pass yours to cors-dev-proxy instead, which calls it with the list that holds the proxy: devServer: { ...corsDevProxy(routes, { setupMiddlewares }) }.",
    ])
  })

  it('stays silent for a start that installed the proxy, start after start', () => {
    const { devServer, lines } = fakeDevServer()
    const check = createSetupCheck(resolveOptions(routes))
    for (let start = 0; start < 3; start += 1) {
      check.installed(devServer)
      check.verify(devServer)
    }
    expect(lines).toEqual([])
  })

  it('judges each start on its own: a later start without the proxy is reported', () => {
    const { devServer, lines } = fakeDevServer()
    const check = createSetupCheck(resolveOptions(routes))
    check.installed(devServer)
    check.verify(devServer)
    check.verify(devServer)
    expect(lines).toHaveLength(1)
  })

  it('judges each dev server on its own', () => {
    const first = fakeDevServer()
    const second = fakeDevServer()
    const check = createSetupCheck(resolveOptions(routes))
    check.installed(first.devServer)
    check.verify(second.devServer)
    check.verify(first.devServer)
    expect(first.lines).toEqual([])
    expect(second.lines).toEqual([expect.stringContaining('nothing is proxied')])
  })

  it("writes to the user's logger when one is given", () => {
    const { devServer, lines } = fakeDevServer()
    const sink = captureLogSink()
    createSetupCheck(resolveOptions(routes, { logger: sink })).verify(devServer)
    expect(lines).toEqual([])
    expect(sink.lines).toEqual([{ level: 'error', message: expect.stringContaining('nothing is proxied') }])
  })

  it("says nothing at log: 'silent', and still reports at log: 'error'", () => {
    const silent = fakeDevServer()
    createSetupCheck(resolveOptions(routes, { log: 'silent' })).verify(silent.devServer)
    expect(silent.lines).toEqual([])
    const errorsOnly = fakeDevServer()
    createSetupCheck(resolveOptions(routes, { log: 'error' })).verify(errorsOnly.devServer)
    expect(errorsOnly.lines).toEqual([expect.stringMatching(/^error .*nothing is proxied/)])
  })
})
