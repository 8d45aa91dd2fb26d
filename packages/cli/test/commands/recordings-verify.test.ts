import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../test/support/proxy-server.js'
import { refusedUrl } from '../../../../test/support/refused-port.js'
import { listen, sendRequest } from '../../../../test/support/servers.js'
import { UsageError } from '../../src/args/usage-error.js'
import { runRecordings } from '../../src/commands/recordings.js'

/*
 * `cors-dev-proxy recordings verify`, run from the sources in this process (cli.test.ts runs it
 * through `runCli`): a session recorded through the real proxy from a real backend, then checked
 * against that backend as it was, as it changed, and after `--update`. The backend counts the
 * methods it receives, so the file proves the check never sends one with side effects.
 */

/** What the backend answers: `v1` as recorded, `v2` with `email` gone and `age` a string. */
let version: 'v1' | 'v2' = 'v1'
const seen = new Map<string, number>()
/** While set, `GET /users` is never answered. */
let stall = false
const tokens: (string | undefined)[] = []

function user(): Record<string, unknown> {
  const base = { id: 1, name: 'Ada', tags: version === 'v1' ? ['admin'] : [], manager: null }
  return version === 'v1'
    ? { ...base, email: 'ada@example.com', age: 36 }
    : { ...base, age: '36', token: 'live-s3cret' }
}

const backend = createServer((req, res) => {
  const method = req.method ?? 'GET'
  seen.set(method, (seen.get(method) ?? 0) + 1)
  req.resume()
  tokens.push(req.headers['x-test-token'] as string | undefined)
  const url = new URL(req.url ?? '/', 'http://x')
  const json = (status: number, data: unknown) => {
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'set-cookie': 'sid=c00kie; Path=/',
    })
    res.end(JSON.stringify(data))
  }
  if (url.pathname === '/users/1' && method === 'GET') json(200, user())
  else if (url.pathname === '/users' && method === 'GET' && stall) return
  else if (url.pathname === '/users' && method === 'GET') json(200, [{ id: 1 }, { id: 2, nick: 'b' }])
  else if (url.pathname === '/users' && method === 'POST') json(201, { id: 3 })
  else if (url.pathname === '/users/3' && method === 'DELETE') res.writeHead(204).end()
  else if (url.pathname === '/health')
    res.writeHead(200, { 'content-type': 'text/plain' }).end(method === 'HEAD' ? undefined : 'ok')
  else if (url.pathname === '/me') json(200, { user: 'ada' })
  else if (url.pathname === '/search') json(200, { hits: [] })
  else json(404, { error: 'no such path' })
})

let dir: string
let target: Awaited<ReturnType<typeof listen>>

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cdp-verify-'))
  target = await listen(backend)
  const proxy = await serveProxy(
    { '/api': { target: target.url, record: true } },
    { log: 'silent', recordings: { dir: join(dir, 'recordings') } },
  )
  const calls: [string, string, Record<string, string>?][] = [
    ['GET', '/api/users/1'],
    ['GET', '/api/users'],
    ['POST', '/api/users', { 'content-type': 'application/json' }],
    ['DELETE', '/api/users/3'],
    ['HEAD', '/api/health'],
    ['GET', '/api/me', { authorization: `Basic ${Buffer.from('ada:pw').toString('base64')}` }],
    ['GET', '/api/search?q=a&token=abc'],
  ]
  for (const [method, path, headers] of calls) {
    await sendRequest(`${proxy.url}${path}`, {
      method,
      headers,
      body: method === 'POST' ? '{"name":"x"}' : undefined,
    })
  }
  await proxy.close()
})

afterAll(async () => {
  await target.close()
  await rm(dir, { recursive: true, force: true })
})

beforeEach(() => {
  version = 'v1'
  stall = false
  seen.clear()
  tokens.length = 0
})

async function verify(...flags: string[]) {
  let stdout = ''
  let stderr = ''
  const code = await runRecordings({
    argv: ['verify', '--route', '/api', '--dir', 'recordings', ...flags],
    cwd: dir,
    io: { out: (text) => (stdout += text), err: (text) => (stderr += text) },
  })
  return { code, stdout, stderr }
}

