import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { Agent, createServer, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../../test/support/proxy-server.js'
import { collectBody, listen, sendRequest } from '../../../../../test/support/servers.js'

/*
 * A request retried on a fresh connection is recorded once: by the proxy (the target closed the
 * kept-alive connection under it) or by the client (its kept-alive connection died before it read
 * the answer, and it sent the request again). Real servers on 127.0.0.1 port 0.
 */

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cdp-once-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function answersOf(prefix: string): Promise<number> {
  const files = await readdir(join(dir, 'api'))
  const name = files.find((file) => file.startsWith(prefix)) as string
  return (JSON.parse(await readFile(join(dir, 'api', name), 'utf8')) as { answers: unknown[] }).answers.length
}

/** A GET through a kept-alive agent whose connection the client destroys as soon as the head arrives. */
function sendAndDrop(url: string, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      res.socket.destroy()
      resolve()
    })
    req.once('error', reject)
    req.end()
  })
}

async function sendWith(url: string, agent: Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      collectBody(res).then((body) => resolve(body.toString()), reject)
    })
    req.once('error', reject)
    req.end()
  })
}

describe('one logical exchange, one recorded answer', () => {
  it('records a request once when the target closed its kept-alive connection and the proxy sent it again', async () => {
    let handled = 0
    const perSocket = new WeakMap<object, number>()
    const target = await listen(
      createServer((req, res) => {
        handled++
        const n = (perSocket.get(req.socket) ?? 0) + 1
        perSocket.set(req.socket, n)
        // The second request on a kept-alive connection: the connection is closed under it.
        if (n === 2) return void req.socket.destroy()
        res.setHeader('content-type', 'application/json')
        res.end('{"items":[]}')
      }),
    )
    const proxy = await serveProxy(
      { '/api': { target: target.url, record: true } },
      { log: 'silent', recordings: { dir } },
    )
    expect((await sendRequest(`${proxy.url}/api/items`)).status).toBe(200)
    expect((await sendRequest(`${proxy.url}/api/items`)).status).toBe(200)
    await proxy.close()
    await target.close()
    expect(handled).toBe(3)
    expect(await answersOf('GET-items.')).toBe(2)
  })

  it('records a request once when the client re-sent it on a fresh connection', async () => {
    const target = await listen(createServer((_req, res) => res.end('{"items":[]}')))
    const proxy = await serveProxy(
      { '/api': { target: target.url, record: true } },
      { log: 'silent', recordings: { dir } },
    )
    const agent = new Agent({ keepAlive: true })
    await sendAndDrop(`${proxy.url}/api/items`, agent)
    // The proxy sees the first connection closed before the copy comes.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(await sendWith(`${proxy.url}/api/items`, agent)).toBe('{"items":[]}')
    agent.destroy()
    await proxy.close()
    await target.close()
    expect(await answersOf('GET-items.')).toBe(1)
  })

  it('records each call of a client polling on one kept-alive connection, the same answer each time', async () => {
    const target = await listen(createServer((_req, res) => res.end('{"items":[]}')))
    const proxy = await serveProxy(
      { '/api': { target: target.url, record: true } },
      { log: 'silent', recordings: { dir } },
    )
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    for (let i = 0; i < 3; i++) await sendWith(`${proxy.url}/api/items`, agent)
    agent.destroy()
    await proxy.close()
    await target.close()
    expect(await answersOf('GET-items.')).toBe(3)
  })
})
