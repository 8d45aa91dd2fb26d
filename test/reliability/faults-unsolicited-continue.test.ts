import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningProxy, serveProxy } from '../support/proxy-server.js'
import { captureLogSink, sendRequest } from '../support/servers.js'
import { answeringTarget, type RawTarget } from './support/raw-target.js'

/**
 * An interim `100 Continue` the request did not ask for (the proxy never sends
 * `Expect: 100-continue`; it strips the client's), then the real answer. Some servers send one
 * before every answer to a POST.
 *
 * A known limitation, recorded here as it is: undici 7's HTTP/1.1 parser destroys the connection
 * when a 100 arrives (`SocketError('bad response')` in `onHeadersComplete`), before any dispatch
 * handler sees an interim or a final answer, so the final answer cannot be relayed. Its issue
 * "HTTP 100 Continue" (nodejs/undici#197) is open and labelled wontfix. Skipping the 100 ourselves
 * would mean parsing every upstream byte stream in front of undici's parser. The docs'
 * "Security and reliability" section says so. What the proxy does is answer 502 with a cause
 * that names the 100 (before, it said "connection closed by the server: check its log", which
 * sent developers to the wrong place), once, without retrying it. If undici learns to skip the
 * 100, these expectations fail and should become the relayed 200.
 */

let target: RawTarget
let proxy: RunningProxy
const sink = captureLogSink()
const heads: string[] = []

beforeAll(async () => {
  target = await answeringTarget((head) => {
    heads.push(head.slice(0, head.indexOf('\r\n')))
    if (head.startsWith('GET /plain ')) return 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nplain'
    return 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok'
  })
  proxy = await serveProxy({ '/api': target.url }, { logger: sink })
})

afterAll(async () => {
  await proxy?.close()
  await target?.close()
})

describe('an unsolicited 100 Continue before the answer', () => {
  it('is answered 502 naming the 100, for a GET (not retried) and a POST', async () => {
    for (const method of ['GET', 'POST']) {
      const res = await sendRequest(`${proxy.url}/api/continue`, {
        method,
        headers: { accept: 'application/json' },
        body: method === 'POST' ? 'payload' : undefined,
      })
      expect(res.status, method).toBe(502)
      expect(JSON.parse(res.body.toString())).toEqual({
        error: 'Bad Gateway',
        target: target.url,
        cause: 'unexpected 100 Continue',
        hint: `the server at ${target.url} sent an interim "100 Continue" the request did not ask for, which the proxy's HTTP client (undici) cannot read past: make the server send only its final answer`,
      })
    }
    // Once each: a target that did answer is never asked twice.
    expect(heads).toEqual(['GET /continue HTTP/1.1', 'POST /continue HTTP/1.1'])
  })

  it('does not disturb the next request; logged once for its cause, then the recovery', async () => {
    const res = await sendRequest(`${proxy.url}/api/plain`)
    expect(res.status).toBe(200)
    expect(res.body.toString()).toBe('plain')
    expect(sink.lines).toEqual([
      {
        level: 'error',
        message: `[cors-dev-proxy] 502 GET /api/continue → ${target.url}: unexpected 100 Continue (the server at ${target.url} sent an interim "100 Continue" the request did not ask for, which the proxy's HTTP client (undici) cannot read past: make the server send only its final answer)`,
      },
      {
        level: 'info',
        message: expect.stringMatching(
          /^\[cors-dev-proxy\] http:\/\/127\.0\.0\.1:\d+ answers again, after 2 failed requests in \d+ s$/,
        ),
      },
    ])
  })
})
