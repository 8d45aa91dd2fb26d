import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { DENO_BINARY } from '../../scripts/prepare-test-tools.mjs'
import { type Requirement, skipUnmet } from '../support/requirement.js'
import { unclaimedPort } from '../support/unclaimed-port.mjs'
import { ROOT } from './built-docs.js'
import {
  asNodeModule,
  localized,
  type RunningSample,
  type SampleBackend,
  sampleUnder,
  startSample,
  startSampleBackend,
  writeSampleFile,
} from './run-doc-sample.js'

// The servers of docs/frameworks/fetch-handler.md, run as the page prints them: Hono on Node (its
// snippet, the types removed) and Deno (its snippet, started with the page's own command). Each
// proxies a GET, answers a preflight from another origin's page (`cors: true`), carries a
// WebSocket, and aborts the upstream request when its client leaves; Deno prints no warning.
// Needs `pnpm build` (the snippets import @cors-dev-proxy/core's build) and, for Deno,
// `pnpm test:tools` (Deno in .tools/deno).

const PAGE = 'frameworks/fetch-handler.md'
// Another origin on this machine (a page on another port): what `cors: true` admits by default.
const OTHER_ORIGIN = 'http://localhost:5173'

let backend: SampleBackend
beforeAll(async () => {
  backend = await startSampleBackend()
})
afterAll(async () => {
  await backend?.close()
})

/** One message through the sample's `ws` route and back. */
function webSocketEcho(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/socket/echo`)
    socket.once('open', () => socket.send('hello'))
    socket.once('message', (data) => {
      resolve(String(data))
      socket.close()
    })
    socket.once('error', reject)
  })
}

/** A GET the client gives up on after 300 ms, while the backend holds it. */
function leaveSlowRequest(port: number): void {
  const req = request({ host: '127.0.0.1', port, path: '/api/slow' })
  req.on('error', () => {})
  req.end()
  setTimeout(() => req.destroy(), 300)
}

/** What every Fetch-handler sample must do, through the server on `port`. */
async function expectProxying(port: number): Promise<void> {
  const origin = `http://127.0.0.1:${port}`
  const get = await fetch(`${origin}/api/items`)
  expect(get.status).toBe(200)
  expect(((await get.json()) as { path: string }).path).toMatch(/\/items$/)

  // A page on another origin sends this before a PUT with JSON: `cors: true` answers it.
  const preflight = await fetch(`${origin}/api/items`, {
    method: 'OPTIONS',
    headers: {
      origin: OTHER_ORIGIN,
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'content-type',
    },
  })
  expect(preflight.status).toBeLessThan(300)
  expect(preflight.headers.get('access-control-allow-origin')).toBe(OTHER_ORIGIN)

  expect(await webSocketEcho(port)).toMatch(/^echo .*hello$/)

  // The client leaves before the answer: the proxy closes its request to the backend.
  const closed = backend.slowClosed()
  leaveSlowRequest(port)
  await expect(
    Promise.race([
      closed.then(() => 'closed'),
      new Promise((r) => setTimeout(() => r('still open'), 10_000)),
    ]),
  ).resolves.toBe('closed')
}

describe('fetch-handler.md: Hono on Node, as the page prints it', () => {
  let running: RunningSample | undefined
  afterAll(async () => {
    await running?.stop()
  })

  it('proxies, answers a preflight, carries a WebSocket and aborts upstream when the client leaves', async () => {
    const sample = sampleUnder(PAGE, '## Hono')
    // The whole server, not a fragment: what a reader copies runs.
    for (const part of ['createNodeWebSocket({ app })', 'serve(', 'injectWebSocket(server)']) {
      expect(sample.code).toContain(part)
    }
    const port = await unclaimedPort()
    const file = writeSampleFile('hono-server.mjs', asNodeModule(localized(sample.code, backend.port, port)))
    running = await startSample(process.execPath, [file], { cwd: ROOT, port })
    await expectProxying(port)
    const own = await fetch(`http://127.0.0.1:${port}/`)
    expect(own.status).toBe(200)
    expect(running.stderr()).toBe('')
  }, 60_000)
})

const deno: Requirement = (() => {
  try {
    readFileSync(DENO_BINARY)
    return { ok: true }
  } catch {
    return { ok: false, reason: `Deno is not at ${DENO_BINARY} (pnpm test:tools installs it)` }
  }
})()

describe.skipIf(skipUnmet('the docs’ Deno server', deno))(
  'fetch-handler.md: Deno, as the page prints it',
  () => {
    let running: RunningSample | undefined
    let folder: string | undefined
    afterAll(async () => {
      await running?.stop()
      if (folder !== undefined) rmSync(folder, { recursive: true, force: true })
    })

    it('proxies, answers a preflight, carries a WebSocket, aborts upstream when the client leaves, and prints nothing', async () => {
      const sample = sampleUnder(PAGE, '## Deno')
      const page = readFileSync(join(ROOT, 'docs', PAGE), 'utf8')
      const command = /Run it with `deno (run [^`]*) server\.ts`/.exec(page)?.[1]
      expect(command, 'the page says how to run the Deno server').toBeDefined()
      const port = await unclaimedPort()
      // The reader's project: our package in node_modules (--node-modules-dir=manual reads it there).
      folder = mkdtempSync(join(tmpdir(), 'cdp-deno-sample-'))
      mkdirSync(join(folder, 'node_modules/@cors-dev-proxy'), { recursive: true })
      symlinkSync(join(ROOT, 'packages/core'), join(folder, 'node_modules/@cors-dev-proxy/core'), 'dir')
      writeFileSync(
        join(folder, 'package.json'),
        JSON.stringify({ type: 'module', dependencies: { '@cors-dev-proxy/core': '*' } }),
      )
      writeFileSync(join(folder, 'server.ts'), localized(sample.code, backend.port, port))
      running = await startSample(DENO_BINARY, [...(command ?? '').split(' '), 'server.ts'], {
        cwd: folder,
        port,
        env: { ...process.env, NO_COLOR: '1', DENO_DIR: join(folder, '.deno'), DENO_NO_UPDATE_CHECK: '1' },
      })
      await expectProxying(port)
      // Deno prints its warning when an answered request's signal was read: give it the time.
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(running.stderr()).not.toContain('legacy behavior')
      // Nor anything else: not even for the request whose client left (Deno prints a failed answer).
      expect(running.stderr().replace(/^Listening on .*\n/m, '')).toBe('')
    }, 90_000)
  },
)
