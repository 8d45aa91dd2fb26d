import { createServer } from 'node:http'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { captureLogSink, listen, sendRequest } from '../../../../test/support/servers.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { createDevServerProxy, type DevServerHost } from '../../src/proxy/dev-server-proxy.js'

const cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** A target that answers HTTP with its path and echoes WebSocket messages with theirs. */
async function startTarget() {
  const server = createServer((req, res) => res.end(`target ${req.url}`))
  const sockets = new WebSocketServer({ server })
  const reached: string[] = []
  sockets.on('connection', (socket, req) => {
    reached.push(req.url ?? '')
    socket.on('message', (data) => socket.send(`${req.url} ${data}`))
  })
  const target = await listen(server)
  cleanup.push(() => {
    for (const client of sockets.clients) client.terminate()
    return target.close()
  })
  return Object.assign(target, { reached })
}

/** A dev server (a bare `http` server) with the set-up installed. */
async function startDevServer(host: Omit<DevServerHost, 'server' | 'sink'>, log: 'info' | 'debug' = 'info') {
  const target = await startTarget()
  const sink = captureLogSink()
  const server = createServer()
  const resolved = resolveOptions(
    { '/': { target: target.url, ws: true }, '/api': target.url },
    { log, cors: { maxAge: 9000 } },
  )
  const proxy = createDevServerProxy(resolved, { ...host, sink, server })
  server.on('request', (req, res) =>
    proxy.middleware(req, res, () => {
      res.statusCode = 299
      res.end('dev server')
    }),
  )
  const front = await listen(server)
  cleanup.push(() => front.close())
  return { front, proxy, sink, target }
}

/**
 * The status line the server answers a WebSocket handshake for `path` with, or `'no answer'`
 * when nobody answers within `wait` ms: an upgrade the proxy leaves alone stays with the dev
 * server, which here has no socket of its own.
 */
function handshake(port: number, path: string, host = `127.0.0.1:${port}`, wait = 400): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const timer = setTimeout(() => {
      resolve('no answer')
      socket.destroy()
    }, wait)
    let answer = ''
    socket.on('data', (chunk) => {
      answer += chunk.toString()
      if (answer.includes('\r\n')) {
        clearTimeout(timer)
        resolve(answer.slice(0, answer.indexOf('\r\n')))
        socket.destroy()
      }
    })
    socket.on('error', reject)
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    )
  })
}

