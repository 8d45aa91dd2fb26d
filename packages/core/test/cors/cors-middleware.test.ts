import { createServer as createHttpServer } from 'node:http'
import { connect, constants, createServer, type Http2Server } from 'node:http2'
import type { AddressInfo } from 'node:net'
import connectApp from 'connect'
import { Agent, request } from 'undici'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import {
  type RunningServer,
  serveMiddleware,
  type TestMiddleware,
} from '../../../../test/support/connect-server.js'
import type { CorsOptions } from '../../src/config/cors-options.js'
import { createCorsMiddleware } from '../../src/cors/cors-middleware.js'

const LOCAL = 'http://localhost:5173'
const agent = new Agent()
const servers: RunningServer[] = []

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})
afterAll(() => agent.close())

async function serve(
  options?: CorsOptions,
  handler?: Parameters<typeof serveMiddleware>[1],
): Promise<string> {
  const server = await serveMiddleware(
    createCorsMiddleware(options, { warn: () => {} }) as TestMiddleware,
    handler,
  )
  servers.push(server)
  return server.url
}

async function send(url: string, method: string, headers: Record<string, string>) {
  const res = await request(url, { method, headers, dispatcher: agent })
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() }
}

const PREFLIGHT = { origin: LOCAL, 'access-control-request-method': 'PUT' }

describe('origin functions', () => {
  it.each([
    ['returns a value', ((origin) => origin === LOCAL) as CorsOptions['origin']],
    ['returns a promise', (async (origin: string | undefined) => origin === LOCAL) as CorsOptions['origin']],
    [
      'calls back later',
      ((origin, callback) => {
        setImmediate(() => callback(null, origin === LOCAL))
      }) as CorsOptions['origin'],
    ],
  ])('a function that %s decides per request', async (_name, origin) => {
    const url = await serve({ origin })
    const allowed = await send(url, 'GET', { origin: LOCAL })
    expect(allowed.headers['access-control-allow-origin']).toBe(LOCAL)
    expect(allowed.body).toBe('handler GET')
    const refused = await send(url, 'GET', { origin: 'https://evil.test' })
    expect(refused.headers['access-control-allow-origin']).toBeUndefined()
    expect(refused.headers.vary).toBe('Origin')
  })

  it('passes an error of the function on to next', async () => {
    const url = await serve({ origin: (_origin, callback) => callback(new Error('origin lookup failed')) })
    expect(await send(url, 'GET', { origin: LOCAL })).toMatchObject({
      status: 500,
      body: 'error: origin lookup failed',
    })
    const rejecting = await serve({ origin: () => Promise.reject(new Error('nope')) })
    expect(await send(rejecting, 'OPTIONS', PREFLIGHT)).toMatchObject({ status: 500, body: 'error: nope' })
    const throwing = await serve({
      origin: () => {
        throw new Error('thrown')
      },
    })
    expect(await send(throwing, 'GET', { origin: LOCAL })).toMatchObject({
      status: 500,
      body: 'error: thrown',
    })
  })

  it('sends a string answer only when it is the request origin', async () => {
    const url = await serve({ origin: () => LOCAL })
    expect((await send(url, 'GET', { origin: LOCAL })).headers['access-control-allow-origin']).toBe(LOCAL)
    expect(
      (await send(url, 'GET', { origin: 'http://127.0.0.1:1' })).headers['access-control-allow-origin'],
    ).toBeUndefined()
  })
})

describe('answers', () => {
  it('answers a preflight 204 without Content-Length (RFC 9110) and never reaches the handler', async () => {
    const url = await serve({ credentials: true, maxAge: 60, exposedHeaders: ['x-total'] })
    const res = await send(url, 'OPTIONS', { ...PREFLIGHT, 'access-control-request-headers': 'content-type' })
    expect(res.status).toBe(204)
    expect(res.body).toBe('')
    expect(res.headers).toMatchObject({
      'access-control-allow-origin': LOCAL,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
      'access-control-allow-headers': 'content-type',
      'access-control-max-age': '60',
      vary: 'Origin, Access-Control-Request-Headers',
    })
    expect(res.headers['content-length']).toBeUndefined()
    expect(res.headers['transfer-encoding']).toBeUndefined()
  })

  it('answers optionsSuccessStatus 200 with Content-Length 0, so the client expects no body', async () => {
    const url = await serve({ optionsSuccessStatus: 200 })
    const res = await send(url, 'OPTIONS', PREFLIGHT)
    expect(res.status).toBe(200)
    expect(res.body).toBe('')
    expect(res.headers['content-length']).toBe('0')
  })

  it('adds the headers to every answer, errors included', async () => {
    const url = await serve({ credentials: true, exposedHeaders: 'x-total' }, (_req, res) => {
      res.statusCode = 502
      res.end('bad gateway')
    })
    const res = await send(url, 'DELETE', { origin: LOCAL })
    expect(res.status).toBe(502)
    expect(res.headers).toMatchObject({
      'access-control-allow-origin': LOCAL,
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'x-total',
    })
    expect(res.headers.vary).toBe('Origin')
  })

  it('keeps an earlier Vary and adds Origin once', async () => {
    const server = await serveMiddleware((req, res, next) => {
      res.setHeader('vary', 'accept-encoding, origin')
      ;(createCorsMiddleware() as TestMiddleware)(req, res, next)
    })
    servers.push(server)
    const res = await send(server.url, 'OPTIONS', PREFLIGHT)
    expect(res.headers.vary).toBe('accept-encoding, origin, Access-Control-Request-Headers')
  })

  it('with preflightContinue, passes the preflight on after adding the headers', async () => {
    const url = await serve({ preflightContinue: true })
    const res = await send(url, 'OPTIONS', PREFLIGHT)
    expect(res).toMatchObject({ status: 200, body: 'handler OPTIONS' })
    expect(res.headers['access-control-allow-methods']).toBe('GET,HEAD,PUT,PATCH,POST,DELETE')
  })

  it('normalizes configured origins', async () => {
    const url = await serve({ origin: ['HTTP://LocalHost:5173', 'http://127.0.0.1:80'] })
    expect((await send(url, 'GET', { origin: LOCAL })).headers['access-control-allow-origin']).toBe(LOCAL)
    expect(
      (await send(url, 'GET', { origin: 'http://127.0.0.1' })).headers['access-control-allow-origin'],
    ).toBe('http://127.0.0.1')
  })

  it('strips g and y from RegExps so that test() does not alternate between requests', async () => {
    const url = await serve({ origin: /localhost/g })
    for (let i = 0; i < 3; i++) {
      expect((await send(url, 'GET', { origin: LOCAL })).headers['access-control-allow-origin']).toBe(LOCAL)
    }
  })
})

