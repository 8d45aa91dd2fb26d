import { createRequire } from 'node:module'
import connect from 'connect'
import express5 from 'express'
import { describe, expect, it } from 'vitest'
import { handlesBefore } from '../src/app-stack.js'

// Express 4 is webpack-dev-server 5's own dependency (6 brings Express 5).
const express4 = createRequire(createRequire(import.meta.url).resolve('webpack-dev-server'))(
  'express',
) as typeof express5

type App = { use(fn: (...args: never[]) => unknown): unknown }

const hostCheck = function hostCheck() {}
const mine = function mine() {}
const own = function own() {}

describe('handlesBefore', () => {
  it.each<[title: string, make: () => App]>([
    ['connect', () => connect() as unknown as App],
    ['Express 4 (its own query and expressInit layers left out)', () => express4() as unknown as App],
    ['Express 5', () => express5() as unknown as App],
  ])('%s: the functions mounted before the given one, in order', (_title, make) => {
    const app = make()
    app.use(hostCheck)
    app.use(mine)
    app.use(own)
    app.use(function after() {})
    expect(handlesBefore(app, own)).toEqual([hostCheck, mine])
    expect(handlesBefore(app, hostCheck)).toEqual([])
  })

  it('is undefined when the function is not mounted, or the app is not one it can read', () => {
    const app = connect()
    app.use(hostCheck)
    expect(handlesBefore(app, own)).toBeUndefined()
    expect(handlesBefore(() => {}, own)).toBeUndefined()
    expect(handlesBefore({ stack: [{ handle: own }] }, own)).toBeUndefined()
    // Express 4 throws from its removed `app.router`: read as "cannot tell", not thrown.
    expect(handlesBefore(express4(), own)).toBeUndefined()
  })
})
