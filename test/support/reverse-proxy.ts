import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { accessSync, chmodSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import * as net from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'

/**
 * nginx and Caddy for the export tests: each run in a temporary directory that holds its
 * configuration, pid, logs and state, so it needs no write access elsewhere and leaves nothing
 * behind. A missing program fails the test with the command that installs it, never skips it.
 */

/** The command that installs the programs, as `pnpm test` does first (scripts/prepare-test-tools.mjs). */
const INSTALL = 'pnpm test:tools (as root), or: sudo apt-get update && sudo apt-get install -y nginx caddy'

/** Throws, naming the fix, when `program` is not on PATH. */
export function requireProgram(program: 'nginx' | 'caddy'): void {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue
    try {
      accessSync(join(dir, program), constants.X_OK)
      return
    } catch {
      // Not in this directory.
    }
  }
  throw new Error(`${program} is not installed, and these tests need the real one. Install it: ${INSTALL}`)
}

/** A temporary directory that nginx's workers (which drop root for `nobody`) can enter. */
function scratchDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `cdp-${name}-`))
  chmodSync(dir, 0o755)
  return dir
}

/** The smallest nginx.conf that includes `snippet.conf` in its http {} context, everything in `dir`. */
function nginxConf(dir: string): string {
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/snippet.conf;
}
`
}

/** What a validation said: whether the program accepted the configuration, and its output. */
export interface Validation {
  ok: boolean
  output: string
}

function run(file: string, args: string[], env?: NodeJS.ProcessEnv): Promise<Validation> {
  return new Promise((resolve) => {
    execFile(file, args, { env: { ...process.env, ...env }, timeout: 20_000 }, (error, stdout, stderr) => {
      resolve({ ok: error === null, output: `${stdout}${stderr}` })
    })
  })
}

/** Runs `nginx -t` on a snippet included in the http {} context of a minimal nginx.conf. */
export async function validateNginx(snippet: string): Promise<Validation> {
  requireProgram('nginx')
  const dir = scratchDir('nginx-t')
  try {
    writeFileSync(join(dir, 'snippet.conf'), snippet)
    writeFileSync(join(dir, 'nginx.conf'), nginxConf(dir))
    return await run('nginx', ['-t', '-e', 'stderr', '-p', `${dir}/`, '-c', join(dir, 'nginx.conf')])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The Caddyfile around a site block: no admin endpoint, no certificates, state in `dir`, a bounded shutdown. */
function caddyfile(dir: string, site: string): string {
  return `{
\tadmin off
\tauto_https off
\tstorage file_system ${dir}/data
\tgrace_period 2s
}

${site}`
}

/** Where Caddy would otherwise write (its data and config directories under HOME). */
function caddyEnv(dir: string): NodeJS.ProcessEnv {
  return { HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') }
}

/** Runs `caddy validate` on a site block, with the global options the tests run it with. */
export async function validateCaddy(site: string): Promise<Validation> {
  requireProgram('caddy')
  const dir = scratchDir('caddy-validate')
  try {
    const file = join(dir, 'Caddyfile')
    writeFileSync(file, caddyfile(dir, site))
    return await run('caddy', ['validate', '--config', file, '--adapter', 'caddyfile'], caddyEnv(dir))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A reverse proxy running as a child process. */
export interface RunningProxy {
  readonly origin: string
  /** Everything it wrote, for a failing test's message. */
  output(): string
  stop(): Promise<void>
}

async function waitForPort(port: number, child: ChildProcess, output: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null)
      throw new Error(`exited with ${child.exitCode} before listening:\n${output()}`)
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end()
        resolve(true)
      })
      socket.on('error', () => resolve(false))
    })
    if (open) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`did not listen on 127.0.0.1:${port} within 5 s:\n${output()}`)
}

/** Starts `file args`, waits for `port`, and stops it by its pid (SIGTERM, then SIGKILL after 5 s). */
async function startChild(file: string, args: string[], port: number, dir: string, env?: NodeJS.ProcessEnv) {
  const child = spawn(file, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let text = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString()
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(timer)
    }
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await waitForPort(port, child, () => text)
  } catch (error) {
    await stop()
    throw new Error(`${file} ${(error as Error).message}`)
  }
  return { origin: `http://127.0.0.1:${port}`, output: () => text, stop }
}

/** Starts nginx (daemon off) with `snippet` included in its http {} context; it must listen on `port`. */
export async function startNginx(snippet: string, port: number): Promise<RunningProxy> {
  requireProgram('nginx')
  const dir = scratchDir('nginx')
  writeFileSync(join(dir, 'snippet.conf'), snippet)
  writeFileSync(join(dir, 'nginx.conf'), nginxConf(dir))
  return startChild('nginx', ['-e', 'stderr', '-p', `${dir}/`, '-c', join(dir, 'nginx.conf')], port, dir)
}

/** Starts Caddy (`caddy run`) with `site`, a Caddyfile site block that must listen on `port`. */
export async function startCaddy(site: string, port: number): Promise<RunningProxy> {
  requireProgram('caddy')
  const dir = scratchDir('caddy')
  const file = join(dir, 'Caddyfile')
  writeFileSync(file, caddyfile(dir, site))
  return startChild('caddy', ['run', '--config', file, '--adapter', 'caddyfile'], port, dir, caddyEnv(dir))
}
