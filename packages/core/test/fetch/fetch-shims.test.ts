import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { FetchRequest } from '../../src/fetch/fetch-request.js'
import { FetchResponse } from '../../src/fetch/fetch-response.js'

describe('FetchResponse', () => {
  it('resolves the Response at the head, and asks the writer to wait until the consumer pulls', async () => {
    const res = new FetchResponse('GET')
    res.setHeader('Set-Cookie', ['a=1', 'b=2'])
    res.writeHead(201, ['x-one', '1', 'x-one', '2', 'connection', 'close'])
    const response = await res.response
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
    await (await res.response).body?.cancel()
    await closed
    expect(res.destroyed).toBe(true)
    expect(res.write('more')).toBe(false)
  })

  it('gives a bodiless status a null body, and refuses header changes after the head', async () => {
    const res = new FetchResponse('GET')
    res.statusCode = 204
    res.end()
    expect((await res.response).body).toBeNull()
    expect(() => res.setHeader('x', '1')).toThrow(/after they are sent/)
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
})
