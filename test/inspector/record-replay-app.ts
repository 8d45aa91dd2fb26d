import { createServer, type IncomingMessage, type Server } from 'node:http'
import { startBareDevServer } from '../support/bare-dev-server.ts'
import { listen } from '../support/servers.ts'

/*
 * The pieces the record/replay browser tests share: a backend with a login (a password in the
 * body, a session cookie back), CRUD behind `Authorization` and that cookie, an event stream and
 * a GraphQL endpoint; a bare dev server on `createDevServerProxy` (the set-up every adapter
 * shares) whose page runs one scenario against them.
 */

/** The secrets the scenario sends or receives: none may reach a recording. */
export const SECRETS = {
  token: 'tok-7f3a9c1e55d2',
  password: 'pw-hunter2-8812',
  session: 'sess-0c9b4e77aa01',
} as const

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (text += chunk))
    req.on('end', () => resolve(text))
    req.on('error', reject)
  })
}

/** The backend: `/login`, `/items` (CRUD), `/events` (three events, then the end), `/graphql`. */
export function startRecordBackend() {
  const items = new Map<number, { id: number; name: string }>([[1, { id: 1, name: 'first' }]])
  let nextId = 2
  const server: Server = createServer(async (req, res) => {
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers })
      res.end(JSON.stringify(value))
    }
    const body = await readBody(req)
    const url = new URL(req.url ?? '/', 'http://backend')
    if (url.pathname === '/login' && req.method === 'POST') {
      const { user, password } = JSON.parse(body) as { user: string; password: string }
      if (password !== SECRETS.password) return json(401, { error: 'wrong password' })
      return json(200, { user }, { 'set-cookie': `sid=${SECRETS.session}; Path=/; HttpOnly` })
    }
    if (url.pathname === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      let n = 0
      const timer = setInterval(() => {
        n++
        res.write(`id: ${n}\ndata: ${JSON.stringify({ tick: n })}\n\n`)
        if (n === 3) {
          clearInterval(timer)
          res.end()
        }
      }, 30)
      res.on('close', () => clearInterval(timer))
      return
    }
    if (url.pathname === '/graphql' && req.method === 'POST') {
      const { operationName, variables } = JSON.parse(body) as {
        operationName: string
        variables: { first: number }
      }
      const names = [...items.values()].slice(0, variables.first).map((item) => ({ name: item.name }))
      return json(200, { data: { items: names }, extensions: { operationName } })
    }
    // CRUD: only with the token and the session cookie, as a real API would ask.
    const authorized =
      req.headers.authorization === `Bearer ${SECRETS.token}` &&
      (req.headers.cookie ?? '').includes(`sid=${SECRETS.session}`)
    if (!authorized) return json(401, { error: 'log in first' })
    const id = Number(url.pathname.split('/')[2])
    if (url.pathname === '/items' && req.method === 'GET') return json(200, [...items.values()])
    if (url.pathname === '/items' && req.method === 'POST') {
      const item = { id: nextId++, name: (JSON.parse(body) as { name: string }).name }
      items.set(item.id, item)
      return json(201, item)
    }
    if (req.method === 'PUT' && items.has(id)) {
      const item = { id, name: (JSON.parse(body) as { name: string }).name }
      items.set(id, item)
      return json(200, item)
    }
    if (req.method === 'DELETE' && items.delete(id)) {
      res.writeHead(204)
      res.end()
      return
    }
    json(404, { error: 'no such item' })
  })
  return listen(server)
}

/**
 * The page's scenario, as the dev server serves it: log in, CRUD, the event stream, a GraphQL
 * query; `window.scenario()` resolves with everything the page saw (status and body of each call,
 * the events in order); `window.scenario({ events: false })` leaves the event stream out.
 */
const SCENARIO = `
window.scenario = async ({ events: withEvents = true } = {}) => {
  const auth = { authorization: 'Bearer ${SECRETS.token}' }
  const json = { 'content-type': 'application/json' }
  const call = async (method, url, body, headers = {}) => {
    const res = await fetch(url, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : json) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    return { method, url, status: res.status, body: text === '' ? null : JSON.parse(text) }
  }
  const calls = []
  calls.push(await call('POST', '/api/login', { user: 'ann', password: '${SECRETS.password}' }))
  calls.push(await call('GET', '/api/items', undefined, auth))
  calls.push(await call('POST', '/api/items', { name: 'second' }, auth))
  calls.push(await call('PUT', '/api/items/1', { name: 'renamed' }, auth))
  calls.push(await call('DELETE', '/api/items/2', undefined, auth))
  calls.push(await call('GET', '/api/items', undefined, auth))
  const events = !withEvents ? [] : await new Promise((resolve, reject) => {
    const seen = []
    const source = new EventSource('/api/events')
    source.onmessage = (event) => {
      seen.push({ id: event.lastEventId, data: JSON.parse(event.data) })
      if (seen.length === 3) {
        source.close()
        resolve(seen)
      }
    }
    source.onerror = () => {
      source.close()
      reject(new Error('event stream failed after ' + seen.length + ' events'))
    }
  })
  calls.push(
    await call('POST', '/api/graphql', {
      query: 'query Items($first: Int!) { items(first: $first) { name } }',
      operationName: 'Items',
      variables: { first: 2 },
    }),
  )
  return { calls, events }
}
`

/**
 * A dev server on `createDevServerProxy` with `routes` and `options`; its `/` is the scenario's
 * page, with the overlay client the adapters inject.
 */
export function startRecordDevServer(
  routes: Parameters<typeof startBareDevServer>[0],
  options: Parameters<typeof startBareDevServer>[1],
) {
  return startBareDevServer(
    routes,
    options,
    (client) =>
      `<!doctype html><title>app</title><script src="${client}"></script><script>${SCENARIO}</script>`,
  )
}
