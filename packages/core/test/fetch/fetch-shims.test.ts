import { EventEmitter, getEventListeners, once } from 'node:events'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { FetchRequest } from '../../src/fetch/fetch-request.js'
import { FetchResponse } from '../../src/fetch/fetch-response.js'
import { createFetchHandler } from '../../src/proxy/create-fetch-handler.js'

afterEach(() => {
  vi.unstubAllGlobals()
})

/** Each `Response` built while `run` runs, as its body and init arrived. */
async function responsesBuilt(run: () => Promise<unknown>): Promise<[unknown, ResponseInit | undefined][]> {
  const built: [unknown, ResponseInit | undefined][] = []
  const Native = globalThis.Response
  vi.stubGlobal(
    'Response',
    class RecordedResponse extends Native {
      constructor(body?: BodyInit | null, init?: ResponseInit) {
        built.push([body, init])
        super(body, init)
      }
    },
  )
  await run()
  return built
}

/** The `Response` a `FetchResponse` settled with; the engine never handed these requests on. */
async function answerOf(res: FetchResponse): Promise<Response> {
  const response = await res.response
  if (response === undefined) throw new Error('the request was handed on, not answered')
  return response
}

describe('FetchResponse', () => {
  it('resolves the Response at the head, and asks the writer to wait until the consumer pulls', async () => {
    const res = new FetchResponse('GET')
    res.setHeader('Set-Cookie', ['a=1', 'b=2'])
    res.writeHead(201, ['x-one', '1', 'x-one', '2', 'connection', 'close'])
    const response = await answerOf(res)
    expect(response.status).toBe(201)
    expect(response.headers.get('x-one')).toBe('1, 2')
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2'])
    expect(response.headers.has('connection')).toBe(false)
    let accepted = 0
    while (res.write(Buffer.alloc(16 * 1024))) accepted += 1
    expect(accepted).toBeLessThan(8)
    const drained = once(res, 'drain')
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    await reader.read()
    await drained
    res.end()
    let rest = 0
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += chunk.value.byteLength
    expect(rest).toBe(accepted * 16 * 1024)
  })

  it('closes the response when the consumer cancels its body, as a closed socket does', async () => {
    const res = new FetchResponse('GET')
    res.write('first')
    const closed = once(res, 'close')
    await (await answerOf(res)).body?.cancel()
    await closed
    expect(res.destroyed).toBe(true)
    expect(res.write('more')).toBe(false)
  })

  it('gives a bodiless status a null body, and refuses header changes after the head', async () => {
    const res = new FetchResponse('GET')
    res.statusCode = 204
    res.end()
    expect((await answerOf(res)).body).toBeNull()
    expect(() => res.setHeader('x', '1')).toThrow(/after they are sent/)
  })
})

