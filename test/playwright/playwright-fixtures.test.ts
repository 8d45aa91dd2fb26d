import { execFile } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createFetchHandler } from '@cors-dev-proxy/core'
import { createFetchHandlerFor } from '@cors-dev-proxy/core/adapter'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeAnswer } from '../../packages/playwright/src/unmatched-calls.js'
import { REFUSED_URL } from '../support/refused-port.js'

/*
 * @cors-dev-proxy/playwright under the real `playwright test` runner and Debian's Chromium: a
 * session is recorded by the core from a live backend, the backend is stopped, and the specs of
 * test/playwright/project replay it in pages no server serves (their routes point at a port
 * nothing listens on). One spec makes a call never recorded: the runner must fail it with the
 * core's explanation.
 */

const root = fileURLToPath(new URL('../..', import.meta.url))
const runner = join(root, 'packages/playwright/node_modules/.bin/playwright')
const project = join(root, 'test/playwright/project')
const config = join(project, 'playwright.config.ts')

/** A backend with two users, answering a create with the next id; `seen` lists the requests it got. */
async function startBackend(): Promise<{ server: Server; url: string; seen: string[] }> {
  const users = [
    { id: 1, name: 'Ada' },
    { id: 2, name: 'Linus' },
  ]
  const seen: string[] = []
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`)
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    }
    const user = /^\/users\/(\d+)$/.exec(req.url ?? '')
    if (req.method === 'GET' && req.url === '/users') return send(200, users)
    if (req.method === 'GET' && user) return send(200, users[Number(user[1]) - 1] ?? null)
    if (req.method === 'POST' && req.url === '/users') return send(201, { id: 3, name: 'Grace' })
    send(404, { error: 'not found' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

/** Records the session the specs replay, through the core's own `record: true`. */
async function recordSession(dir: string): Promise<void> {
  const backend = await startBackend()
  const proxy = createFetchHandler(
    { '/api': { target: backend.url, record: true } },
    { recordings: { dir }, log: 'silent' },
  )
  const json = { 'content-type': 'application/json' }
  for (const request of [
    new Request('http://app.test/api/users'),
    new Request('http://app.test/api/users', { method: 'POST', headers: json, body: '{"name":"Grace"}' }),
    new Request('http://app.test/api/users/1'),
  ]) {
    const answer = await proxy(request)
    expect(answer?.status).toBeLessThan(300)
    await answer?.arrayBuffer()
  }
  await proxy.close()
  await new Promise((resolve) => backend.server.close(resolve))
}

/** What the core answers a call no recording matches, as the failure shows it (paths relative to the project). */
async function coreExplanation(dir: string, url: string): Promise<string> {
  const proxy = createFetchHandlerFor(
    { '/api': { target: REFUSED_URL, replay: 'only' } },
    { recordings: { dir }, log: 'silent' },
    { root: project },
  )
  const answer = await proxy(new Request(url))
  await proxy.close()
  expect(answer?.status).toBe(404)
  return describeAnswer((await answer?.text()) ?? '', '    ')
}

interface RunnerResult {
  readonly code: number
  readonly report: JsonReport
  readonly stderr: string
}

interface JsonReport {
  readonly suites: readonly JsonSuite[]
}

interface JsonSuite {
  readonly file: string
  readonly suites?: readonly JsonSuite[]
  readonly specs: readonly {
    readonly title: string
    readonly tests: readonly {
      readonly results: readonly {
        readonly status: string
        readonly errors: readonly { message?: string }[]
      }[]
    }[]
  }[]
}

/** Each test of the report by title: its status and its error messages (no colours: FORCE_COLOR=0). */
function outcomes(report: JsonReport): Map<string, { status: string; errors: string }> {
  const found = new Map<string, { status: string; errors: string }>()
  const visit = (suite: JsonSuite) => {
    for (const spec of suite.specs) {
      const result = spec.tests[0]?.results[0]
      const errors = (result?.errors ?? []).map((error) => error.message ?? '').join('\n')
      found.set(spec.title, { status: result?.status ?? 'none', errors })
    }
    for (const child of suite.suites ?? []) visit(child)
  }
  for (const suite of report.suites) visit(suite)
  return found
}

/** Runs `playwright test` on the project (`files`: the specs to run, default all), with `env` over the test's own. */
function runPlaywright(env: Record<string, string>, files: readonly string[] = []): Promise<RunnerResult> {
  return new Promise((resolve) => {
    execFile(
      runner,
      ['test', '--config', config, '--reporter=json', ...files],
      {
        cwd: root,
        env: { ...process.env, FORCE_COLOR: '0', ...env },
        maxBuffer: 64 * 1024 * 1024,
        timeout: 240_000,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1
        resolve({ code, report: JSON.parse(stdout) as JsonReport, stderr })
      },
    )
  })
}

describe('@cors-dev-proxy/playwright under playwright test', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-playwright-'))
  let result: RunnerResult

  beforeAll(async () => {
    await recordSession(join(dir, 'recordings'))
    const recordings = join(dir, 'recordings')
    result = await runPlaywright({
      RECORDINGS_DIR: recordings,
      BACKEND_URL: REFUSED_URL,
      PLAYWRIGHT_OUTPUT_DIR: join(dir, 'test-results'),
    })
  }, 300_000)

  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('replays the recordings in the page, from the prefix and from the target, with no backend', () => {
    const tests = outcomes(result.report)
    expect(
      tests.get('the page shows the recorded answers and the mock, with no backend and no dev server'),
    ).toEqual({
      status: 'passed',
      errors: '',
    })
    expect(tests.get('a call never recorded gets the 404 and the test decides')?.status).toBe('passed')
  })

  it('reads the project configuration file as the CLI does', () => {
    expect(outcomes(result.report).get('the routes of the configuration file replay')).toEqual({
      status: 'passed',
      errors: '',
    })
  })

  it('fails a test whose call no recording matches, with the core explanation of what differs', async () => {
    expect(result.code).toBe(1)
    const failed = outcomes(result.report).get('a call no recording matches fails the test')
    expect(failed?.status).toBe('failed')
    expect(failed?.errors).toContain('[cors-dev-proxy] 1 call of this test matched no recording')
    expect(failed?.errors).toContain('GET http://app.test/api/users?page=2 → 404')
    const explanation = await coreExplanation(join(dir, 'recordings'), 'http://app.test/api/users?page=2')
    expect(explanation).toMatch(/GET-users\.|\/users/)
    expect(failed?.errors).toContain(explanation)
    // Once the core answers with its differences (a JSON body), the part that differs is named.
    if (explanation.trimStart().startsWith('{'))
      expect(failed?.errors).toMatch(/"part": "query",\s+"name": "page"/)
    expect(failed?.errors).toContain("test.use({ corsDevProxy: { mode: 'missing' } })")
  })
})

describe("mode 'missing' under playwright test", () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-playwright-missing-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('replays what is recorded, and forwards and records only the call that has no recording', async () => {
    await recordSession(join(dir, 'recorded'))
    const recordings = join(dir, 'recordings')
    cpSync(join(dir, 'recorded'), recordings, { recursive: true })
    const backend = await startBackend()
    try {
      const { code, report, stderr } = await runPlaywright(
        {
          RECORDINGS_DIR: recordings,
          BACKEND_URL: backend.url,
          LIVE_BACKEND: '1',
          PLAYWRIGHT_OUTPUT_DIR: join(dir, 'test-results'),
        },
        ['missing.spec.ts'],
      )
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
      const test = "mode 'missing' replays what is recorded and records the rest from the live backend"
      expect(outcomes(report).get(test)).toEqual({ status: 'passed', errors: '' })
      expect(backend.seen).toEqual(['GET /users/2'])
      expect(
        readdirSync(join(recordings, 'api')).filter((name) => name.startsWith('GET-users-2.')),
      ).toHaveLength(1)
    } finally {
      await new Promise((resolve) => backend.server.close(resolve))
    }
  }, 300_000)
})