describe('createDevServerProxy', () => {
  it('forwards upgrades of ws routes, and leaves the dev server its own sockets and the routes without ws', async () => {
    const { front, target } = await startDevServer({ isOwnUpgrade: (req) => req.url === '/hmr' })
    expect(await handshake(front.port, '/live', undefined, 10_000)).toBe('HTTP/1.1 101 Switching Protocols')
    expect(await handshake(front.port, '/hmr')).toBe('no answer')
    // `/api` is the longest match and has no `ws`, although `/` has.
    expect(await handshake(front.port, '/api/socket')).toBe('no answer')
    expect(target.reached).toEqual(['/live'])
  })

  it('carries messages both ways once the upgrade is forwarded', async () => {
    const { front } = await startDevServer({})
    const socket = new WebSocket(`ws://127.0.0.1:${front.port}/live?room=1`)
    cleanup.push(() => socket.terminate())
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
    socket.send('hello')
    const data = await new Promise<string>((resolve) => socket.once('message', (raw) => resolve(String(raw))))
    expect(data).toBe('/live?room=1 hello')
  })

  it("answers 403 to an upgrade the dev server's host check refuses, without reaching the target", async () => {
    const { front, target } = await startDevServer({
      isAllowedUpgrade: (req) => req.headers.host !== 'evil.example',
    })
    expect(await handshake(front.port, '/live', 'evil.example')).toBe('HTTP/1.1 403 Forbidden')
    expect(target.reached).toEqual([])
    expect(await handshake(front.port, '/live', undefined, 10_000)).toBe('HTTP/1.1 101 Switching Protocols')
  })

  it('answers an upgrade to another protocol than WebSocket 400 on a route path, and leaves it alone elsewhere', async () => {
    const { front, target } = await startDevServer({ isOwnUpgrade: (req) => req.url === '/hmr' })
    // `wait`: how long no answer means none. An answer ends the wait at once, so the cases that
    // expect one wait 10 s (400 ms ran out beside a busy process); the dev server's own socket,
    // which must stay unanswered, is watched for 400 ms.
    const upgrade = (path: string, protocol: string, wait = 10_000) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(front.port, '127.0.0.1')
        const host = `127.0.0.1:${front.port}`
        const timer = setTimeout(() => {
          resolve('no answer')
          socket.destroy()
        }, wait)
        socket.once('data', (chunk) => {
          clearTimeout(timer)
          resolve(chunk.toString().split('\r\n')[0] as string)
          socket.destroy()
        })
        socket.on('error', reject)
        socket.write(
          `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: ${protocol}\r\n\r\n`,
        )
      })
    expect(await upgrade('/api/x', 'h2c')).toBe('HTTP/1.1 400 Bad Request')
    expect(await upgrade('/live', 'foo/1')).toBe('HTTP/1.1 400 Bad Request')
    // The dev server's own socket is never answered, whatever it asks for.
    expect(await upgrade('/hmr', 'h2c', 400)).toBe('no answer')
    expect(target.reached).toEqual([])
  })

  it('answers CONNECT 400 instead of tunnelling', async () => {
    const { front } = await startDevServer({})
    const status = await new Promise<string>((resolve, reject) => {
      const socket = connect(front.port, '127.0.0.1')
      socket.once('data', (chunk) => {
        resolve(chunk.toString().split('\r\n')[0] as string)
        socket.destroy()
      })
      socket.on('error', reject)
      socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n')
    })
    expect(status).toBe('HTTP/1.1 400 Bad Request')
  })

  it('logs through one logger: the warnings of the configuration, then the routes once the server listens', async () => {
    const { sink, target } = await startDevServer({})
    const lines = sink.lines.map((line) => `${line.level} ${line.message}`)
    expect(lines[0]).toMatch(/^warn \[cors-dev-proxy\] options\.cors\.maxAge is 9000 s/)
    expect(lines[1]).toBe(
      // In the order written ('/' first), though '/api' is matched first.
      `info [cors-dev-proxy] routes: / → ${target.url} (ws, cors), /api → ${target.url} (cors)`,
    )
    expect(lines).toHaveLength(2)
  })

  it('claims the requests of its routes, and the middleware serves them from that match', async () => {
    const { front, proxy } = await startDevServer({})
    expect(proxy.claims({ url: '/api/users' })).toBe(true)
    expect((await sendRequest(`${front.url}/api/users`)).body.toString()).toBe('target /users')
  })

  it('logs each answered request with both hops, status and time at debug level', async () => {
    const { front, sink } = await startDevServer({}, 'debug')
    await sendRequest(`${front.url}/api/users`)
    // The line is written when the exchange is over, which can come just after the client has it.
    await expect
      .poll(() => sink.text())
      .toMatch(/h1\.1 GET \/api\/users → http:\/\/127\.0\.0\.1:\d+\/users 200 \d+ ms/)
  })

  it('prints the routes at once when there is no server, and closes on demand', async () => {
    const sink = captureLogSink()
    const proxy = createDevServerProxy(resolveOptions({ '/api': { mock: true } }), { sink })
    expect(sink.text()).toBe('[cors-dev-proxy] routes: /api → mock backend')
    await proxy.close()
  })

  it("uses the user's logger over the dev server's", () => {
    const mine = captureLogSink()
    const theirs = captureLogSink()
    const proxy = createDevServerProxy(resolveOptions({ '/api': { mock: true } }, { logger: mine }), {
      sink: theirs,
    })
    cleanup.push(() => proxy.close())
    expect(mine.lines).toHaveLength(1)
    expect(theirs.lines).toHaveLength(0)
  })
})

describe('createDevServerProxy: upgrades no route takes', () => {
  it('hands them to unclaimedUpgrade, including one a ws route’s pathFilter declines', async () => {
    const target = await startTarget()
    const server = createServer()
    const unclaimed: string[] = []
    const proxy = createDevServerProxy(
      resolveOptions(
        { '/live': { target: target.url, ws: true, pathFilter: (path) => path !== '/live/private' } },
        {
          log: 'silent',
        },
      ),
      {
        server,
        unclaimedUpgrade: (req, socket) => {
          unclaimed.push(req.url ?? '')
          socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n')
        },
      },
    )
    const front = await listen(server)
    cleanup.push(async () => {
      await proxy.close()
      await front.close()
    })
    expect(await handshake(front.port, '/live/private')).toBe('HTTP/1.1 404 Not Found')
    expect(await handshake(front.port, '/elsewhere')).toBe('HTTP/1.1 404 Not Found')
    expect(await handshake(front.port, '/live/room', undefined, 10_000)).toBe(
      'HTTP/1.1 101 Switching Protocols',
    )
    expect(unclaimed).toEqual(['/live/private', '/elsewhere'])
  })
})