describe('FetchResponse, handed over', () => {
  it('gives an answer that ends within the turn its bytes as the body, with no ReadableStream', async () => {
    const res = new FetchResponse('GET')
    const built = await responsesBuilt(async () => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '11', connection: 'keep-alive' })
      res.write('hello ')
      res.end('world')
      await answerOf(res)
    })
    expect(built).toHaveLength(1)
    const [body, init] = built[0] as [unknown, ResponseInit]
    expect(body).toBeInstanceOf(Uint8Array)
    // A record, which @hono/node-server writes to node:http as it is; framing left to the runtime.
    expect(init.headers).toEqual({ 'content-type': 'text/plain', 'content-length': '11' })
    expect(await (await answerOf(res)).text()).toBe('hello world')
  })

  it('builds the head of a flat list in one pass, and still reads it back by name', async () => {
    const res = new FetchResponse('GET')
    const built = await responsesBuilt(async () => {
      res.writeHead(200, ['Content-Type', 'text/plain', 'Content-Length', '2', 'Connection', 'keep-alive'])
      expect(res.getHeader('content-type')).toBe('text/plain')
      expect(res.getHeaderNames()).toEqual(['content-type', 'content-length', 'connection'])
      res.end('ok')
      await answerOf(res)
    })
    expect((built[0] as [unknown, ResponseInit])[1].headers).toEqual({
      'content-type': 'text/plain',
      'content-length': '2',
    })
  })

  it('keeps every line of a flat list whose names repeat or are not for a plain record', async () => {
    const res = new FetchResponse('GET')
    res.writeHead(200, [
      'Set-Cookie',
      'a=1',
      'constructor',
      'c',
      '__proto__',
      'p',
      'set-cookie',
      'b=2',
      'Transfer-Encoding',
      'chunked',
    ])
    res.end()
    const response = await answerOf(res)
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2'])
    expect(response.headers.get('constructor')).toBe('c')
    expect(response.headers.get('__proto__')).toBe('p')
    expect(response.headers.has('transfer-encoding')).toBe(false)
  })

  it('adds a flat list to the headers set before it, as writeHead does over setHeader', async () => {
    const res = new FetchResponse('GET')
    res.setHeader('Vary', 'Origin')
    res.writeHead(200, ['x-from-list', '1', 'vary', 'Accept'])
    res.end()
    const response = await answerOf(res)
    expect(response.headers.get('x-from-list')).toBe('1')
    expect(response.headers.get('vary')).toBe('Origin, Accept')
  })

  it('takes end() with a chunk, an encoding and a callback in any of the forms Node takes', async () => {
    const called: string[] = []
    const forms: [FetchResponse, () => void][] = []
    for (const form of ['callback', 'chunk, callback', 'chunk, encoding, callback']) {
      const res = new FetchResponse('GET')
      const done = (): void => {
        called.push(form)
      }
      if (form === 'callback') res.end(done)
      else if (form === 'chunk, callback') res.end('hi', done)
      else res.end('6869', 'hex', done)
      forms.push([res, done])
    }
    const bodies = await Promise.all(forms.map(async ([res]) => (await answerOf(res)).text()))
    expect(bodies).toEqual(['', 'hi', 'hi'])
    await new Promise((resolve) => setImmediate(resolve))
    expect(called).toEqual(['callback', 'chunk, callback', 'chunk, encoding, callback'])
  })

  it('streams an answer still open a turn after its head, and errors its body when destroyed', async () => {
    const res = new FetchResponse('GET')
    res.setHeader('set-cookie', ['a=1', 'b=2'])
    res.writeHead(200)
    res.write('first;')
    const response = await answerOf(res)
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2'])
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    expect(Buffer.from((await reader.read()).value as Uint8Array).toString()).toBe('first;')
    res.destroy()
    await expect(reader.read()).rejects.toThrow(/destroyed before its end/)
  })

  it('errors the body of an answer destroyed between its head and the hand-over', async () => {
    const res = new FetchResponse('GET')
    res.writeHead(200)
    res.write('cut')
    res.destroy()
    const response = await answerOf(res)
    expect(response.status).toBe(200)
    await expect(response.text()).rejects.toThrow()
  })
})

describe('FetchResponse, abandoned (the client left)', () => {
  // Deno prints the error of an answer whose body fails: nobody reads an abandoned one, so
  // nothing in it fails.
  it('settles with an empty 502 before the head, its body read without an error', async () => {
    const res = new FetchResponse('GET')
    const closed = once(res, 'close')
    res.abandon()
    const response = await answerOf(res)
    expect(response.status).toBe(502)
    expect(await response.text()).toBe('')
    await closed
    expect(res.destroyed).toBe(true)
  })

  it('ends a streamed body where it was, without an error', async () => {
    const res = new FetchResponse('GET')
    res.writeHead(200)
    res.write('first;')
    const response = await answerOf(res)
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    expect(Buffer.from((await reader.read()).value as Uint8Array).toString()).toBe('first;')
    res.abandon()
    await expect(reader.read()).resolves.toEqual({ done: true, value: undefined })
  })

  it('ends an answer cancelled by the runtime already without throwing', async () => {
    const res = new FetchResponse('GET')
    res.writeHead(200)
    res.write('first;')
    const response = await answerOf(res)
    await response.body?.cancel()
    expect(() => res.abandon()).not.toThrow()
  })
})

