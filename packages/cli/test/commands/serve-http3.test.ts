import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { connect } from 'node:http2'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchQuicChromium } from '../../../../test/support/browser.js'
import { skipUnmet } from '../../../../test/support/requirement.js'
import { spkiSha256 } from '../../src/serve/certificate.js'
import { isTcpAndUdpFree } from '../../src/serve/free-port.js'
import { CADDY_REQUIREMENT } from '../support/caddy-available.js'
import { CLI_BIN, type CliServer, runCli, startCliServer } from '../support/cli-process.js'

/**
 * `serve --http3`: the real CLI with real Caddy in front, spoken to by headless Chromium over
 * QUIC (forced on the printed origin, the certificate's key listed), by a node:http2 client over
 * TCP (Alt-Svc), and without Caddy on PATH (HTTP/2 only, said so).
 */

const skip = skipUnmet('serve --http3', CADDY_REQUIREMENT)

/** The pid of the Caddy a CLI process started (its child named `caddy`), or 0 while there is none. */
function caddyChild(cliPid: number | undefined): number {
  try {
    return Number(execFileSync('pgrep', ['-P', String(cliPid), '-x', 'caddy'], { encoding: 'utf8' }).trim())
  } catch {
    // pgrep exits 1 when nothing matches.
    return 0
  }
}

/** The pid of the Caddy a CLI process started, once it is there (it is named `caddy` once exec'd). */
async function caddyOf(cliPid: number | undefined): Promise<number> {
  // The CLI loads and starts Caddy in a second or two; beside two busy CIs on 2 cores it once took over 10 s.
  await expect.poll(() => caddyChild(cliPid), { timeout: 30_000, interval: 20 }).toBeGreaterThan(0)
  return caddyChild(cliPid)
}

/** Whether a process still runs: it exists and is not a zombie waiting to be reaped. */
function isRunning(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z'
  } catch {
    return false
  }
}

