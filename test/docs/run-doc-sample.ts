import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage } from 'node:http'
import { connect } from 'node:net'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import ts from 'typescript'
import { WebSocketServer } from 'ws'
import { listen, type StartedServer } from '../support/servers.js'
import { ROOT } from './built-docs.js'
import { type DocSample, samplesOf } from './doc-samples.js'

// Runs a code sample of the docs as a reader who copied it would: the page's own text, with only
// its placeholders swapped (the backend `http://localhost:3000` for one on port 0, the server's
// port 8080 for a free one), in a process of its own, so that a request can be sent through it.

/** The backend the pages' samples name, and the port their servers listen on. */
const PAGE_BACKEND = 'localhost:3000'
const PAGE_PORT = 8080

/** The first code sample of `page` under its heading `heading` (`## Deno`). */
export function sampleUnder(page: string, heading: string): DocSample {
  const start = headingLine(page, heading)
  const sample = samplesOf(join(ROOT, 'docs'), page).find((candidate) => candidate.line > start)
  if (sample === undefined) throw new Error(`docs/${page} has no code sample under ${heading}`)
  return sample
}

/** The 1-based line of `heading` on the page. */
function headingLine(page: string, heading: string): number {
  const lines = ts.sys.readFile(join(ROOT, 'docs', page))?.split('\n') ?? []
  const index = lines.indexOf(heading)
  if (index < 0) throw new Error(`docs/${page} has no heading ${heading}`)
  return index + 1
}

/**
 * The sample with its placeholders swapped: the page's backend for `backend`'s port and its
 * port for `port`. Throws when the sample names neither, so a page that changes its placeholders
 * fails here rather than sending the requests elsewhere.
 */
export function localized(code: string, backend: number, port: number): string {
  if (!code.includes(PAGE_BACKEND) || !code.includes(`port: ${PAGE_PORT}`)) {
    throw new Error(`the sample names no ${PAGE_BACKEND} backend or port: ${PAGE_PORT}`)
  }
  return code
    .replaceAll(PAGE_BACKEND, `127.0.0.1:${backend}`)
    .replaceAll(`port: ${PAGE_PORT}`, `port: ${port}`)
}

/**
 * A TypeScript sample as the JavaScript module Node runs (the types removed, as `node server.ts`
 * on Node 24 does), with our packages read from their builds (`pnpm build`).
 */
export function asNodeModule(code: string): string {
  const js = ts.transpileModule(code, {
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
    },
  }).outputText
  const core = pathToFileURL(join(ROOT, 'packages/core/dist/index.js')).href
  return js.replaceAll("'@cors-dev-proxy/core'", `'${core}'`)
}

/**
 * Writes `text` as `name` in a folder inside the repository's node_modules, where the root's
 * packages (hono, @hono/node-server...) resolve as they would in the reader's project.
 */
export function writeSampleFile(name: string, text: string): string {
  const folder = join(ROOT, 'node_modules/.doc-samples-run')
  mkdirSync(folder, { recursive: true })
  const file = join(folder, name)
  writeFileSync(file, text)
  return file
}

/** A running sample: its output so far, and a stop that ends it. */
export interface RunningSample {
  readonly child: ChildProcess
  stdout(): string
  stderr(): string
  stop(): Promise<void>
}

/** Starts `command` and waits until something listens on `port` (or the process ends: it throws). */
export async function startSample(
  command: string,
  args: readonly string[],
  options: { cwd: string; port: number; env?: NodeJS.ProcessEnv },
): Promise<RunningSample> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const running: RunningSample = {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      const killed = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(killed)
    },
  }
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${command} ended (${child.exitCode}): ${stderr || stdout}`)
    if (await accepts(options.port)) return running
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await running.stop()
  throw new Error(`${command} did not listen on ${options.port} within 60 s: ${stderr || stdout}`)
}

/** Whether a TCP connection to 127.0.0.1:`port` is accepted. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/** The backend the samples proxy to: JSON naming the path it got, a WebSocket echo, a path that never answers. */
export interface SampleBackend extends StartedServer<ReturnType<typeof createServer>> {
  /** Resolves when the request to `/slow` the backend is holding was closed by the proxy. */
  slowClosed(): Promise<void>
}

/** Starts the samples' backend on 127.0.0.1 port 0. */
export async function startSampleBackend(): Promise<SampleBackend> {
  let closedSlow: () => void = () => {}
  const slowClosed = new Promise<void>((resolve) => {
    closedSlow = resolve
  })
  const server = createServer((req: IncomingMessage, res) => {
    if (req.url?.endsWith('/slow')) {
      // Never answered: the proxy must close it when its client leaves.
      req.socket.once('close', closedSlow)
      return
    }
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ path: req.url, origin: req.headers.origin ?? null }))
  })
  const sockets = new WebSocketServer({ server })
  sockets.on('connection', (socket, req) => {
    socket.on('message', (data, binary) => socket.send(binary ? data : `echo ${req.url} ${data}`))
  })
  const started = await listen(server)
  return {
    ...started,
    slowClosed: () => slowClosed,
    close: async () => {
      for (const client of sockets.clients) client.terminate()
      sockets.close()
      await started.close()
    },
  }
}
