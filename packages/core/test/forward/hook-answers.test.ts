// Whatever a hook does with the response, it is never written again: a `bypass`, `proxyReq`,
// `proxyRes` or `transformResponse` that answered the request itself keeps its answer, and the
// dev server behind the proxy (here a `next` that writes, as Vite's later middlewares do) never
// gets a request already answered. Writing after the end is ERR_STREAM_WRITE_AFTER_END, an
// uncaught error that ended the dev server's process; vitest fails the run on any such error.
import { createServer, type Server, type ServerResponse } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { captureLogSink, listen, type StartedServer, sendRequest } from '../../../../test/support/servers.js'
import { type CorsDevProxy, createCorsDevProxy, type ProxyResponse, type Routes } from '../../src/index.js'

let target: StartedServer<Server>
let front: StartedServer<Server>
let proxy: CorsDevProxy
const sink = captureLogSink()
const reachedTarget: string[] = []
const reachedNext: string[] = []

const answer = (res: ServerResponse, text: string) => {
  res.writeHead(200, { 'content-type': 'text/plain' })
  res.end(text)
}

beforeAll(async () => {
  target = await listen(
    createServer((req, res) => {
      reachedTarget.push(req.url ?? '')
      req.resume()
      res.end('from the target')
    }),
  )
  const routes: Routes = {
    '/bypass-path': {
      target: target.url,
      bypass: (_req: unknown, res: ProxyResponse | undefined) => {
        if (res) answer(res as ServerResponse, 'answered by bypass')
        return '/index.html'
      },
    },
    '/bypass-false': {
      target: target.url,
      bypass: (_req: unknown, res: ProxyResponse | undefined) => {
        if (res) answer(res as ServerResponse, 'answered by bypass')
        return false
      },
    },
    '/bypass-async': {
      target: target.url,
      bypass: async (_req: unknown, res: ProxyResponse | undefined) => {
        await new Promise((resolve) => setTimeout(resolve, 5))
        if (res) answer(res as ServerResponse, 'answered by async bypass')
        return '/index.html'
      },
    },
    '/proxy-req': {
      target: target.url,
      on: { proxyReq: (_proxyReq, _req, res) => answer(res as ServerResponse, 'answered by proxyReq') },
    },
    '/proxy-res': {
      target: target.url,
      on: { proxyRes: (_proxyRes, _req, res) => answer(res as ServerResponse, 'answered by proxyRes') },
    },
    '/transform': {
      target: target.url,
      transformResponse: (body, _proxyRes, _req, res) => {
        answer(res as ServerResponse, 'answered by transformResponse')
        return body
      },
    },
    '/throws-after-answer': {
      target: target.url,
      on: {
        proxyRes: (_proxyRes, _req, res) => {
          answer(res as ServerResponse, 'answered, then threw')
          throw new Error('late failure')
        },
      },
    },
  }
  proxy = createCorsDevProxy(routes, { logger: sink })
  // The dev server's next middleware writes its own answer, as Vite's static files do.
  front = await listen(
    createServer((req, res) =>
      proxy.middleware(req, res, () => {
        reachedNext.push(req.url ?? '')
        res.end('from the dev server')
      }),
    ),
  )
})

afterAll(async () => {
  await proxy?.close()
  await front?.close()
  await target?.close()
})

describe('a hook that answered the request itself', () => {
  it.each([
    ['/bypass-path/x', 'answered by bypass'],
    ['/bypass-false/x', 'answered by bypass'],
    ['/bypass-async/x', 'answered by async bypass'],
  ])('%s: the bypass’s answer stands, nothing else writes', async (url, text) => {
    const res = await sendRequest(`${front.url}${url}`)
    expect(res.status).toBe(200)
    expect(res.body.toString()).toBe(text)
    expect(reachedNext).not.toContain(url)
    expect(reachedNext).not.toContain('/index.html')
    expect(reachedTarget).not.toContain('/x')
  })

  it.each([
    ['/proxy-req/a', 'answered by proxyReq'],
    ['/proxy-res/b', 'answered by proxyRes'],
    ['/transform/c', 'answered by transformResponse'],
    ['/throws-after-answer/d', 'answered, then threw'],
  ])('%s: the hook’s answer stands', async (url, text) => {
    const res = await sendRequest(`${front.url}${url}`, { method: 'POST', body: 'payload' })
    expect(res.status).toBe(200)
    expect(res.body.toString()).toBe(text)
  })

  it('a proxyReq hook that answered keeps the request from the target', async () => {
    await sendRequest(`${front.url}/proxy-req/kept-back`)
    expect(reachedTarget).not.toContain('/kept-back')
  })

  it('a hook that threw after answering is logged once, the answer left alone', async () => {
    for (let i = 0; i < 3; i++) await sendRequest(`${front.url}/throws-after-answer/n${i}`)
    const lines = sink.lines.filter((line) => line.message.includes('late failure'))
    expect(lines).toHaveLength(1)
  })

  it('the dev server is still up', async () => {
    const res = await sendRequest(`${front.url}/elsewhere`)
    expect(res.body.toString()).toBe('from the dev server')
  })
})
