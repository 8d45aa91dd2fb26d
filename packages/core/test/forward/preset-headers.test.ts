// The head of a forwarded answer over headers an earlier middleware already set on the response
// (webpack-dev-server sets `Cross-Origin-Resource-Policy` on every response before the proxy
// runs): the answer's fields replace same-named preset ones where those stood, the other preset
// fields stay, repeated fields stay separate lines grouped where they first came, and every
// `Set-Cookie` line reaches the client, on Node 20 and Node 24 alike. The lists below are what
// the object head merged by Node's `writeHead` sent before the relay folded the preset fields
// into its flat list itself: the exact lines, in order.
import { createServer as createHttpServer, type IncomingHttpHeaders, request } from 'node:http'
import { createServer as createNetServer, type Server, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { listen } from '../../../../test/support/servers.js'
import { createCorsDevProxy, type Routes } from '../../src/index.js'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

const UPSTREAM_HEAD = [
  'HTTP/1.1 200 OK',
  'Set-Cookie: a=1; Domain=api.example',
  'Vary: Accept',
  'X-Multi: one',
  'Cross-Origin-Resource-Policy: cross-origin',
  'set-cookie: b=2',
  'X-Multi: two',
  'Content-Type: text/plain',
  'Content-Length: 2',
].join('\r\n')

/** A target that answers every request with {@link UPSTREAM_HEAD} and the body `ok`. */
async function rawTarget(): Promise<string> {
  const sockets = new Set<Socket>()
  const server: Server = createNetServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.once('data', () => socket.end(`${UPSTREAM_HEAD}\r\n\r\nok`))
    socket.on('error', () => undefined)
  })
  const started = await listen(server)
  cleanup.push(async () => {
    for (const socket of sockets) socket.destroy()
    await started.close()
  })
  return started.url
}

/** A dev server whose own middleware sets headers before the proxy's middleware runs. */
async function devServer(routes: Routes): Promise<string> {
  const proxy = createCorsDevProxy(routes, { log: 'silent', inspector: false })
  const server = await listen(
    createHttpServer((req, res) => {
      res.setHeader('Cross-Origin-Resource-Policy', 'same-site')
      res.setHeader('Vary', 'Accept-Encoding')
      res.setHeader('Set-Cookie', ['dev=1', 'dev=2'])
      res.setHeader('X-Dev-Server', 'yes')
      proxy.middleware(req, res)
    }),
  )
  cleanup.push(async () => {
    await server.close()
    await proxy.close()
  })
  return server.url
}

interface RawAnswer {
  status: number | undefined
  rawHeaders: string[]
  body: string
}

function get(url: string, headers: IncomingHttpHeaders = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          rawHeaders: res.rawHeaders,
          body: Buffer.concat(chunks).toString(),
        }),
      )
      res.on('error', reject)
    })
      .on('error', reject)
      .end()
  })
}

/** The head's lines but the ones Node's server adds itself (`Date`, `Connection`, `Keep-Alive`). */
function answerLines(rawHeaders: readonly string[]): string[] {
  const lines: string[] = []
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = rawHeaders[index] as string
    if (['date', 'connection', 'keep-alive'].includes(name.toLowerCase())) continue
    lines.push(`${name}: ${rawHeaders[index + 1]}`)
  }
  return lines
}

describe('an answer relayed over headers already set on the response', () => {
  it('replaces the preset fields it sends, keeps the others, and keeps every line (plain route)', async () => {
    const url = await devServer({ '/api': await rawTarget() })
    const answer = await get(`${url}/api/x`)
    expect(answer.status).toBe(200)
    expect(answerLines(answer.rawHeaders)).toEqual([
      'cross-origin-resource-policy: cross-origin',
      'vary: Accept',
      'set-cookie: a=1',
      'set-cookie: b=2',
      'X-Dev-Server: yes',
      'x-multi: one',
      'x-multi: two',
      'content-type: text/plain',
      'content-length: 2',
    ])
    expect(answer.body).toBe('ok')
  })

  it('does the same on a cors route, whose headers join the head at writeHead', async () => {
    const url = await devServer({ '/api': { target: await rawTarget(), cors: true } })
    const answer = await get(`${url}/api/x`, { origin: 'http://localhost:5173' })
    expect(answer.status).toBe(200)
    expect(answerLines(answer.rawHeaders)).toEqual([
      'cross-origin-resource-policy: cross-origin',
      'vary: Accept, Origin',
      'set-cookie: a=1',
      'set-cookie: b=2',
      'X-Dev-Server: yes',
      'access-control-allow-origin: http://localhost:5173',
      'x-multi: one',
      'x-multi: two',
      'content-type: text/plain',
      'content-length: 2',
    ])
    expect(answer.body).toBe('ok')
  })
})
