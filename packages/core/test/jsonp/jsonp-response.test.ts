import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { runInNewContext } from 'node:vm'
import { Agent, request } from 'undici'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import {
  jsonpBody,
  sendJsonp,
  sendJsonpCallbackError,
  sendJsonpMethodNotAllowed,
} from '../../src/jsonp/jsonp-response.js'

const agent = new Agent()
let server: Server | undefined

afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
  server = undefined
})
afterAll(() => agent.close())

async function answer(handler: (res: ServerResponse) => void) {
  server = createServer((_req, res) => handler(res))
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  const res = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
    dispatcher: agent,
  })
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() }
}

/** Runs a JSONP script in a fresh context and returns what reached the callback. */
function run(script: string, callback = 'cb'): unknown[] {
  const calls: unknown[] = []
  const context: Record<string, unknown> = { [callback]: (value: unknown) => calls.push(value) }
  runInNewContext(script, context)
  return calls
}

describe('jsonpBody', () => {
  it('has the exact shape and escapes U+2028 and U+2029', () => {
    const json = JSON.stringify({ text: 'a\u2028b\u2029c' })
    const body = jsonpBody('cb', json)
    expect(body).toBe(`/**/ typeof cb === 'function' && cb({"text":"a\\u2028b\\u2029c"});`)
    expect(run(body)).toEqual([{ text: 'a\u2028b\u2029c' }])
  })

  it('does nothing when the callback is gone', () => {
    expect(() => runInNewContext(jsonpBody('cb', '1'), {})).not.toThrow()
  })

  it('works with a dotted name', () => {
    const calls: unknown[] = []
    runInNewContext(jsonpBody('app.done', '[1]'), { app: { done: (v: unknown) => calls.push(v) } })
    expect(calls).toEqual([[1]])
  })
})

describe('sendJsonp', () => {
  it('answers a script with the safe headers', async () => {
    const res = await answer((res) => sendJsonp(res, 'handleData', { users: [1, 2] }))
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body))
    expect(run(res.body, 'handleData')).toEqual([{ users: [1, 2] }])
  })

  it('sends undefined as null and keeps a given status', async () => {
    const res = await answer((res) => sendJsonp(res, 'cb', undefined, { status: 201 }))
    expect(res.status).toBe(201)
    expect(run(res.body)).toEqual([null])
  })

  it.each([204, 205, 304])('sends a %i status without content, as HTTP requires', async (status) => {
    const res = await answer((res) => sendJsonp(res, 'cb', { a: 1 }, { status }))
    expect(res.status).toBe(status)
    expect(res.body).toBe('')
    expect(['0', undefined]).toContain(res.headers['content-length'])
  })

  it('answers 400 with JSON naming the parameter, never reflecting the name', async () => {
    const bad = 'alert(document.cookie)//'
    const res = await answer((res) => sendJsonp(res, bad, { a: 1 }, { param: 'cb' }))
    expect(res.status).toBe(400)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.body).not.toContain('alert')
    const error = JSON.parse(res.body)
    expect(error).toMatchObject({ param: 'cb', example: '?cb=handleData' })
    expect(error.error).toMatch(/`cb` query parameter must be letters, digits, _ and \$/)
  })

  it('answers 500 instead of throwing for a value JSON cannot hold', async () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    const res = await answer((res) => sendJsonp(res, 'cb', cyclic))
    expect(res.status).toBe(500)
    expect(JSON.parse(res.body).error).toMatch(/cannot be serialized/)
  })
})

describe('error answers', () => {
  it('405 with Allow: GET', async () => {
    const res = await answer((res) => sendJsonpMethodNotAllowed(res, 'callback'))
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe('GET')
    expect(JSON.parse(res.body).error).toMatch(/GET requests only/)
  })

  it('400 for the default parameter', async () => {
    const res = await answer((res) => sendJsonpCallbackError(res))
    expect(res.status).toBe(400)
    expect(JSON.parse(res.body).param).toBe('callback')
  })
})
