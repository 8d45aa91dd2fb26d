// The client's request comes out of the proxy as it went in, through each adapter: a dev server
// whose own code reads `req.socket` when an answer finishes (Nuxt's listener does, through an
// http-shutdown-style tracker) survives every proxied upload, whether the target reads it,
// answers early, resets or never answers. Runs once per dev-server version of the matrix.
import type { EventEmitter } from 'node:events'
import type { Routes } from '@cors-dev-proxy/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { uploadHttp1 } from '../reliability/support/upload.js'
import { type FinishTracker, intactRequest, trackLikeListhen } from '../support/finish-tracker.js'
import { sendRequest } from '../support/servers.js'
import { startUploadTargets, type UploadTargets } from '../support/upload-targets.js'
import type { DevServerHandle } from './adapter-harness.js'
import { startRsbuild } from './rsbuild-server.js'
import { startRspackDevServer } from './rspack-server.js'
import { startVite, VITE_ALIAS } from './vite-server.js'
import { startWebpackDevServer, WDS_ALIAS } from './webpack-server.js'

const LARGE = 4 * 1024 * 1024
const SMALL = Buffer.from('{"name":"Ada"}')

let targets: UploadTargets

beforeAll(async () => {
  targets = await startUploadTargets()
})
afterAll(() => targets?.close())

function routes(): Routes {
  return {
    '/echo': targets.echo.url,
    '/early': targets.early.url,
    '/reset': targets.reset.url,
    '/silent': { target: targets.silent.url, timeout: 300 },
    '/hooked': { target: targets.echo.url, on: { proxyRes: () => undefined } },
  }
}

/**
 * Each adapter, with the tracker installed on its HTTP server as a dev server's own code would.
 * A matrix cell names one dev server (CDP_VITE, CDP_WDS or CDP_FRONT) and runs only that one.
 */
const allFrontEnds: Array<[string, () => Promise<{ handle: DevServerHandle; tracker: FinishTracker }>]> = [
  [
    `Vite (${VITE_ALIAS})`,
    async () => {
      let tracker: FinishTracker | undefined
      const plugin = {
        name: 'listhen-like',
        configureServer(server: { httpServer: EventEmitter | null }) {
          if (server.httpServer) tracker = trackLikeListhen(server.httpServer)
        },
      }
      const handle = await startVite({
        routes: routes(),
        options: { log: 'silent' },
        config: { plugins: [plugin] },
      })
      if (tracker === undefined) throw new Error('the tracker was not installed')
      return { handle, tracker }
    },
  ],
  [
    `webpack-dev-server (${WDS_ALIAS})`,
    async () => {
      let tracker: FinishTracker | undefined
      const handle = await startWebpackDevServer({
        routes: routes(),
        options: {
          log: 'silent',
          onListening(devServer) {
            if (devServer.server) tracker = trackLikeListhen(devServer.server)
          },
        },
      })
      if (tracker === undefined) throw new Error('the tracker was not installed')
      return { handle, tracker }
    },
  ],
  [
    'Rsbuild',
    async () => {
      const handle = await startRsbuild({ routes: routes(), options: { log: 'silent' } })
      const server = (handle.server as { httpServer?: EventEmitter | null }).httpServer
      if (!server) throw new Error('Rsbuild has no HTTP server')
      return { handle, tracker: trackLikeListhen(server) }
    },
  ],
  [
    '@rspack/dev-server',
    async () => {
      let tracker: FinishTracker | undefined
      const handle = await startRspackDevServer({
        routes: routes(),
        options: {
          log: 'silent',
          onListening(devServer) {
            if (devServer.server) tracker = trackLikeListhen(devServer.server)
          },
        },
      })
      if (tracker === undefined) throw new Error('the tracker was not installed')
      return { handle, tracker }
    },
  ],
]

/** The front end a matrix cell names: CDP_VITE, CDP_WDS or CDP_FRONT (`rsbuild`, `rspack`); all without. */
function inCell(name: string): boolean {
  if (process.env.CDP_VITE !== undefined) return name.startsWith('Vite')
  if (process.env.CDP_WDS !== undefined) return name.startsWith('webpack')
  if (process.env.CDP_FRONT === 'rsbuild') return name === 'Rsbuild'
  if (process.env.CDP_FRONT === 'rspack') return name === '@rspack/dev-server'
  return true
}

const frontEnds = allFrontEnds.filter(([name]) => inCell(name))

describe.each(frontEnds)('the client request after a proxied upload, %s', (_name, start) => {
  let handle: DevServerHandle
  let tracker: FinishTracker
  beforeAll(async () => {
    ;({ handle, tracker } = await start())
  })
  afterAll(() => handle?.close())

  it.each(['POST', 'PUT', 'PATCH'])('%s with a JSON body reaches the target whole', async (method) => {
    const url = `/echo/items?m=${method}`
    const res = await sendRequest(`${handle.origin}${url}`, {
      method,
      body: SMALL,
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body.toString())).toMatchObject({ method, length: SMALL.byteLength })
    expect(await tracker.seenFor(url)).toEqual(intactRequest(url))
  })

  it.each([
    ['/echo/upload', 200],
    ['/hooked/upload', 200],
    ['/early/upload', 413],
    ['/reset/upload', 502],
    ['/silent/upload', 504],
  ])('a 4 MiB upload to %s: status %i, req keeps its socket', async (url, status) => {
    const outcome = await uploadHttp1(`${handle.origin}${url}`, LARGE)
    expect(outcome.status).toBe(status)
    if (status === 200) expect(JSON.parse(outcome.body)).toMatchObject({ length: LARGE })
    expect(await tracker.seenFor(url)).toEqual(intactRequest(url))
  })
})
