import { describe, expect, it } from 'vitest'
import type { ProxyRequest, ProxyResponse } from '../../src/index.js'
import { newExchange } from '../../src/pipeline/exchange.js'
import { composeSteps, type RouteStep } from '../../src/pipeline/route-pipeline.js'

const req = {} as ProxyRequest
const res = {} as ProxyResponse

/** Runs a pipeline and reports which steps ran, with what path, and what reached `done`. */
function run(steps: Array<(log: string[]) => RouteStep>) {
  const log: string[] = []
  const done: unknown[] = []
  composeSteps(steps.map((make) => make(log)))(req, res, '/api/x?y=1', (error) => done.push(error))
  return { log, done }
}

const passes =
  (name: string) =>
  (log: string[]): RouteStep =>
  (_req, _res, next, path) => {
    log.push(`${name} ${path}`)
    next()
  }
const answers =
  (name: string) =>
  (log: string[]): RouteStep =>
  () => {
    log.push(`${name} answers`)
  }
const fails =
  (error: Error) =>
  (log: string[]): RouteStep =>
  (_req, _res, next) => {
    log.push('fails')
    next(error)
  }
const throws =
  (error: Error) =>
  (log: string[]): RouteStep =>
  () => {
    log.push('throws')
    throw error
  }

describe('composeSteps', () => {
  const boom = new Error('boom')
  it.each([
    {
      name: 'runs steps in order, each with the path',
      steps: [passes('cors'), answers('forward')],
      log: ['cors /api/x?y=1', 'forward answers'],
      done: [],
    },
    {
      name: 'stops at the step that answers',
      steps: [answers('cors'), answers('forward')],
      log: ['cors answers'],
      done: [],
    },
    {
      name: 'calls done when every step passes',
      steps: [passes('a'), passes('b')],
      log: ['a /api/x?y=1', 'b /api/x?y=1'],
      done: [undefined],
    },
    {
      name: 'leaves the chain on next(error)',
      steps: [fails(boom), answers('forward')],
      log: ['fails'],
      done: [boom],
    },
    {
      name: 'passes a thrown error on',
      steps: [passes('a'), throws(boom), answers('forward')],
      log: ['a /api/x?y=1', 'throws'],
      done: [boom],
    },
    {
      name: 'passes a thrown error on with a single step',
      steps: [throws(boom)],
      log: ['throws'],
      done: [boom],
    },
    {
      name: 'hands a single step done as its next',
      steps: [passes('only')],
      log: ['only /api/x?y=1'],
      done: [undefined],
    },
  ])('$name', ({ steps, log, done }) => {
    expect(run(steps)).toEqual({ log, done })
  })

  it.each([1, 3])('hands each of %i steps the request exchange, or undefined when none was made', (count) => {
    const seen: unknown[] = []
    const steps = Array.from(
      { length: count },
      (): RouteStep => (_req, _res, next, _path, exchange) => {
        seen.push(exchange)
        next()
      },
    )
    const exchange = newExchange()
    composeSteps(steps)(req, res, '/api/x', () => {}, exchange)
    composeSteps(steps)(req, res, '/api/x', () => {})
    expect(seen).toEqual([...Array(count).fill(exchange), ...Array(count).fill(undefined)])
    expect(seen[0]).toBe(exchange)
  })
})
