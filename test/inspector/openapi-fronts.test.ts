// Test project: integration (starts Vite)
import { createServer } from 'node:http'
import { fileURLToPath } from 'node:url'
import type { CorsDevProxyOptions, Routes } from '@cors-dev-proxy/core'
import { createCorsDevProxy } from '@cors-dev-proxy/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startVite } from '../adapters/vite-server.ts'
import { listen } from '../support/servers.ts'
import { startFetchApp } from './fetch-app.ts'

/**
 * One assembly, every front end: a route with `openapi` behind createCorsDevProxy's middleware,
 * the Vite plugin and the Fetch handler finds the same violations in the same exchanges, because
 * the check is a step of the route's backend that every front end builds the same way.
 */

const PETSTORE = fileURLToPath(
  new URL('../../packages/core/test/contract/fixtures/petstore-3.0.yaml', import.meta.url),
)

/** A required field missing, a field of the wrong type, an undeclared status, and one clean answer. */
const ANSWERS: Record<string, [number, string]> = {
  '/v1/pets/1': [200, '{"id":1}'],
  '/v1/pets/2': [200, '{"id":2,"name":5}'],
  '/v1/pets/3': [500, '{"title":"boom"}'],
  '/v1/pets/mine': [200, '[]'],
}

interface Front {
  readonly origin: string
  close(): Promise<void>
}

async function startNodeMiddleware(routes: Routes, options: CorsDevProxyOptions): Promise<Front> {
  const proxy = createCorsDevProxy(routes, { log: 'silent', ...options })
  const listening = await listen(
    createServer((req, res) => proxy.middleware(req, res, () => res.writeHead(404).end())),
  )
  return {
    origin: listening.url,
    async close() {
      await listening.close()
      await proxy.close()
    },
  }
}

const FRONTS: readonly [string, (routes: Routes, options: CorsDevProxyOptions) => Promise<Front>][] = [
  ["createCorsDevProxy's middleware", startNodeMiddleware],
  ['Vite', (routes, options) => startVite({ routes, options: { log: 'silent', ...options } })],
  ['the Fetch handler', (routes, options) => startFetchApp(routes, options)],
]

const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' }

let backend: { url: string; close(): Promise<unknown> }
beforeAll(async () => {
  backend = await listen(
    createServer((req, res) => {
      const [status, body] = ANSWERS[req.url ?? ''] ?? [404, '']
      res.writeHead(status, { 'content-type': 'application/json' }).end(body)
    }),
  )
})
afterAll(async () => {
  await backend.close()
})

interface Viewed {
  url: string
  violations?: { in: string; operation: string; pointer: string }[]
}

describe.each(FRONTS)('a route with openapi behind %s', (_name, start) => {
  test('finds the three violations, and none in the clean exchange', async () => {
    const front = await start(
      { '/api': { target: `${backend.url}/v1`, openapi: PETSTORE } },
      { inspector: true },
    )
    try {
      for (const path of ['/api/pets/1', '/api/pets/2', '/api/pets/3', '/api/pets/mine']) {
        const answer = await fetch(`${front.origin}${path}`, { headers: SAME_ORIGIN })
        expect(answer.status).toBe(ANSWERS[path.replace('/api', '/v1')]?.[0])
        await answer.arrayBuffer()
      }
      let list: Viewed[] = []
      for (let attempt = 0; attempt < 200; attempt += 1) {
        const all = (await (
          await fetch(`${front.origin}/__cors-dev-proxy/exchanges`, { headers: SAME_ORIGIN })
        ).json()) as Viewed[]
        list = all.filter((one) => one.url.startsWith('/api/'))
        if (list.length === 4 && list.every((one) => one.violations !== undefined)) break
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      expect(
        Object.fromEntries(
          list.map((one) => [one.url, one.violations?.map((v) => `${v.in} ${v.operation} ${v.pointer}`)]),
        ),
      ).toEqual({
        '/api/pets/1': ['response GET /pets/{petId} '],
        '/api/pets/2': ['response GET /pets/{petId} /name'],
        '/api/pets/3': ['response GET /pets/{petId} status'],
        '/api/pets/mine': [],
      })
      const har = (await (
        await fetch(`${front.origin}/__cors-dev-proxy/har`, { headers: SAME_ORIGIN })
      ).json()) as {
        log: { entries: { _violations?: unknown[] }[] }
      }
      expect(har.log.entries.map((entry) => entry._violations?.length)).toEqual([1, 1, 1, 0])
      const distinct = await fetch(`${front.origin}/__cors-dev-proxy/violations`, { headers: SAME_ORIGIN })
      expect(((await distinct.json()) as unknown[]).length).toBe(3)
    } finally {
      await front.close()
    }
  })
})
