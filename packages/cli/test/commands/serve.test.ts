import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createServer, type IncomingHttpHeaders, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { listen, type StartedServer } from '../../../../test/support/servers.js'
import { type RunningCliServer, runCliHere, startCliServer } from '../support/cli-process.js'
import { startCliServerHere } from '../support/cli-server-here.js'
import { rawRequest } from '../support/raw-request.js'

/**
 * `cors-dev-proxy serve` on 127.0.0.1 port 0, in front of a real target: routes, the host check
 * (HTTP and WebSocket), static files with their defences and the SPA fallback, refused request
 * targets, and a clean stop on SIGINT / SIGTERM. `runCli` runs from the sources in this process
 * (startCliServerHere, stopped through its `stop`; runCliHere for the mistakes, which end before
 * anything listens); the stop on SIGTERM is the built binary's, in a child process.
 */

let dir: string
let root: string
let target: StartedServer<ReturnType<typeof createServer>>
const seen: Array<{ url: string | undefined; headers: IncomingHttpHeaders }> = []
let serve: RunningCliServer

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cdp-serve-'))
  root = join(dir, 'public')
  mkdirSync(join(root, 'docs'), { recursive: true })
  mkdirSync(join(root, 'api'), { recursive: true })
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title>')
  writeFileSync(join(root, 'app.js'), 'console.log("app")')
  writeFileSync(join(root, 'style.css'), 'body{}')
  writeFileSync(join(root, 'data.json'), '{"a":1}')
  writeFileSync(join(root, 'logo.svg'), '<svg/>')
  writeFileSync(join(root, 'api', 'users'), 'the static file, not the route')
  writeFileSync(join(root, 'docs', 'index.html'), '<title>docs</title>')
  writeFileSync(join(root, '.env'), 'SECRET=dotfile')
  writeFileSync(join(dir, 'secret.txt'), 'SECRET=outside')
  symlinkSync(join(dir, 'secret.txt'), join(root, 'linked.txt'))
  target = await listen(
    createServer((req, res) => {
      seen.push({ url: req.url, headers: req.headers })
      const delay = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('delay') ?? 0)
      setTimeout(() => {
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ url: req.url }))
      }, delay)
    }),
  )
  serve = await startCliServerHere(
    [
      'serve',
      '--port',
      '0',
      '--route',
      `/api=${target.url}`,
      '--mock',
      '/m',
      '--static',
      root,
      '--cors',
      '--allowed-host',
      'dev.example.test',
    ],
    { cwd: dir },
  )
}, 30_000)

