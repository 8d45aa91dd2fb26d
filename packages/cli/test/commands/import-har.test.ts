import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../test/support/proxy-server.js'
import { sendRequest } from '../../../../test/support/servers.js'
import { UsageError } from '../../src/args/usage-error.js'
import { runImportHar } from '../../src/commands/import-har.js'

/*
 * `cors-dev-proxy import-har`, its command run from the sources in this process (through `runCli`
 * the file would load `serve` and count as an integration test; `cli.test.ts` covers the
 * dispatch): the HAR's entries under the route become recordings that a proxy with
 * `replay: 'only'` answers from. A mistake is a `UsageError` with a working example, which
 * `runCli` prints with exit code 2.
 */

const folders: string[] = []
afterEach(async () => {
  for (let folder = folders.pop(); folder; folder = folders.pop())
    await rm(folder, { recursive: true, force: true })
})

async function project(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'cdp-import-har-'))
  folders.push(folder)
  return folder
}

async function run(args: string[], cwd: string) {
  let stdout = ''
  let stderr = ''
  const code = await runImportHar({
    argv: args.slice(1),
    cwd,
    io: { out: (text) => (stdout += `${text}\n`), err: (text) => (stderr += `${text}\n`) },
  })
  return { code, stdout, stderr }
}

/** The mistake `import-har` reports (what `runCli` prints as `error …` and `example: …`). */
async function mistake(args: string[], cwd: string): Promise<UsageError> {
  const error = await run(args, cwd).then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(UsageError)
  return error as UsageError
}

const entry = (
  method: string,
  url: string,
  status: number,
  text: string,
  extra: Record<string, unknown> = {},
) => ({
  startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, Number(extra.at ?? 0))).toISOString(),
  request: {
    method,
    url,
    headers: [{ name: 'Authorization', value: 'Bearer har-secret' }],
    ...(extra.postData === undefined ? {} : { postData: extra.postData }),
  },
  response: {
    status,
    headers: [
      { name: 'Content-Type', value: 'application/json' },
      { name: 'Content-Encoding', value: 'gzip' },
      { name: 'Set-Cookie', value: 'sid=har-cookie; Path=/' },
    ],
    content: { mimeType: 'application/json', text },
  },
})

const HAR = {
  log: {
    version: '1.2',
    creator: { name: 'test', version: '1' },
    entries: [
      entry('GET', 'http://localhost:5173/api/users?b=2&a=1', 200, '{"n":1}', { at: 1 }),
      entry('GET', 'http://localhost:5173/api/users?b=2&a=1', 200, '{"n":2}', { at: 2 }),
      entry('POST', 'http://localhost:5173/api/login', 200, '{"token":"har-token"}', {
        at: 3,
        postData: { mimeType: 'application/json', text: '{"user":"ada","password":"har-password"}' },
      }),
      entry('GET', 'http://localhost:5173/assets/app.js', 200, 'x', { at: 4 }),
      entry('GET', 'http://localhost:5173/api/failed', 0, '', { at: 5 }),
    ],
  },
}

describe('cors-dev-proxy import-har', () => {
  it('imports the entries under the route, counts the others, and a replaying proxy answers from them', async () => {
    const cwd = await project()
    await writeFile(join(cwd, 'devtools.har'), JSON.stringify(HAR))
    const { code, stdout } = await run(['import-har', 'devtools.har', '--route', '/api'], cwd)
    expect(code).toBe(0)
    expect(stdout).toContain('imported 3 entries of devtools.har into 2 recording files')
    expect(stdout).toContain('skipped 1 outside /api, 1 without an answer to replay')
    const dir = join(cwd, 'cors-dev-proxy', 'recordings', 'api')
    const files = await readdir(dir)
    expect(files).toHaveLength(2)
    for (const name of files)
      expect(await readFile(join(dir, name), 'utf8')).not.toMatch(
        /har-secret|har-cookie|har-token|har-password/,
      )

    const proxy = await serveProxy(
      { '/api': { target: 'http://127.0.0.1:9', replay: 'only' } },
      { log: 'silent', recordings: { dir: join(cwd, 'cors-dev-proxy', 'recordings') } },
    )
    try {
      const first = await sendRequest(`${proxy.url}/api/users?a=1&b=2`)
      const second = await sendRequest(`${proxy.url}/api/users?a=1&b=2`)
      expect([first.body.toString(), second.body.toString()]).toEqual(['{"n":1}', '{"n":2}'])
      // The HAR holds the decoded body: no Content-Encoding replayed over it.
      expect(first.headers['content-encoding']).toBeUndefined()
      const login = (password: string) =>
        sendRequest(`${proxy.url}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: `{"password":"${password}","user":"ada"}`,
        })
      // The HAR's password matches through the file's verifier of it; another one finds nothing.
      expect(JSON.parse((await login('har-password')).body.toString())).toEqual({ token: '[masked]' })
      expect((await login('another')).status).toBe(404)
    } finally {
      await proxy.close()
    }
  })

  it('writes into --dir', async () => {
    const cwd = await project()
    await writeFile(join(cwd, 'devtools.har'), JSON.stringify(HAR))
    expect(
      (await run(['import-har', 'devtools.har', '--route', '/api', '--dir', 'fixtures/rec'], cwd)).code,
    ).toBe(0)
    expect(await readdir(join(cwd, 'fixtures', 'rec', 'api'))).toHaveLength(2)
  })

  it.each([
    ['a file that is not JSON', 'not json', 'is not a HAR file: it is not JSON'],
    ['JSON that is not a HAR', '{"entries":[]}', 'is not a HAR file: it has no log.entries array'],
  ])('refuses %s', async (_case, text, message) => {
    const cwd = await project()
    await writeFile(join(cwd, 'x.har'), text)
    const error = await mistake(['import-har', 'x.har', '--route', '/api'], cwd)
    expect(error.message).toContain(message)
    expect(error.example).toBe('cors-dev-proxy import-har devtools.har --route /api')
  })

  it('refuses a route the config file does not have, naming its routes', async () => {
    const cwd = await project()
    await writeFile(join(cwd, 'devtools.har'), JSON.stringify(HAR))
    await writeFile(
      join(cwd, 'cors-dev-proxy.config.json'),
      JSON.stringify({ routes: { '/backend': 'http://localhost:3000' } }),
    )
    const error = await mistake(['import-har', 'devtools.har', '--route', '/api'], cwd)
    expect(error.message).toBe("route '/api' is not in cors-dev-proxy.config.json (its routes: /backend)")
    expect(error.example).toBe('cors-dev-proxy import-har devtools.har --route /backend')
  })

  it('asks for the file and the route', async () => {
    const error = await mistake(['import-har', 'devtools.har'], await project())
    expect(error.message).toBe('import-har needs a HAR file and --route PREFIX')
  })
})
