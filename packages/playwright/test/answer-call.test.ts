import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createFetchHandler, type FetchHandler } from '@cors-dev-proxy/core'
import type { Route } from '@playwright/test'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answerCall } from '../src/answer-call.js'

/** What a test route was fulfilled with, or that it fell back. */
interface Fulfilled {
  status?: number
  headers?: Record<string, string>
  body?: Buffer
  fellBack?: boolean
}

/** A stand-in for Playwright's `Route` of one browser call: what `answerCall` reads and calls. */
function fakeRoute(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  const fulfilled: Fulfilled = {}
  const route = {
    request: () => ({
      method: () => init.method ?? 'GET',
      url: () => url,
      allHeaders: async () => init.headers ?? {},
      postDataBuffer: () => (init.body === undefined ? null : Buffer.from(init.body)),
    }),
    fulfill: async (answer: Omit<Fulfilled, 'fellBack'>) => Object.assign(fulfilled, answer),
    fallback: async () => Object.assign(fulfilled, { fellBack: true }),
  }
  return { route: route as unknown as Route, fulfilled }
}

const dir = mkdtempSync(join(tmpdir(), 'cdp-answer-call-'))
const recordings = { dir, log: 'silent' as const }
let backend: Server

beforeAll(async () => {
  backend = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/users') {
      res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/'])
      res.writeHead(200, { 'content-type': 'application/json' }).end('[{"id":1}]')
    } else res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":2}')
  })
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve))
  const target = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`
  const recorder = createFetchHandler(
    { '/api': { target, record: true } },
    { recordings: { dir }, log: 'silent' },
  )
  for (const request of [
    new Request('http://app.test/api/users'),
    new Request('http://app.test/api/users', {
      method: 'POST',
      body: '{"name":"Grace"}',
      headers: { 'content-type': 'application/json' },
    }),
  ]) {
    await (await recorder(request))?.arrayBuffer()
  }
  await recorder.close()
})

afterAll(async () => {
  await new Promise((resolve) => backend.close(resolve))
  rmSync(dir, { recursive: true, force: true })
})

describe('answerCall', () => {
  const handler = createFetchHandler(
    { '/api': { target: 'http://127.0.0.1:2', replay: 'only' } },
    { recordings: { dir: recordings.dir }, log: 'silent' },
  )
  afterAll(() => handler.close())

  it('fulfils a recorded call with its status, headers and body', async () => {
    const { route, fulfilled } = fakeRoute('http://localhost:3000/users', {
      headers: { accept: '*/*', ':authority': 'x' },
    })
    expect(await answerCall(route, handler, '/api/users')).toEqual({ kind: 'answered', status: 200 })
    expect(fulfilled.status).toBe(200)
    expect(fulfilled.headers).toMatchObject({ 'content-type': 'application/json' })
    // Both lines the backend sent, one per line as route.fulfill takes them.
    expect(fulfilled.headers?.['set-cookie']).toMatch(
      /^a=replayed-[0-9a-f]+; Path=\/\nb=replayed-[0-9a-f]+; Path=\/$/,
    )
    expect(fulfilled.body?.toString()).toBe('[{"id":1}]')
  })

  it('fulfils each Set-Cookie line of an answer, as Playwright takes them: joined by newlines', async () => {
    const headers = new Headers([
      ['set-cookie', 'a=1; Path=/'],
      ['set-cookie', 'b=2; Path=/'],
      ['content-type', 'text/plain'],
    ])
    const answering = (async () => new Response('hi', { headers })) as unknown as FetchHandler
    const { route, fulfilled } = fakeRoute('http://app.test/api/login')
    await answerCall(route, answering, '/api/login')
    expect(fulfilled.headers).toEqual({
      'content-type': 'text/plain',
      'set-cookie': 'a=1; Path=/\nb=2; Path=/',
    })
  })

  it('sends the body of a POST, which the key compares', async () => {
    const { route, fulfilled } = fakeRoute('http://app.test/api/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{ "name": "Grace" }',
    })
    expect(await answerCall(route, handler, '/api/users')).toEqual({ kind: 'answered', status: 201 })
    expect(fulfilled.body?.toString()).toBe('{"id":2}')
  })

  it('reports a call no recording matches, by the core marker, with its explanation', async () => {
    const { route, fulfilled } = fakeRoute('http://app.test/api/users?page=2')
    const outcome = await answerCall(route, handler, '/api/users?page=2')
    expect(outcome).toMatchObject({
      kind: 'unmatched',
      call: { method: 'GET', url: 'http://app.test/api/users?page=2', status: 404 },
    })
    expect(fulfilled.status).toBe(404)
    expect(fulfilled.headers).toHaveProperty('x-cors-dev-proxy-unmatched')
    if (outcome.kind === 'unmatched') expect(outcome.call.explanation).toBe(fulfilled.body?.toString())
  })

  it('passes on a call no route takes', async () => {
    const { route, fulfilled } = fakeRoute('http://app.test/other')
    expect(await answerCall(route, handler, '/other')).toEqual({ kind: 'passed' })
    expect(fulfilled.fellBack).toBe(true)
  })
})
