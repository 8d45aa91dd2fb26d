import { get, type IncomingMessage } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import {
  type RunningMockBackend,
  startMockBackend,
} from '../../../src/stand-ins/mock-backend/start-mock-backend.js'

let mock: RunningMockBackend | undefined
afterEach(async () => {
  await mock?.close()
  mock = undefined
})

function open(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => get(url, resolve).on('error', reject))
}

/** Reads the stream until it ends, as raw text. */
async function readAll(res: IncomingMessage): Promise<string> {
  let text = ''
  for await (const chunk of res) text += String(chunk)
  return text
}

/** Parses `data:` lines of server-sent events into their JSON. */
function dataOf(text: string): unknown[] {
  return text
    .split('\n\n')
    .flatMap((block) => block.split('\n').filter((line) => line.startsWith('data: ')))
    .map((line) => JSON.parse(line.slice(6)))
}

describe('/events', () => {
  it('streams count events with ids, then an end event, then ends the response', async () => {
    mock = await startMockBackend()
    const res = await open(`${mock.origin}/events?count=3&interval=0`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8')
    expect(res.headers['cache-control']).toBe('no-cache')
    const text = await readAll(res)
    expect(text.match(/^id: \d+$/gm)).toEqual(['id: 1', 'id: 2', 'id: 3'])
    expect(dataOf(text).slice(0, 3)).toMatchObject([
      { n: 1, count: 3 },
      { n: 2, count: 3 },
      { n: 3, count: 3 },
    ])
    expect(text.endsWith('event: end\ndata: {}\n\n')).toBe(true)
  })

  it('sends 5 events by default', async () => {
    mock = await startMockBackend()
    const text = await readAll(await open(`${mock.origin}/events?interval=0`))
    expect(text.match(/^id: /gm)).toHaveLength(5)
  })

  it('sends the first event before the interval elapses, one event per write', async () => {
    mock = await startMockBackend()
    // A one-minute interval: the first event can only arrive if it is flushed on its own.
    const res = await open(`${mock.origin}/events?count=2&interval=60000`)
    let text = ''
    for await (const chunk of res) {
      text += String(chunk)
      if (text.includes('id: 1\n')) break
    }
    expect(dataOf(text)).toMatchObject([{ n: 1, count: 2 }])
  })

  it('ends an open stream when the backend closes', { timeout: 15_000 }, async () => {
    mock = await startMockBackend()
    const res = await open(`${mock.origin}/events?count=2&interval=60000`)
    const iterator = res[Symbol.asyncIterator]()
    let text = ''
    while (!text.includes('id: 1\n')) text += String((await iterator.next()).value)
    const closing = mock.close()
    mock = undefined
    for (let step = await iterator.next(); !step.done; step = await iterator.next())
      text += String(step.value)
    await closing
    expect(text).not.toContain('id: 2')
    expect(res.complete).toBe(true)
  })

  it.each(['count=0', 'count=1001', 'count=x', 'interval=60001', 'interval=-1'])(
    'refuses %s with 400',
    async (query) => {
      mock = await startMockBackend()
      const res = await open(`${mock.origin}/events?${query}`)
      expect(res.statusCode).toBe(400)
      expect(JSON.parse(await readAll(res))).toMatchObject({ example: '/events?count=3&interval=500' })
    },
  )

  it('carries the CORS headers of the mode, so EventSource can read it cross-origin', async () => {
    mock = await startMockBackend({ cors: 'wildcard' })
    const res = await open(`${mock.origin}/events?count=1&interval=0`)
    expect(res.headers['access-control-allow-origin']).toBe('*')
    await readAll(res)
  })
})