describe('HTTP/2 (compat API)', () => {
  let h2: Http2Server | undefined
  afterEach(async () => {
    await new Promise((resolve) => (h2 ? h2.close(resolve) : resolve(undefined)))
    h2 = undefined
  })

  it('answers a preflight and decorates an answer', async () => {
    const middleware = createCorsMiddleware({ credentials: true })
    h2 = createServer((req, res) => {
      middleware(req, res, () => {
        res.statusCode = 200
        res.end('h2 ok')
      })
    })
    await new Promise<void>((resolve) => h2!.listen(0, '127.0.0.1', resolve))
    const session = connect(`http://127.0.0.1:${(h2.address() as AddressInfo).port}`)
    const exchange = (headers: Record<string, string>) =>
      new Promise<{ headers: Record<string, unknown>; body: string }>((resolve, reject) => {
        const stream = session.request({ ':path': '/x', ...headers })
        let body = ''
        let responseHeaders: Record<string, unknown> = {}
        stream.on('response', (h) => {
          responseHeaders = h
        })
        stream.setEncoding('utf8')
        stream.on('data', (chunk: string) => {
          body += chunk
        })
        stream.on('end', () => resolve({ headers: responseHeaders, body }))
        stream.on('error', reject)
        stream.end()
      })
    try {
      const preflight = await exchange({ ':method': 'OPTIONS', ...PREFLIGHT })
      expect(preflight.headers[constants.HTTP2_HEADER_STATUS]).toBe(204)
      expect(preflight.headers['access-control-allow-origin']).toBe(LOCAL)
      const get = await exchange({ ':method': 'GET', origin: LOCAL })
      expect(get.body).toBe('h2 ok')
      expect(get.headers['access-control-allow-credentials']).toBe('true')
    } finally {
      session.close()
    }
  })
})

describe('in a real connect app', () => {
  /** Serves a connect app on 127.0.0.1, port 0, closed after the test; resolves with its base URL. */
  async function serveApp(app: connectApp.Server): Promise<string> {
    const server = createHttpServer(app)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    servers.push({
      server,
      url,
      close() {
        server.closeAllConnections()
        return new Promise((resolve) => server.close(() => resolve()))
      },
    })
    return url
  }

  it('answers preflights before the routes and decorates their answers, mounted app-wide or on a path', async () => {
    const app = connectApp()
    app.use('/api', createCorsMiddleware({ credentials: true, allowedHeaders: ['content-type'] }))
    app.use('/api', (req, res) => {
      res.setHeader('content-type', 'text/plain')
      res.end(`api ${req.method} ${req.url}`)
    })
    app.use((_req, res) => {
      res.statusCode = 404
      res.end('no route')
    })
    const base = await serveApp(app)
    const preflight = await send(`${base}/api/items`, 'OPTIONS', PREFLIGHT)
    expect(preflight).toMatchObject({ status: 204, body: '' })
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': LOCAL,
      'access-control-allow-credentials': 'true',
      'access-control-allow-headers': 'content-type',
      vary: 'Origin',
    })
    const put = await send(`${base}/api/items`, 'PUT', { origin: LOCAL })
    expect(put).toMatchObject({ status: 200, body: 'api PUT /items' })
    expect(put.headers['access-control-allow-origin']).toBe(LOCAL)
    // Outside the mount point the middleware never runs.
    const outside = await send(`${base}/other`, 'OPTIONS', PREFLIGHT)
    expect(outside).toMatchObject({ status: 404, body: 'no route' })
    expect(outside.headers['access-control-allow-origin']).toBeUndefined()
  })

  it("hands an origin function's error to connect's error handling", async () => {
    const app = connectApp()
    app.use(
      createCorsMiddleware({ origin: (): Promise<boolean> => Promise.reject(new Error('registry down')) }),
    )
    app.use((_req, res) => res.end('unreachable'))
    app.use(
      (error: Error, _req: unknown, res: { statusCode: number; end(body: string): void }, _next: unknown) => {
        res.statusCode = 503
        res.end(`handled: ${error.message}`)
      },
    )
    const res = await send(`${await serveApp(app)}/x`, 'GET', { origin: LOCAL })
    expect(res).toMatchObject({ status: 503, body: 'handled: registry down' })
  })
})
