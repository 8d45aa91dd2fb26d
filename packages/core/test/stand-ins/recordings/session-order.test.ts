import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../../test/support/proxy-server.js'
import { listen, sendRequest } from '../../../../../test/support/servers.js'
import { postItem, recordingsFolderPerTest, statefulBackend } from './stateful-backend.js'

/*
 * Replay follows the recorded session: a session recorded against a backend with state (list,
 * list, create, list, delete, list), then replayed with `replay: 'only'` in another order and
 * with repeats, gives the answers the state calls for. Real servers on 127.0.0.1 port 0.
 */

const recordingsDir = recordingsFolderPerTest('cdp-session-')

async function record(calls: readonly [string, string, object?][]): Promise<void> {
  const target = await listen(statefulBackend().server)
  const proxy = await serveProxy(
    { '/api': { target: target.url, record: true } },
    { log: 'silent', recordings: { dir: recordingsDir() } },
  )
  for (const [method, path, init] of calls) await sendRequest(`${proxy.url}${path}`, { method, ...init })
  await proxy.close()
  await target.close()
}

async function replaying() {
  return serveProxy(
    { '/api': { target: 'http://127.0.0.1:9', replay: 'only' } },
    { log: 'silent', recordings: { dir: recordingsDir() } },
  )
}

async function names(url: string): Promise<string[]> {
  const answer = await sendRequest(url)
  return (JSON.parse(answer.body.toString()) as { items: { name: string }[] }).items.map((item) => item.name)
}

async function allSeqs(): Promise<number[]> {
  const seqs: number[] = []
  for (const name of await readdir(join(recordingsDir(), 'api'))) {
    const file = JSON.parse(await readFile(join(recordingsDir(), 'api', name), 'utf8')) as {
      answers: { seq: number }[]
    }
    seqs.push(...file.answers.map((answer) => answer.seq))
  }
  return seqs.sort((a, b) => a - b)
}

const SESSION: [string, string, object?][] = [
  ['GET', '/api/items'],
  ['GET', '/api/items'],
  ['POST', '/api/items', postItem('ada')],
  ['GET', '/api/items'],
  ['DELETE', '/api/items/1'],
  ['GET', '/api/items'],
]

describe('replay in session order', () => {
  it('numbers every answer of the route once, in the order recorded, across files', async () => {
    await record(SESSION)
    expect(await allSeqs()).toEqual([1, 2, 3, 4, 5, 6])
    const file = (await readdir(join(recordingsDir(), 'api'))).find((name) =>
      name.startsWith('POST-'),
    ) as string
    expect(JSON.parse(await readFile(join(recordingsDir(), 'api', file), 'utf8')).version).toBe(3)
  })

  it('continues after the highest number on disk in a later recording run', async () => {
    await record(SESSION)
    await record([['GET', '/api/items']])
    expect(await allSeqs()).toEqual([1, 2, 3, 4, 5, 6, 7])
  })

  it('gives the list the state calls for: empty before the create, the item after it, none after the delete', async () => {
    await record(SESSION)
    const proxy = await replaying()
    const url = `${proxy.url}/api/items`
    for (let i = 0; i < 4; i++) expect(await names(url)).toEqual([])
    expect((await sendRequest(url, postItem('ada'))).status).toBe(201)
    expect(await names(url)).toEqual(['ada'])
    expect(await names(url)).toEqual(['ada'])
    expect((await sendRequest(`${url}/1`, { method: 'DELETE' })).status).toBe(204)
    expect(await names(url)).toEqual([])
    expect(await names(url)).toEqual([])
    await proxy.close()
  })

  it('starts the session over with each start of the proxy', async () => {
    await record(SESSION)
    let proxy = await replaying()
    await sendRequest(`${proxy.url}/api/items`, postItem('ada'))
    expect(await names(`${proxy.url}/api/items`)).toEqual(['ada'])
    await proxy.close()
    proxy = await replaying()
    expect(await names(`${proxy.url}/api/items`)).toEqual([])
    await proxy.close()
  })

  it('replays a file of version 2 (no sequence numbers) as before: in order, then the last', async () => {
    await record(SESSION)
    const folder = join(recordingsDir(), 'api')
    for (const name of await readdir(folder)) {
      const file = JSON.parse(await readFile(join(folder, name), 'utf8'))
      file.version = 2
      for (const answer of file.answers) delete answer.seq
      await writeFile(join(folder, name), JSON.stringify(file))
    }
    const proxy = await replaying()
    const url = `${proxy.url}/api/items`
    expect(await names(url)).toEqual([])
    expect(await names(url)).toEqual([])
    expect(await names(url)).toEqual(['ada'])
    expect(await names(url)).toEqual([])
    expect(await names(url)).toEqual([])
    await proxy.close()
  })
})