describe('FetchRequest', () => {
  it('lays the headers out as Node does and reads the body only on demand', async () => {
    let pulls = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1
        if (pulls > 3) controller.close()
        else controller.enqueue(new TextEncoder().encode(`part${pulls};`))
      },
    })
    const request = new Request('https://app.test/api/x?y=1', {
      method: 'PUT',
      body,
      headers: [
        ['Accept', 'a'],
        ['accept', 'b'],
        ['cookie', 'a=1'],
        ['cookie', 'b=2'],
      ],
      duplex: 'half',
    } as RequestInit)
    const req = new FetchRequest(request, { remoteAddress: '10.0.0.1' })
    expect(req.url).toBe('/api/x?y=1')
    expect(req.headers).toMatchObject({
      accept: 'a, b',
      cookie: 'a=1; b=2',
      host: 'app.test',
      'transfer-encoding': 'chunked',
    })
    expect(req.socket).toEqual({ remoteAddress: '10.0.0.1', encrypted: true })
    expect(pulls).toBeLessThanOrEqual(1)
    let text = ''
    for await (const chunk of req) text += String(chunk)
    expect(text).toBe('part1;part2;part3;')
    expect(req.complete).toBe(true)
  })

  it("says 'aborted' and closes when the request's signal aborts mid-body", async () => {
    const controller = new AbortController()
    const body = new ReadableStream<Uint8Array>({ pull() {} })
    const request = new Request('http://app.test/up', {
      method: 'POST',
      body,
      signal: controller.signal,
      duplex: 'half',
    } as RequestInit)
    const req = new FetchRequest(request)
    req.resume()
    const aborted = once(req, 'aborted')
    const closed = once(req, 'close')
    controller.abort()
    await aborted
    await closed
    expect(req.aborted).toBe(true)
  })

  it('reads neither the body of a GET nor its headers twice', () => {
    const request = new Request('http://app.test/api/x', { headers: { 'set-cookie': 'a=1', accept: 'a' } })
    const reads = { body: 0, headers: 0 }
    const { headers } = request
    Object.defineProperty(request, 'body', {
      get: () => {
        reads.body += 1
        return null
      },
    })
    Object.defineProperty(request, 'headers', {
      get: () => {
        reads.headers += 1
        return headers
      },
    })
    const req = new FetchRequest(request)
    expect(reads).toEqual({ body: 0, headers: 1 })
    expect(req.headers['set-cookie']).toEqual(['a=1'])
    expect(req.complete).toBe(true)
  })

  it('listens to the signal once per request, and abandons the answer when the client leaves', async () => {
    const controller = new AbortController()
    const answer = { writableEnded: false, abandon: vi.fn() }
    const request = new Request('http://app.test/x', { signal: controller.signal })
    const req = new FetchRequest(request, {}, answer)
    expect(getEventListeners(request.signal, 'abort')).toHaveLength(1)
    controller.abort()
    expect(answer.abandon).toHaveBeenCalledOnce()
    expect(req.complete).toBe(true)
    const handler = createFetchHandler({ '/mock': { mock: true } }, { log: 'silent' })
    const other = new AbortController()
    const mocked = new Request('http://app.test/mock/x', { signal: other.signal })
    const response = handler(mocked)
    expect(getEventListeners(mocked.signal, 'abort')).toHaveLength(1)
    expect((await response)?.status).toBe(200)
    await handler.close()
  })

  it("reads the client's leaving and address from node:http's exchange when given one, not from the signal", async () => {
    const controller = new AbortController()
    const request = new Request('http://app.test/x', { signal: controller.signal })
    const outgoing = Object.assign(new EventEmitter(), { writableFinished: false })
    const incoming = { socket: { remoteAddress: '10.0.0.2' } }
    const answer = { writableEnded: false, abandon: vi.fn() }
    const req = new FetchRequest(request, { incoming, outgoing }, answer)
    expect(req.socket.remoteAddress).toBe('10.0.0.2')
    expect(getEventListeners(request.signal, 'abort')).toHaveLength(0)
    const finished = Object.assign(new EventEmitter(), { writableFinished: true })
    const kept = { writableEnded: false, abandon: vi.fn() }
    new FetchRequest(new Request('http://app.test/y'), { outgoing: finished }, kept)
    finished.emit('close')
    outgoing.emit('close')
    // A microtask later, after the runtime's own `close` listeners.
    expect(answer.abandon).not.toHaveBeenCalled()
    await Promise.resolve()
    expect(kept.abandon).not.toHaveBeenCalled()
    expect(answer.abandon).toHaveBeenCalledOnce()
  })
})
