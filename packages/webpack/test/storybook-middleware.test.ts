import { createServer, type IncomingMessage } from 'node:http'
import { connect as connectSocket } from 'node:net'
import type { Duplex } from 'node:stream'
import { CorsDevProxyError } from '@cors-dev-proxy/core'
import connect from 'connect'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { listen, sendRequest } from '../../../test/support/servers.js'
import { storybookMiddleware, storybookPreviewHead } from '../src/storybook-middleware.js'

/** The routes line goes nowhere: these tests read what the proxy serves, not what it logs. */
const QUIET = { log: 'silent' } as const

const cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** A target that answers HTTP with its path and echoes WebSocket messages. */
async function startTarget() {
  const server = createServer((req, res) => res.end(`target ${req.url}`))
  const sockets = new WebSocketServer({ server })
  sockets.on('connection', (socket) => socket.on('message', (data) => socket.send(`echo ${data}`)))
  const target = await listen(server)
  cleanup.push(() => {
    for (const client of sockets.clients) client.terminate()
    return target.close()
  })
  return target
}

/**
 * Storybook's dev server as `.storybook/middleware.js` sees it: a router (polka there, connect
 * here: both `use` and keep `server`) whose server also carries Storybook's own channel socket,
 * answered 418 here so a test sees who took it.
 */
async function startStorybook(exported: ReturnType<typeof storybookMiddleware>) {
  const server = createServer()
  const router = Object.assign(connect(), { server })
  exported(router)
  router.use((_req: IncomingMessage, res: { end(text: string): void }) => res.end('storybook'))
  server.on('request', router)
  server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    if (req.url?.startsWith('/storybook-server-channel')) socket.end('HTTP/1.1 418 Channel\r\n\r\n')
  })
  const front = await listen(server)
  cleanup.push(() => front.close())
  return front
}

/** The status line a WebSocket handshake for `path` gets. */
function handshake(port: number, path: string, host = `127.0.0.1:${port}`): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connectSocket(port, '127.0.0.1')
    let answer = ''
    socket.on('data', (chunk) => {
      answer += chunk.toString()
      if (!answer.includes('\r\n')) return
      resolve(answer.slice(0, answer.indexOf('\r\n')))
      socket.destroy()
    })
    socket.on('error', reject)
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    )
  })
}

describe('storybookMiddleware', () => {
  it("proxies its routes on Storybook's router and hands every other request on", async () => {
    const target = await startTarget()
    const front = await startStorybook(storybookMiddleware({ '/api': target.url }, QUIET))
    const proxied = await sendRequest(`${front.url}/api/users?id=7`)
    expect(proxied.status).toBe(200)
    expect(proxied.body.toString()).toBe('target /users?id=7')
    expect((await sendRequest(`${front.url}/iframe.html`)).body.toString()).toBe('storybook')
  })

  it("takes the WebSockets of ws routes on Storybook's server, never its channel, and only from local hosts", async () => {
    const target = await startTarget()
    const front = await startStorybook(storybookMiddleware({ '/': { target: target.url, ws: true } }, QUIET))
    const socket = new WebSocket(`ws://127.0.0.1:${front.port}/live`)
    cleanup.push(() => socket.terminate())
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
    socket.send('ping')
    const reply = await new Promise<string>((resolve) =>
      socket.once('message', (data) => resolve(String(data))),
    )
    expect(reply).toBe('echo ping')
    // The route on '/' covers the channel's path too, which stays Storybook's.
    expect(await handshake(front.port, '/storybook-server-channel?token=x')).toBe('HTTP/1.1 418 Channel')
    expect(await handshake(front.port, '/live', 'evil.example')).toBe('HTTP/1.1 403 Forbidden')
  })

  it('serves the overlay client that storybookPreviewHead adds to the preview', async () => {
    const front = await startStorybook(storybookMiddleware({ '/api': 'http://127.0.0.1:9' }, QUIET))
    const head = storybookPreviewHead('<meta name="x">')
    expect(head.startsWith('<meta name="x">')).toBe(true)
    const src = /<script type="module" src="([^"]+)"><\/script>$/.exec(head)?.[1]
    const script = await sendRequest(`${front.url}${src}`)
    expect(script.status).toBe(200)
    expect(String(script.headers['content-type'])).toContain('javascript')
  })

  it('throws when Storybook loads the file, naming a misspelt option', () => {
    const misspelt = { '/api': { target: 'http://127.0.0.1:9', changeOrgin: true } }
    expect(() => storybookMiddleware(misspelt as never)).toThrow(CorsDevProxyError)
    expect(() => storybookMiddleware(misspelt as never)).toThrow(/changeOrgin/)
  })
})
