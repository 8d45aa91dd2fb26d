import { createServer } from 'node:http'
import { Pool } from 'undici'
import { afterEach, describe, expect, it } from 'vitest'
import { listen } from '../../../../test/support/servers.js'
import { ClientAbort } from '../../src/forward/client-abort.js'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

describe('ClientAbort', () => {
  it('calls its listener once, and not after removeListener', () => {
    const calls: string[] = []
    const first = new ClientAbort()
    first.once('abort', () => calls.push('first'))
    first.abort()
    first.abort()
    const second = new ClientAbort()
    const listener = () => calls.push('second')
    second.on('abort', listener)
    second.removeListener('abort', listener)
    second.abort()
    expect(calls).toEqual(['first'])
    expect([first.aborted, second.aborted]).toEqual([true, true])
  })

  it('is accepted by undici as a signal and aborts a pending request', async () => {
    let closed!: Promise<void>
    const target = await listen(
      createServer((_req, res) => {
        closed = new Promise((resolve) => res.once('close', resolve))
        abort.abort()
      }),
    )
    cleanup.push(target.close)
    const pool = new Pool(target.url)
    cleanup.push(() => pool.destroy())
    const abort = new ClientAbort()
    await expect(pool.request({ path: '/', method: 'GET', signal: abort.signal })).rejects.toMatchObject({
      code: 'UND_ERR_ABORTED',
    })
    await closed
  })

  it('stops a request that starts after the client already went away', async () => {
    const seen: string[] = []
    const target = await listen(
      createServer((req, res) => {
        seen.push(req.url ?? '')
        res.end()
      }),
    )
    cleanup.push(target.close)
    const pool = new Pool(target.url)
    cleanup.push(() => pool.destroy())
    const abort = new ClientAbort()
    abort.abort()
    await expect(pool.request({ path: '/late', method: 'GET', signal: abort.signal })).rejects.toMatchObject({
      code: 'UND_ERR_ABORTED',
    })
    expect(seen).toEqual([])
  })
})
