import { connect, constants } from 'node:http2'
import { Agent, request } from 'undici'
import { afterEach, describe, expect, it } from 'vitest'
import { localhostCertificate } from '../../../../../test/support/tls.js'
import { CorsDevProxyError } from '../../../src/config/errors.js'
import {
  type RunningMockBackend,
  startMockBackend,
} from '../../../src/stand-ins/mock-backend/start-mock-backend.js'

let mock: RunningMockBackend | undefined
afterEach(async () => {
  await mock?.close()
  mock = undefined
})

describe('startMockBackend', () => {
  it('listens on 127.0.0.1 and a free port by default, with the mock’s options', async () => {
    mock = await startMockBackend({ cors: 'wildcard' })
    expect(mock.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(mock.url).toBe(`${mock.origin}/`)
    expect(mock.backend.options.cors).toBe('wildcard')
    const res = await fetch(`${mock.url}x`, { headers: { origin: 'http://localhost:5173' } })
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    await res.text()
    expect(mock.log).toBe(mock.backend.log)
    expect(mock.log).toHaveLength(1)
  })

  it('names an any-address host localhost in its origin', async () => {
    mock = await startMockBackend({ host: '0.0.0.0' })
    expect(mock.origin).toMatch(/^http:\/\/localhost:\d+$/)
  })

  it('serves https with the given certificate', async () => {
    const { cert, key } = await localhostCertificate()
    mock = await startMockBackend({ https: { cert, key } })
    expect(mock.origin.startsWith('https://127.0.0.1:')).toBe(true)
    const agent = new Agent({ connect: { ca: cert } })
    try {
      const res = await request(`${mock.origin}/s`, { dispatcher: agent })
      expect(await res.body.json()).toMatchObject({ protocol: 'http/1.1', secure: true })
    } finally {
      await agent.close()
    }
  })

  it('answers on HTTP/2 without the HTTP/1-only headers it uses there (Upgrade, Connection)', async () => {
    const { cert, key } = await localhostCertificate()
    mock = await startMockBackend({ https: { cert, key }, http2: true, bodyLimit: 10 })
    const session = connect(mock.origin, { ca: cert })
    const exchange = (headers: Record<string, string>, body?: string) =>
      new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
        const stream = session.request(headers)
        stream.end(body)
        let text = ''
        let head: Record<string, unknown> = {}
        stream.on('response', (h) => {
          head = h
        })
        stream.on('data', (chunk) => {
          text += String(chunk)
        })
        stream.on('end', () =>
          resolve({ status: Number(head[constants.HTTP2_HEADER_STATUS]), headers: head, text }),
        )
        stream.on('error', reject)
      })
    try {
      const ws = await exchange({ ':path': '/ws' })
      expect(ws.status).toBe(426)
      expect(ws.headers.upgrade).toBeUndefined()
      const tooLarge = await exchange({ ':method': 'POST', ':path': '/up' }, 'x'.repeat(50))
      expect(tooLarge.status).toBe(413)
      expect(tooLarge.headers.connection).toBeUndefined()
      const events = await exchange({
        ':path': '/events?count=2&interval=0&cors=reflect',
        origin: 'https://a.test',
      })
      expect(events.headers['access-control-allow-origin']).toBe('https://a.test')
      expect(events.text.match(/^id: \d$/gm)).toEqual(['id: 1', 'id: 2'])
    } finally {
      session.close()
    }
  })

  it.each([
    [{ http2: true }, 'CONFLICTING_OPTIONS', 'http2'],
    [{ port: 70_000 }, 'INVALID_OPTION', 'port'],
    [{ cors: 'maybe' }, 'INVALID_OPTION', 'mock.cors'],
  ])('refuses %j before listening', async (options, code, option) => {
    await expect(startMockBackend(options as never)).rejects.toSatisfy(
      (error) => error instanceof CorsDevProxyError && error.code === code && error.option === option,
    )
  })

  it('close() does not wait for idle keep-alive connections', { timeout: 10_000 }, async () => {
    const running = await startMockBackend()
    const agent = new Agent({ keepAliveTimeout: 600_000 })
    try {
      const res = await request(`${running.origin}/k`, { dispatcher: agent })
      await res.body.dump()
      await running.close()
      await expect(fetch(`${running.origin}/k`)).rejects.toThrow()
    } finally {
      await agent.close()
    }
  })
})
