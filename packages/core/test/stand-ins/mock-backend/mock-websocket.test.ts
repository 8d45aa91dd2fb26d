import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { createMockWebSocketEcho } from '../../../src/stand-ins/mock-backend/mock-websocket.js'
import {
  type RunningMockBackend,
  startMockBackend,
} from '../../../src/stand-ins/mock-backend/start-mock-backend.js'

let mock: RunningMockBackend | undefined
const servers: Server[] = []
afterEach(async () => {
  await mock?.close()
  mock = undefined
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

function connect(url: string, origin?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, origin ? { origin } : {})
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })
}

function nextMessage(ws: WebSocket): Promise<{ data: string; isBinary: boolean }> {
  return new Promise((resolve) =>
    ws.once('message', (data, isBinary) => resolve({ data: String(data), isBinary })),
  )
}

describe('WebSocket echo on /ws', () => {
  it('echoes text as text and binary as binary, from any origin', async () => {
    mock = await startMockBackend()
    const ws = await connect(`${mock.origin.replace('http', 'ws')}/ws?cors=off`, 'http://elsewhere.example')
    try {
      const text = nextMessage(ws)
      ws.send('hello')
      expect(await text).toEqual({ data: 'hello', isBinary: false })
      const binary = nextMessage(ws)
      ws.send(Buffer.from('bytes'))
      expect(await binary).toEqual({ data: 'bytes', isBinary: true })
    } finally {
      ws.close()
    }
  })

  it('refuses upgrades on other paths', async () => {
    mock = await startMockBackend()
    await expect(connect(`${mock.origin.replace('http', 'ws')}/other`)).rejects.toThrow()
  })

  it('answers a plain GET on /ws with 426 Upgrade Required', async () => {
    mock = await startMockBackend()
    const res = await fetch(`${mock.origin}/ws`)
    expect(res.status).toBe(426)
    expect(res.headers.get('upgrade')).toBe('websocket')
    await res.text()
  })

  it('leaves other upgrades to the host server (returns false), e.g. for HMR', async () => {
    const echo = createMockWebSocketEcho({ maxPayload: 1024 })
    const handled: string[] = []
    const server = createServer()
    servers.push(server)
    server.on('upgrade', (req, socket, head) => {
      if (echo.upgrade(req, socket, head)) handled.push(`mock ${req.url}`)
      else {
        handled.push(`host ${req.url}`)
        socket.destroy()
      }
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const base = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`
    await expect(connect(`${base}/__hmr`)).rejects.toThrow()
    const ws = await connect(`${base}/ws`)
    const reply = nextMessage(ws)
    ws.send('x')
    expect((await reply).data).toBe('x')
    expect(handled).toEqual(['host /__hmr', 'mock /ws'])
    const closed = new Promise((resolve) => ws.once('close', resolve))
    await echo.close()
    await closed
  })

  it('closes a connection whose message exceeds the limit, and keeps serving others', async () => {
    mock = await startMockBackend({ bodyLimit: 100 })
    const url = `${mock.origin.replace('http', 'ws')}/ws`
    const big = await connect(url)
    const closed = new Promise<number>((resolve) => big.once('close', resolve))
    big.send('x'.repeat(101))
    expect(await closed).toBe(1009)
    const small = await connect(url)
    const reply = nextMessage(small)
    small.send('ok')
    expect((await reply).data).toBe('ok')
    small.close()
  })
})