describe.skipIf(skip)('serve --http3', () => {
  let project: string
  let serve: CliServer
  let browser: Browser
  let port: number
  let cert: string
  let startedInMs: number

  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'cdp-h3-'))
    mkdirSync(join(project, 'node_modules'))
    const started = Date.now()
    serve = await startCliServer(['serve', '--port', '0', '--http3', '--mock', '/api'], {
      cwd: project,
      timeout: 20_000,
    })
    await serve.waitFor('routes:')
    startedInMs = Date.now() - started
    port = Number(/HTTP\/3: +https:\/\/localhost:(\d+)\//.exec(serve.output())?.[1])
    cert = readFileSync(join(project, 'node_modules/.cache/cors-dev-proxy/localhost-cert.pem'), 'utf8')
    browser = await launchQuicChromium({ forceQuicOn: [`localhost:${port}`], spki: spkiSha256(cert) })
  }, 60_000)

  /** Another `serve --http3` in the same project, for the tests that end it or its Caddy. */
  const startSecondServe = () =>
    startCliServer(['serve', '--port', '0', '--http3', '--mock', '/api'], { cwd: project, timeout: 20_000 })

  afterAll(async () => {
    await browser?.close()
    await serve?.stop()
    rmSync(project, { recursive: true, force: true })
  })

  it('is up within 20 s, first run included, and prints https://localhost:PORT/ on a line that says h3 is on', () => {
    expect(startedInMs).toBeLessThan(20_000)
    expect(serve.output()).toMatch(/HTTP\/3: +https:\/\/localhost:\d+\/ h3 on/)
    expect(serve.output()).toContain('serve, HTTP/3 through Caddy, HTTP/2 and HTTP/1.1 over TLS')
    expect(serve.output()).toContain(`--ignore-certificate-errors-spki-list=${spkiSha256(cert)}`)
  })

  it('gets no warning from Caddy at start-up (its lines are folded into ours)', () => {
    // At the default level Caddy's info lines are debug lines; a warning or error would print.
    expect(serve.output()).not.toMatch(/\] caddy:/)
    expect(serve.output()).not.toMatch(/warn/i)
  })

  it('answers a route over h3 in Chromium (nextHopProtocol h3), through routes and mocks unchanged', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`https://localhost:${port}/api/page`)
    const result = await page.evaluate(async () => {
      const answer = await fetch('/api/items?x=1', {
        method: 'POST',
        body: 'hello',
        headers: { 'x-test': 'a' },
      })
      const echo = await answer.json()
      const entry = performance.getEntriesByType('resource').find((item) => item.name.includes('/api/items'))
      return { status: answer.status, echo, protocol: (entry as PerformanceResourceTiming).nextHopProtocol }
    })
    await context.close()
    expect(result.protocol).toBe('h3')
    expect(result.status).toBe(200)
    expect(result.echo).toMatchObject({ method: 'POST', path: '/items', query: { x: '1' }, body: 'hello' })
    // What Caddy adds on its way in is taken off again: the mock sees the browser's request.
    expect(Object.keys(result.echo.headers)).toContain('x-test')
    expect(Object.keys(result.echo.headers).filter((name) => /forwarded|cdp-/.test(name))).toEqual([])
  })

  it('announces h3 with Alt-Svc on its HTTP/2 answers', async () => {
    const session = connect(`https://localhost:${port}`, { ca: cert })
    try {
      const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
        const stream = session.request({ ':path': '/api/x' })
        stream.once('response', resolve)
        stream.once('error', reject)
        stream.resume()
      })
      expect(headers[':status']).toBe(200)
      expect(headers['alt-svc']).toBe(`h3=":${port}"; ma=2592000`)
    } finally {
      session.close()
    }
  })

  it('watches Caddy: if it dies, serve says so and exits 1 (its URL is gone)', async () => {
    const other = await startSecondServe()
    try {
      await other.waitFor('routes:')
      // Caddy is killed by its pid, as a crash would end it.
      const caddyPid = await caddyOf(other.child.pid)
      expect(caddyPid).toBeGreaterThan(0)
      process.kill(caddyPid, 'SIGKILL')
      const result = await new Promise<number | null>((resolve) => other.child.once('exit', resolve))
      expect(result).toBe(1)
      expect(other.output()).toMatch(/the HTTP\/3 front stopped \(Caddy was ended by SIGKILL.*\): stopping/)
    } finally {
      await other.stop()
    }
  })

  it('leaves no Caddy behind when serve itself is killed outright (SIGKILL)', async () => {
    const other = await startSecondServe()
    try {
      await other.waitFor('routes:')
      const caddyPid = await caddyOf(other.child.pid)
      expect(caddyPid).toBeGreaterThan(0)
      other.child.kill('SIGKILL')
      await expect.poll(() => isRunning(caddyPid), { timeout: 5_000 }).toBe(false)
    } finally {
      // Already ended by the test, unless it failed before: then ended the same way, so that the
      // first failure is the one reported (the watchdog ends its Caddy).
      if (other.child.exitCode === null && other.child.signalCode === null) other.child.kill('SIGKILL')
    }
  })

  it('stops at once, Caddy included, on a Ctrl-C while Caddy is starting', async () => {
    // A Caddy that never says it serves (a shell script named caddy): start-up cannot finish, so
    // only the Ctrl-C can end it. Without the abort, serve waited the 15 s Caddy has to start.
    const bin = mkdtempSync(join(tmpdir(), 'cdp-slow-caddy-'))
    writeFileSync(join(bin, 'caddy'), "#!/bin/sh\ntrap 'exit 0' TERM\nwhile :; do sleep 0.05; done\n", {
      mode: 0o755,
    })
    const child = spawn(process.execPath, [CLI_BIN, 'serve', '--port', '0', '--http3', '--mock', '/api'], {
      cwd: project,
      env: { ...process.env, NO_COLOR: '1', PATH: `${bin}${delimiter}${process.env.PATH}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    try {
      const caddyPid = await caddyOf(child.pid)
      const interrupted = Date.now()
      child.kill('SIGINT')
      expect(await exited).toBe(0)
      expect(Date.now() - interrupted).toBeLessThan(5_000)
      expect(isRunning(caddyPid)).toBe(false)
      expect(output).toContain('SIGINT: stopped while starting')
      expect(output).not.toContain('Local:')
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      rmSync(bin, { recursive: true, force: true })
    }
  }, 60_000)

  it('leaves nothing listening once stopped: the port is free again for TCP and UDP', async () => {
    const result = await serve.stop('SIGINT')
    expect(result.code).toBe(0)
    expect(await isTcpAndUdpFree('127.0.0.1', port)).toBe(true)
  })
})

describe('serve --http3 without Caddy', () => {
  it('says how to get Caddy and carries on over HTTP/2', async () => {
    const project = mkdtempSync(join(tmpdir(), 'cdp-h3-none-'))
    mkdirSync(join(project, 'node_modules'))
    // A PATH with node alone on it (its own folder may hold caddy too, as /usr/bin does).
    const bin = join(project, 'bin')
    mkdirSync(bin)
    symlinkSync(process.execPath, join(bin, 'node'))
    try {
      const serve = await startCliServer(['serve', '--port', '0', '--http3', '--mock', '/api'], {
        cwd: project,
        env: { PATH: bin },
      })
      const output = serve.output()
      await serve.stop()
      expect(output).toContain('--http3 needs Caddy on PATH')
      expect(output).toContain('sudo apt-get install caddy')
      expect(output).toContain('Carrying on over HTTP/2 (--https)')
      expect(serve.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/)
      expect(output).toContain('serve, HTTP/2 over TLS, HTTP/1.1 accepted')
    } finally {
      rmSync(project, { recursive: true, force: true })
    }
  })

  it('documents --http3 in serve --help', async () => {
    const result = await runCli(['serve', '--help'])
    expect(result.stdout).toContain('--http3')
    expect(result.stdout).toContain('Alt-Svc: h3')
  })
})
