import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { type CorsDevProxyOptions, createCorsDevProxy, type Routes } from '@cors-dev-proxy/core'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { collectBody, listen, sendRequest } from '../support/servers.js'

// The recipes of the docs' Recipes page (docs/recipes.md), run as they are written there: each `// cors-dev-proxy` block is evaluated with its localhost targets
// pointed at real test servers, then checked for what the recipe promises.

const page = readFileSync(new URL('../../docs/recipes.md', import.meta.url), 'utf8')

/** Every recipe: its title and the source of its `// cors-dev-proxy` block. */
function recipes(): Map<string, string> {
  const found = new Map<string, string>()
  for (const part of page.split('\n## ').slice(1)) {
    const title = part.slice(0, part.indexOf('\n')).trim()
    const block = /```js\n\/\/ cors-dev-proxy\n([\s\S]*?)```/.exec(part)?.[1]
    if (block !== undefined) found.set(title.charAt(0).toLowerCase() + title.slice(1), block)
  }
  return found
}

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
  vi.restoreAllMocks()
})

/** A backend that answers JSON describing the request, tagged with its name. */
async function backend(name: string) {
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    await collectBody(req)
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ name, url: req.url, authorization: req.headers.authorization ?? null }))
  })
  const started = await listen(server)
  cleanup.push(started.close)
  return started
}

/**
 * Runs a recipe's block against real servers: `localhost:3000` and `localhost:3001` become two
 * test backends, `corsDevProxy(...)` becomes the core proxy behind a dev server whose own
 * answer is `dev server <url>`.
 */
async function runRecipe(title: string) {
  const source = recipes().get(title)
  if (source === undefined) throw new Error(`no recipe "${title}" on the Recipes page`)
  const main = await backend('main')
  const beta = await backend('beta')
  const code = source
    .replaceAll('http://localhost:3000', main.url)
    .replaceAll('http://localhost:3001', beta.url)
  let proxy: ReturnType<typeof createCorsDevProxy> | undefined
  const corsDevProxy = (routes: Routes, options?: CorsDevProxyOptions) => {
    proxy = createCorsDevProxy(routes, { log: 'silent', ...options })
  }
  new Function('corsDevProxy', code)(corsDevProxy)
  if (proxy === undefined) throw new Error(`recipe "${title}" did not call corsDevProxy()`)
  const engine = proxy
  const server = await listen(
    createServer((req, res) =>
      engine.middleware(req, res, () => {
        res.statusCode = 299
        res.end(`dev server ${req.url}`)
      }),
    ),
  )
  cleanup.push(async () => {
    await engine.close()
    await server.close()
  })
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await sendRequest(`${server.url}${path}`, { headers })
    return { status: res.status, text: res.body.toString() }
  }
  return { get }
}

describe('the Recipes page, for moving a config over', () => {
  it('are all there, each with a cors-dev-proxy block', () => {
    expect([...recipes().keys()]).toEqual([
      'an auth header on every request',
      'logging every answer',
      'a backend per tenant',
      'rewriting a JSON answer',
      "a single-page app's deep links",
    ])
  })

  it('an auth header on every request', async () => {
    const { get } = await runRecipe('an auth header on every request')
    expect(JSON.parse((await get('/api/users')).text)).toMatchObject({
      url: '/users',
      authorization: 'Bearer dev-token',
    })
  })

  it('logging every answer', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
    const { get } = await runRecipe('logging every answer')
    await get('/api/users?x=1')
    expect(log).toHaveBeenCalledWith('GET', '/api/users?x=1', 200)
  })

  it('a backend per tenant', async () => {
    const { get } = await runRecipe('a backend per tenant')
    expect(JSON.parse((await get('/api/x', { 'x-tenant': 'beta' })).text).name).toBe('beta')
    expect(JSON.parse((await get('/api/x')).text).name).toBe('main')
  })

  it('rewriting a JSON answer', async () => {
    const { get } = await runRecipe('rewriting a JSON answer')
    expect(JSON.parse((await get('/api/x')).text)).toMatchObject({ name: 'main', url: '/x', env: 'dev' })
  })

  it("a single-page app's deep links", async () => {
    const { get } = await runRecipe("a single-page app's deep links")
    expect(await get('/app/settings/profile', { accept: 'text/html' })).toEqual({
      status: 299,
      text: 'dev server /index.html',
    })
    expect(JSON.parse((await get('/app/data', { accept: 'application/json' })).text)).toMatchObject({
      url: '/data',
    })
  })
})