afterAll(async () => {
  await serve?.stop()
  await target?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('serve: start-up', () => {
  it('prints its URLs as Vite does, the static folder and the routes line', async () => {
    await serve.waitFor('[cors-dev-proxy] routes:')
    expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    expect(serve.output()).toContain(`➜  Local:   ${serve.url}`)
    expect(serve.output()).toContain('➜  Network: use --host 0.0.0.0 to expose')
    expect(serve.output()).toContain('➜  Static:  public (navigations fall back to index.html)')
    expect(serve.output()).toContain(
      `[cors-dev-proxy] routes: /api → ${target.url} (cors), /m → mock backend (ws, cors)`,
    )
  })

  it('lists the WebSocket routes with the URL to open', async () => {
    await serve.waitFor('[cors-dev-proxy] routes:')
    const ws = serve.url.replace(/^http/, 'ws').replace(/\/$/, '')
    expect(serve.output()).toContain(`➜  WebSocket: ${ws}/m → mock backend (echo at /m/ws)`)
    expect(serve.output()).not.toContain(`WebSocket: ${ws}/api`)
  })
})

describe('serve: recordings', () => {
  it("writes a record: true route's recordings under the project folder it runs in", async () => {
    const project = mkdtempSync(join(dir, 'project-'))
    writeFileSync(
      join(project, 'cors-dev-proxy.config.mjs'),
      `export default { routes: { '/rec': { target: '${target.url}', record: true } } }\n`,
    )
    const recording = await startCliServerHere(['serve', '--port', '0'], { cwd: project })
    try {
      const res = await fetch(`${recording.origin}/rec/items?n=1`)
      expect(res.status).toBe(200)
      await res.arrayBuffer()
    } finally {
      // A recording is on disk once the proxy has closed.
      await recording.stop()
    }
    const folder = join(project, 'cors-dev-proxy/recordings/rec')
    const [file] = readdirSync(folder)
    const written = JSON.parse(readFileSync(join(folder, file ?? ''), 'utf8'))
    expect(written.request).toMatchObject({ method: 'GET', path: '/items?n=1' })
  })
})

describe('serve: routes', () => {
  it('proxies with the prefix removed, before the static files', async () => {
    const res = await rawRequest(serve.origin, '/api/users?x=1')
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toEqual({ url: '/users?x=1' })
    expect(seen.at(-1)?.headers['x-forwarded-host']).toBe(new URL(serve.url).host)
  })

  it('serves the inspector (after its host check) and leaves the static pages as they are', async () => {
    await rawRequest(serve.origin, '/api/inspected?token=abc')
    const page = await rawRequest(serve.origin, '/__cors-dev-proxy/')
    expect(page.status).toBe(200)
    expect(page.body).toContain('cors-dev-proxy inspector')
    const listed = JSON.parse((await rawRequest(serve.origin, '/__cors-dev-proxy/exchanges')).body) as {
      url: string
      upstreamUrl: string
    }[]
    expect(listed.find((view) => view.url === '/api/inspected?token=[masked]')?.upstreamUrl).toBe(
      `${target.url}/inspected?token=[masked]`,
    )
    const foreign = await rawRequest(serve.origin, '/__cors-dev-proxy/exchanges', {
      headers: { host: 'evil.example' },
    })
    expect(foreign.status).toBe(403)
    expect((await rawRequest(serve.origin, '/')).body).toBe('<!doctype html><title>app</title>')
  })

  it('answers a mock route from the mock backend', async () => {
    const res = await rawRequest(serve.origin, '/m/items?cors=off')
    expect(JSON.parse(res.body)).toMatchObject({ method: 'GET', path: '/items' })
  })

  it('answers preflights with --cors', async () => {
    const res = await rawRequest(serve.origin, '/api/items', {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT' },
    })
    expect(res.status).toBe(204)
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173')
  })

  it('answers an absolute-form target and CONNECT 400, reaching nothing', async () => {
    const before = seen.length
    const absolute = await rawRequest(serve.origin, `${target.url}/api/x`)
    expect(absolute.status).toBe(400)
    const { hostname, port } = new URL(serve.url)
    const connectStatus = await new Promise<number>((resolve, reject) => {
      const req = request({ host: hostname, port, method: 'CONNECT', path: 'example.com:443', agent: false })
      req.once('connect', (res, socket) => {
        socket.destroy()
        resolve(res.statusCode ?? 0)
      })
      req.once('response', (res) => resolve(res.statusCode ?? 0))
      req.once('error', reject)
      req.end()
    })
    expect(connectStatus).toBe(400)
    expect(seen.length).toBe(before)
  })
})

describe('serve: host check (DNS-rebinding protection)', () => {
  it.each(['/api/users', '/app.js', '/nothing-here'])(
    'answers 403 to Host: evil.example on %s',
    async (path) => {
      const before = seen.length
      const res = await rawRequest(serve.origin, path, { headers: { host: 'evil.example' } })
      expect(res.status).toBe(403)
      expect(res.body).toContain('--allowed-host evil.example')
      expect(seen.length).toBe(before)
    },
  )

  it.each(['localhost', 'app.localhost:8080', '127.0.0.1', '[::1]:80', 'dev.example.test'])(
    'lets Host: %s through',
    async (host) => {
      const res = await rawRequest(serve.origin, '/app.js', { headers: { host } })
      expect(res.status).toBe(200)
    },
  )

  /** Opens a WebSocket with the given Host; resolves with the echo, or the status it was refused with. */
  function openSocket(path: string, host: string): Promise<{ echo: string } | { status: number }> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${serve.origin.replace('http', 'ws')}${path}`, { headers: { host } })
      socket.once('unexpected-response', (_req, res) => {
        resolve({ status: res.statusCode ?? 0 })
        res.resume()
        socket.terminate()
      })
      socket.once('open', () => socket.send('ping'))
      socket.once('message', (data) => {
        resolve({ echo: String(data) })
        socket.close()
      })
      socket.once('error', (error) => {
        if (!error.message.includes('Unexpected server response')) reject(error)
      })
    })
  }

  it('answers 403 to a WebSocket upgrade with Host: evil.example, on a ws route and elsewhere', async () => {
    expect(await openSocket('/m/ws', 'evil.example')).toEqual({ status: 403 })
    expect(await openSocket('/no-socket-here', 'evil.example')).toEqual({ status: 403 })
  })

  it('forwards the same upgrade with a loopback Host, and refuses one no route takes with 404', async () => {
    expect(await openSocket('/m/ws', serve.url.slice(7, -1))).toMatchObject({
      echo: expect.stringContaining('ping'),
    })
    expect(await openSocket('/no-socket-here', 'localhost')).toEqual({ status: 404 })
  })
})

describe('serve: static files', () => {
  it.each([
    ['/app.js', 'text/javascript; charset=utf-8', 'console.log("app")'],
    ['/style.css', 'text/css; charset=utf-8', 'body{}'],
    ['/data.json', 'application/json; charset=utf-8', '{"a":1}'],
    ['/logo.svg', 'image/svg+xml', '<svg/>'],
    ['/', 'text/html; charset=utf-8', '<!doctype html><title>app</title>'],
    ['/docs/', 'text/html; charset=utf-8', '<title>docs</title>'],
  ])('serves %s as %s, same-origin only and unsniffed', async (path, type, body) => {
    const res = await rawRequest(serve.origin, path)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe(type)
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.body).toBe(body)
  })

  it('answers HEAD without a body and a matching If-None-Match with 304', async () => {
    const head = await rawRequest(serve.origin, '/app.js', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers['content-length']).toBe('18')
    expect(head.body).toBe('')
    const again = await rawRequest(serve.origin, '/app.js', {
      headers: { 'if-none-match': String(head.headers.etag) },
    })
    expect(again.status).toBe(304)
  })

  it('redirects a folder without its trailing slash, keeping the query', async () => {
    const res = await rawRequest(serve.origin, '/docs?x=1')
    expect(res.status).toBe(301)
    expect(res.headers.location).toBe('/docs/?x=1')
  })

  it.each([
    '/../secret.txt',
    '/docs/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E%2Fsecret.txt',
    '/docs/..%2f..%2fsecret.txt',
    '/..%5csecret.txt',
    '/docs\\..\\..\\secret.txt',
    '/.env',
    '/%2eenv',
    '/linked.txt',
    '//..//secret.txt',
  ])('never serves %s (traversal, dotfile or a link out of the folder)', async (path) => {
    const res = await rawRequest(serve.origin, path)
    expect(res.status).toBe(404)
    expect(res.body).not.toContain('SECRET')
  })

  it('falls back to index.html for a navigation to a path without a file', async () => {
    const res = await rawRequest(serve.origin, '/users/42?tab=1', { headers: { accept: 'text/html,*/*' } })
    expect(res.status).toBe(200)
    expect(res.body).toBe('<!doctype html><title>app</title>')
  })

  it.each([
    ['a fetch that does not accept HTML', '/users/42', 'GET', 'application/json'],
    ['a missing file with an extension', '/missing.js', 'GET', 'text/html'],
    ['a POST', '/users/42', 'POST', 'text/html'],
  ])('answers 404, not index.html, to %s', async (_name, path, method, accept) => {
    const res = await rawRequest(serve.origin, path, { method, headers: { accept } })
    expect(res.status).toBe(404)
  })
})

describe('serve: stopping', () => {
  it('on SIGINT lets the request in flight finish, refuses new connections and exits 0', async () => {
    const own = await startCliServerHere(['serve', '--port', '0', '--route', `/api=${target.url}`])
    const inFlight = rawRequest(own.origin, '/api/slow?delay=2000')
    // Once the target holds it: the request is in flight for the 2 s it waits.
    await expect.poll(() => seen.some((entry) => entry.url === '/slow?delay=2000')).toBe(true)
    const stopped = own.stop('SIGINT')
    await own.waitFor('SIGINT: stopping, waiting for 1 request in flight')
    await expect(rawRequest(own.origin, '/api/late')).rejects.toThrow(/ECONNREFUSED|ECONNRESET/)
    const res = await inFlight
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toEqual({ url: '/slow?delay=2000' })
    const result = await stopped
    expect(result.code).toBe(0)
    expect(result.signal).toBeNull()
  })

  it('on SIGTERM closes idle keep-alive connections at once and exits 0', async () => {
    const own = await startCliServer(['serve', '--port', '0', '--static', root])
    const { hostname, port } = new URL(own.url)
    const agent = new (await import('node:http')).Agent({ keepAlive: true })
    await new Promise<void>((resolve, reject) => {
      request({ host: hostname, port, path: '/app.js', agent }, (res) => res.resume().on('end', resolve))
        .on('error', reject)
        .end()
    })
    const started = performance.now()
    const result = await own.stop('SIGTERM')
    expect(result.code).toBe(0)
    expect(performance.now() - started).toBeLessThan(2000)
    agent.destroy()
  })
})

describe('serve: run in a process that is not its own', () => {
  it("stops through runCli's stop, taking none of the process's signals and setting no exit code", async () => {
    const listeners = () => [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]
    const before = listeners()
    const own = await startCliServerHere(['serve', '--port', '0', '--mock', '/m'])
    expect(listeners()).toEqual(before)
    expect((await rawRequest(own.origin, '/m/users')).status).toBe(200)
    const result = await own.stop('SIGTERM')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('SIGTERM: stopping')
    expect(listeners()).toEqual(before)
    expect(process.exitCode).toBeUndefined()
  })
})

describe('serve: mistakes', () => {
  it('refuses to start without anything to serve, exit 2', async () => {
    const result = await runCliHere(['serve', '--port', '0'], { cwd: dir })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('nothing to serve')
  })

  it("prints the core's configuration error without a stack trace, exit 2", async () => {
    const result = await runCliHere([
      'serve',
      '--port',
      '0',
      '--route',
      '/api=http://127.0.0.1:1',
      '--cors-origin',
      '*',
      '--cors-credentials',
    ])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("[cors-dev-proxy] options.cors.origin is '*' with `credentials: true`")
    expect(result.stderr).toContain('Set on the command line by: --cors-origin * --cors-credentials')
    expect(result.stderr).toContain('Fix it like this:')
    expect(result.stderr).not.toMatch(/^\s+at /m)
  })

  it.concurrent.each([
    [
      ['--route', '/api'],
      '--route must be PREFIX=TARGET',
      'cors-dev-proxy serve --route /api=http://127.0.0.1:3000',
    ],
    [
      ['--route', 'api=http://x'],
      '--route needs a path prefix that starts with "/"',
      'cors-dev-proxy serve --route /api=http://127.0.0.1:3000',
    ],
    [
      ['--route', '/api=ftp://x'],
      '--route /api= needs an http:, https:, ws: or wss: URL',
      'cors-dev-proxy serve --route',
    ],
    [['--port', '70000'], '--port must be an integer from 0 to 65535', 'cors-dev-proxy serve --port 8080'],
    [['--static', './nope'], '--static ./nope: no such folder', 'cors-dev-proxy serve --static ./dist'],
    [
      ['--cors-origin', 'localhost:5173'],
      '--cors-origin must be an origin',
      'cors-dev-proxy serve --cors-origin http://localhost:5173',
    ],
    [['--log', 'loud'], '--log must be silent, error, warn, info, debug', 'cors-dev-proxy serve --log debug'],
  ])('%j names the flag and shows a correct example, exit 2', async (args, message, example) => {
    const result = await runCliHere(['serve', ...args], { cwd: dir })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(message)
    expect(result.stderr).toContain(`example: ${example}`)
  })

  it('says when the port is taken, exit 1', async () => {
    const result = await runCliHere(['serve', '--port', String(new URL(serve.url).port), '--static', root])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('is already in use: choose another --port, or --port 0 for a free one')
  })
})