const against = () => ['--target', target.url]

describe('recordings verify', () => {
  it('exits 0 against the backend as it was recorded, and says what it skipped', async () => {
    const files = await readdir(join(dir, 'recordings', 'api'))
    expect(files.filter((name) => name.startsWith('POST-') || name.startsWith('DELETE-'))).toHaveLength(2)
    const result = await verify(...against())
    expect(result.stdout).toContain(`no drift in 3 requests (recordings/api against ${target.url}/)`)
    expect(result.stdout).toContain(
      'skipped 2 with side effects (DELETE, POST), never sent; skipped 2 more (above)',
    )
    expect(result.stdout).toMatch(/^GET \/me: skipped, its answers need a secret/m)
    expect(result.stdout).toMatch(
      /^GET \/search\?q=a&token=\[masked\]: skipped, its query holds a masked secret/m,
    )
    expect(result.code).toBe(0)
  })

  it('reports a field removed and a field whose type changed, one line for the request, exit 1', async () => {
    version = 'v2'
    const result = await verify(...against())
    expect(result.stdout).toContain(
      'GET /users/1: body.email missing; body.age number → string; body.token added\n',
    )
    // An empty array and a null have no structure to compare; the other requests are unchanged.
    expect(result.stdout).not.toMatch(/tags|manager|GET \/users:|HEAD/)
    expect(result.stdout).toMatch(/^GET \/users\/1: /)
    expect(result.stdout).toContain('drift in 1 of 3 requests (')
    expect(result.code).toBe(1)
  })

  it('never sends a method with side effects, though POST and DELETE were recorded', async () => {
    version = 'v2'
    await verify(...against())
    await verify(...against(), '--values', '--json')
    expect([...seen.keys()].sort()).toEqual(['GET', 'HEAD'])
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
      expect(seen.get(method)).toBeUndefined()
    expect(seen.get('GET')).toBe(4)
  })

  it('--values compares values too; --json gives the same as data', async () => {
    const result = await verify(...against(), '--values', '--json')
    const report = JSON.parse(result.stdout) as {
      exitCode: number
      drifted: { path: string; changes: { text: string }[] }[]
    }
    expect(report.exitCode).toBe(0)
    version = 'v2'
    const drifted = JSON.parse((await verify(...against(), '--values', '--json')).stdout) as typeof report
    expect(drifted.exitCode).toBe(1)
    expect(drifted.drifted[0]?.path).toBe('/users/1')
    expect(drifted.drifted[0]?.changes.map((change) => change.text)).toContain('body.tags length 1 → 0')
  })

  it('--timeout: a request unanswered in time is reported, exit 2', async () => {
    stall = true
    const result = await verify(...against(), '--timeout', '300')
    expect(result.stdout).toContain('GET /users: no answer (no answer within 300 ms)')
    expect(result.stdout).toContain('1 unanswered')
    expect(result.code).toBe(2)
  })

  it('--header is sent with every request', async () => {
    await verify(...against(), '--header', 'X-Test-Token: t0k3n')
    expect(tokens).toEqual(['t0k3n', 't0k3n', 't0k3n'])
  })

  it('exits 2 when the target does not answer', async () => {
    const result = await verify('--target', await refusedUrl())
    expect(result.stdout).toContain('GET /users/1: no answer (ECONNREFUSED)')
    expect(result.code).toBe(2)
  })
})

describe('recordings verify --update', () => {
  afterAll(async () => {
    version = 'v1'
    await verify(...against(), '--update')
  })

  it('rewrites what drifted with the live answer, masked, and a second run exits 0', async () => {
    version = 'v2'
    const updated = await verify(...against(), '--update')
    expect(updated.stdout).toContain(
      'GET /users/1: body.email missing; body.age number → string; body.token added (recording updated)',
    )
    expect(updated.stdout).toContain('updated 1 recording with the live answers')
    expect(updated.code).toBe(0)
    const again = await verify(...against())
    expect(again.stdout).toContain('no drift in 3 requests')
    expect(again.code).toBe(0)
    const name = (await readdir(join(dir, 'recordings', 'api'))).find((file) =>
      file.startsWith('GET-users-1.'),
    )
    const text = await readFile(join(dir, 'recordings', 'api', name as string), 'utf8')
    expect(text).not.toMatch(/live-s3cret|c00kie/)
    const file = JSON.parse(text) as { answers: { body: { json: Record<string, unknown> } }[] }
    expect(file.answers).toHaveLength(1)
    expect(file.answers[0]?.body.json.age).toBe('36')
  })
})

