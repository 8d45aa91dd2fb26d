import { describe, expect, it } from 'vitest'
import { captureLogSink } from '../../../../../test/support/servers.js'
import type { Routes } from '../../../src/config/options.js'
import { resolveOptions } from '../../../src/config/resolve-options.js'
import { createLogger } from '../../../src/log/logger.js'
import { createControlBoard } from '../../../src/stand-ins/control/control-board.js'
import { createRouteControl, type RouteControl } from '../../../src/stand-ins/control/route-control.js'

/*
 * The control board's record switch, on the board alone: which routes get one, what a change
 * does to their state, what a wrong one answers, and the log line of a change.
 */

function boardOf(routes: Routes) {
  const sink = captureLogSink()
  const controls = resolveOptions(routes)
    .routes.map(createRouteControl)
    .filter((entry): entry is RouteControl => entry !== undefined)
  return { board: createControlBoard(controls, createLogger('info', sink)), sink }
}

const target = 'http://127.0.0.1:9'

describe('the control board’s record switch', () => {
  it('is offered on routes that can record, as configured, and on no other route', () => {
    const { board } = boardOf({
      '/rec': { target, record: true },
      '/fallback': { target, replay: 'fallback' },
      '/only': { target, replay: 'only' },
      '/only-recorded': { target, record: true, replay: 'only' },
      '/slow': { target, latency: 100 },
      '/plain': target,
    })
    const routes = board.view().routes
    expect(new Map(routes.map((route) => [route.route, route.record]))).toEqual(
      new Map([
        ['/rec', true],
        ['/fallback', false],
        ['/slow', null],
      ]),
    )
    // A route with recordings only has no faults and no targets to show.
    expect(routes.find((route) => route.route === '/rec')).toMatchObject({
      targets: [],
      target: null,
      faults: null,
      paths: [],
    })
    expect(board.faultsOn()).toBe(true)
  })

  it('turns recording on and off in the state the recordings step reads, and says so in the log', () => {
    const { board, sink } = boardOf({ '/fallback': { target, replay: 'fallback' } })
    const [entry] = board.routes
    expect(board.apply({ route: '/fallback', record: true })).toMatchObject({
      status: 200,
      body: { route: '/fallback', record: true },
    })
    expect(entry?.state.record).toBe(true)
    expect(sink.text()).toContain(
      "control: route '/fallback' now uses target (its own), faults none, recording on",
    )
    expect(board.apply({ route: '/fallback', record: false }).status).toBe(200)
    expect(entry?.state.record).toBe(false)
    expect(sink.text()).toContain('faults none, recording off')
  })

  it.each([
    [{ route: '/rec', record: 'yes' }, 400, 'record must be true or false'],
    [
      { route: '/slow', record: true },
      400,
      "route '/slow' has no recordings to switch: give it record: true or replay: 'fallback' in the config",
    ],
    [
      { route: '/plain', record: true },
      404,
      'no route "/plain" with control options or recordings; routes: /',
    ],
  ])('refuses %j with %i', (change, status, message) => {
    const { board } = boardOf({
      '/rec': { target, record: true },
      '/slow': { target, latency: 100 },
      '/plain': target,
    })
    const answer = board.apply(change)
    expect(answer.status).toBe(status)
    expect((answer.body as { error: string }).error).toContain(message)
    // Nothing changed.
    expect(board.routes.find((entry) => entry.route.prefix === '/rec')?.state.record).toBe(true)
  })
})
