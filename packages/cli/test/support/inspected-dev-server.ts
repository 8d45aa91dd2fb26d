import { createServer, type Server } from 'node:http'
import { createDevServerProxy, resolveOptions } from '@cors-dev-proxy/core/adapter'
import {
  listen,
  type StartedServer,
  sendRequest,
  type TestResponse,
} from '../../../../test/support/servers.js'

/** A backend without CORS headers that names itself and echoes the path and body it got. */
export async function startNamedBackend(name: string): Promise<StartedServer<Server>> {
  return listen(
    createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ backend: name, url: req.url, body: Buffer.concat(chunks).toString() }))
      })
    }),
  )
}

/** A port nothing listens on, and no test can listen on (below 1024): a backend that is down. */
export const DOWN_TARGET = 'http://127.0.0.1:1'

/** A dev server (node:http with the set-up every adapter shares) and its two backends. */
export interface InspectedDevServer {
  readonly url: string
  readonly local: StartedServer<Server>
  readonly staging: StartedServer<Server>
  /** A request to the dev server. */
  call(path: string, init?: Parameters<typeof sendRequest>[1]): Promise<TestResponse>
  close(): Promise<void>
}

/**
 * A dev server whose `/api` route has two targets (`local`, `staging`: backends without CORS
 * headers) and whose `/down` route points at a port where nothing listens; inspector and overlay
 * on, as by default.
 *
 * @example
 * const dev = await startInspectedDevServer()
 * await dev.call('/down/x') // 502
 */
export async function startInspectedDevServer(): Promise<InspectedDevServer> {
  const [local, staging] = await Promise.all([startNamedBackend('local'), startNamedBackend('staging')])
  const server = createServer()
  const proxy = createDevServerProxy(
    resolveOptions(
      { '/api': { targets: { local: local.url, staging: staging.url } }, '/down': DOWN_TARGET },
      { log: 'silent' },
    ),
    { server },
  )
  server.on('request', (req, res) =>
    proxy.middleware(req, res, () => {
      res.setHeader('content-type', 'text/html')
      res.end('<!doctype html><title>app</title>')
    }),
  )
  const front = await listen(server)
  return {
    url: front.url,
    local,
    staging,
    call: (path, init) => sendRequest(`${front.url}${path}`, init),
    async close() {
      await front.close()
      await proxy.close()
      await Promise.all([local.close(), staging.close()])
    },
  }
}