describe('recordings verify: mistakes exit 2 with the flag and a fix', () => {
  async function mistake(argv: string[], cwd = dir): Promise<UsageError> {
    const error = await runRecordings({ argv, cwd, io: { out: () => {}, err: () => {} } }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    )
    expect(error).toBeInstanceOf(UsageError)
    return error as UsageError
  }

  it.each([
    [['verify', '--route', '/api'], 'recordings verify needs --target URL', '--target http://127.0.0.1:3000'],
    [
      ['verify', '--target', 'http://127.0.0.1:3000'],
      'recordings verify needs --route PREFIX',
      '--route /api',
    ],
    [
      ['verify', '--route', '/api', '--target', 'localhost:3000'],
      '--target must be an http:// or https:// URL',
      '--target https://',
    ],
    [
      ['verify', '--route', '/api', '--traget', 'http://a'],
      'unknown flag --traget for `recordings verify`: did you mean --target?',
      '--target https://',
    ],
    [
      ['verify', '--route', '/api', '--target', 'http://a', '--header', 'nocolon'],
      "--header must be 'NAME: VALUE'",
      "--header 'Authorization",
    ],
    [
      ['verfy', '--route', '/api'],
      'unknown subcommand "recordings verfy": did you mean recordings verify?',
      'recordings verify --route /api',
    ],
  ])('%j', async (argv, message, example) => {
    const error = await mistake(argv)
    expect(error.message).toContain(message)
    expect(error.example).toContain(example)
  })

  it('a route with no recordings names the folder and --dir', async () => {
    const error = await mistake([
      'verify',
      '--route',
      '/other',
      '--target',
      'http://127.0.0.1:3000',
      '--dir',
      'recordings',
    ])
    expect(error.message).toContain(`no recordings of route '/other' in ${join(dir, 'recordings', 'other')}`)
    expect(error.example).toContain('--dir')
  })

  it("reads the config file's recordings.dir, and refuses a route it does not have", async () => {
    const project = await mkdtemp(join(tmpdir(), 'cdp-verify-config-'))
    try {
      const config = { routes: { '/api': target.url }, recordings: { dir: join(dir, 'recordings') } }
      await writeFile(join(project, 'cors-dev-proxy.config.json'), JSON.stringify(config))
      let stdout = ''
      const code = await runRecordings({
        argv: ['verify', '--route', '/api', '--target', target.url],
        cwd: project,
        io: { out: (text) => (stdout += text), err: () => {} },
      })
      expect(stdout).toContain('no drift in 3 requests')
      expect(code).toBe(0)
      const error = await mistake(['verify', '--route', '/nope', '--target', target.url], project)
      expect(error.message).toBe("route '/nope' is not in cors-dev-proxy.config.json (its routes: /api)")
      expect(error.example).toContain('recordings verify --route /api --target')
    } finally {
      await rm(project, { recursive: true, force: true })
    }
  })

  it('a file that is not a recording is reported, exit 2', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'cdp-verify-bad-'))
    try {
      await mkdir(join(folder, 'recordings', 'api'), { recursive: true })
      await writeFile(join(folder, 'recordings', 'api', 'GET-x.json'), '{ not json')
      let stdout = ''
      const code = await runRecordings({
        argv: ['verify', '--route', '/api', '--target', target.url, '--dir', 'recordings'],
        cwd: folder,
        io: { out: (text) => (stdout += text), err: () => {} },
      })
      expect(stdout).toContain('recordings/api/GET-x.json: not a recording')
      expect(code).toBe(2)
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })
})
