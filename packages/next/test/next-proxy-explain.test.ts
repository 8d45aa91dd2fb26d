import { afterEach, describe, expect, it } from 'vitest'
import { createNextProxy, type NextProxyHandler } from '../src/create-next-proxy.js'

const ORIGIN = 'http://localhost:3000'
let proxy: NextProxyHandler | undefined
afterEach(async () => {
  await proxy?.handler.close()
})

describe("the overlay's explanation of a failed WebSocket under proxy.ts", () => {
  it('never suggests ws: true there (refused): the route goes to the custom server', async () => {
    proxy = createNextProxy({ '/x': 'http://localhost:3001' }, { log: 'silent' })
    const answer = await proxy(
      new Request(`${ORIGIN}/__cors-dev-proxy/explain`, {
        method: 'POST',
        headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
        body: JSON.stringify({
          url: 'ws://localhost:3000/x/echo',
          method: 'GET',
          headers: [],
          credentials: 'include',
          initiator: 'WebSocket',
        }),
      }),
    )
    expect(answer?.status).toBe(200)
    const explanation = (await answer?.json()) as { cause: string; routeWhere?: string }
    expect(explanation.cause).toContain("Next's proxy.ts never sees a WebSocket upgrade")
    expect(explanation.cause).not.toContain('need `ws: true` on it')
    expect(explanation.routeWhere).toContain('createNextServer')
  })
})
