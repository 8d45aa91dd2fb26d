import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli, runCliHere } from '../support/cli-process.js'

/**
 * `cors-dev-proxy check --openapi` on real files in a temp folder: the core's Petstore fixture
 * (servers `/v1` and `/api/{version}` → `/api/v2`), recording files as the proxy writes them, and
 * the exit codes (0 clean or usable, 1 violations, 2 usage, an unreadable or unusable document).
 * The first case runs the built binary, as CI does; the others `runCli` in this process.
 */

const PETSTORE = fileURLToPath(
  new URL('../../../core/test/contract/fixtures/petstore-3.0.yaml', import.meta.url),
)
const AT = '2026-01-01T00:00:00.000Z'
let cwd: string

beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), 'cdp-check-openapi-'))
  copyFileSync(PETSTORE, join(cwd, 'openapi.yaml'))
})

afterEach(() => {
  rmSync(cwd, { recursive: true, force: true })
})

interface Answer {
  readonly status: number
  readonly headers?: Record<string, string>
  readonly json?: unknown
}

/** Writes a recording file of the route folder `folder` under `rec/`. */
function record(
  folder: string,
  name: string,
  request: Record<string, unknown>,
  answers: readonly Answer[],
): void {
  mkdirSync(join(cwd, 'rec', folder), { recursive: true })
  const file = {
    version: 3,
    request,
    answers: answers.map((answer, index) => ({
      seq: index + 1,
      status: answer.status,
      headers: answer.headers ?? { 'content-type': 'application/json' },
      ...(answer.json === undefined ? {} : { body: { json: answer.json } }),
      recordedAt: AT,
    })),
  }
  writeFileSync(join(cwd, 'rec', folder, name), `${JSON.stringify(file, null, 2)}\n`)
}

/** A clean folder: a pet, a created pet (its JSON body as the key holds it), a list without its required header recorded. */
function recordClean(): void {
  record('api', 'GET-pets-7.0001.json', { method: 'GET', path: '/pets/7' }, [
    { status: 200, json: { id: 7, name: 'Rex' } },
  ])
  record('api', 'POST-pets.0002.json', { method: 'POST', path: '/pets', body: 'json {"name":"Rex"}' }, [
    { status: 201, json: { id: 8, name: 'Rex' } },
  ])
  // x-request-id is required by the document; the file does not hold request headers.
  record('api', 'GET-pets.0003.json', { method: 'GET', path: '/pets?limit=2' }, [
    { status: 200, headers: { 'content-type': 'application/json', 'x-next': 'b' }, json: [] },
  ])
}

const ROUTE = ['--route', '/api=http://127.0.0.1:3000/v1']

// Each run loads the parser and Ajv and compiles the document in this process: beside a second
// CPU-bound process the first one took longer than the integration project's 30 s.
describe('check --openapi --recordings', { timeout: 120_000 }, () => {
  it('exit 1 with the violating exchange named: file, call, operation, pointer (the built binary)', async () => {
    recordClean()
    record('api', 'GET-pets-9.0004.json', { method: 'GET', path: '/pets/9' }, [
      { status: 200, json: { id: 9, name: 'Tom' } },
      { status: 200, json: { id: 9 } },
    ])
    const result = await runCli(['check', '--openapi', 'openapi.yaml', '--recordings', 'rec', ...ROUTE], {
      cwd,
    })
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('check --openapi openapi.yaml (OpenAPI 3.0, 7 operations)')
    expect(result.stdout).toContain('5 exchanges checked in 4 files: 1 violation')
    expect(result.stdout).toContain(
      "rec/api/GET-pets-9.0004.json: GET /api/pets/9 → GET /pets/{petId}, response body: must have required property 'name' (answer 2)",
    )
    expect(result.stdout.match(/→/g)?.length).toBe(2) // the route line and the one violation
  })

  it('exit 0 over a clean folder, a required request header the file cannot hold not reported', async () => {
    recordClean()
    const result = await runCliHere(['check', '--openapi', 'openapi.yaml', '--recordings', 'rec', ...ROUTE], {
      cwd,
    })
    expect(result.stdout).toContain('3 exchanges checked in 3 files: no violations')
    expect(result.stdout).toContain('route /api → http://127.0.0.1:3000/v1, recordings in rec/api')
    expect(result.code).toBe(0)
  })

  it('a request body and a query break the document: request pointers; a masked value is counted, not reported', async () => {
    record('api', 'POST-pets.0001.json', { method: 'POST', path: '/pets', body: 'json {"name":5}' }, [
      { status: 201, json: { id: 8, name: 'Rex', weight: '[masked]' } },
    ])
    record('api', 'GET-pets.0002.json', { method: 'GET', path: '/pets?limit=500' }, [
      { status: 200, headers: { 'content-type': 'application/json', 'x-next': 'b' }, json: [] },
    ])
    const result = await runCliHere(
      ['check', '--openapi', 'openapi.yaml', '--recordings', 'rec', ...ROUTE, '--json'],
      { cwd },
    )
    expect(result.code).toBe(1)
    const report = JSON.parse(result.stdout) as {
      violations: { file: string; operation: string; in: string; pointer: string; message: string }[]
      maskedValues: number
      exitCode: number
    }
    expect(
      report.violations.map(({ file, operation, in: side, pointer }) => ({ file, operation, side, pointer })),
    ).toEqual(
      [
        {
          file: join('rec', 'api', 'POST-pets.0001.json'),
          operation: 'POST /pets',
          side: 'request',
          pointer: '/name',
        },
        {
          file: join('rec', 'api', 'GET-pets.0002.json'),
          operation: 'GET /pets',
          side: 'request',
          pointer: 'query.limit',
        },
      ].sort((a, b) => (a.file < b.file ? -1 : 1)),
    )
    expect(report.maskedValues).toBe(1)
    expect(report.exitCode).toBe(1)
  })

  it("maps paths through the config file's route: its pathRewrite and target, as the proxy does", async () => {
    // /api/pets/7 → pathRewrite → /api/v2/pets/7: the document's second server (/api/{version}).
    writeFileSync(
      join(cwd, 'cors-dev-proxy.config.json'),
      JSON.stringify({
        routes: { '/api': { target: 'http://127.0.0.1:3000', pathRewrite: { '^/api': '/api/v2' } } },
      }),
    )
    record('api', 'GET-pets-7.0001.json', { method: 'GET', path: '/pets/7' }, [{ status: 500, json: {} }])
    const result = await runCliHere(['check', '--openapi', 'openapi.yaml', '--recordings', 'rec'], { cwd })
    expect(result.stdout).toContain(
      'rec/api/GET-pets-7.0001.json: GET /api/pets/7 → GET /pets/{petId}, response status: status 500 is not declared by the document (it declares 200, 404)',
    )
    expect(result.code).toBe(1)
  })

  it('a recorded call no operation describes is a violation naming the methods the path has, with a hint when none matched', async () => {
    record('api', 'DELETE-pets-7.0001.json', { method: 'DELETE', path: '/pets/7' }, [{ status: 204 }])
    const result = await runCliHere(
      [
        'check',
        '--openapi',
        'openapi.yaml',
        '--recordings',
        'rec',
        '--route',
        '/api=http://127.0.0.1:3000/v1',
      ],
      { cwd },
    )
    expect(result.code).toBe(1)
    expect(result.stdout).toContain(
      'DELETE /api/pets/7 → (no operation), request path: no operation of the document matches DELETE /v1/pets/7 (the path has GET)',
    )
    const unmapped = await runCliHere(
      ['check', '--openapi', 'openapi.yaml', '--recordings', 'rec', '--route', '/api'],
      {
        cwd,
      },
    )
    expect(unmapped.code).toBe(1)
    expect(unmapped.stdout).toContain('no recorded request reached an operation')
  })
})

describe('check --openapi alone, and its mistakes', { timeout: 120_000 }, () => {
  it('exit 0 for a usable document', async () => {
    const result = await runCliHere(['check', '--openapi', 'openapi.yaml'], { cwd })
    expect(result.stdout).toContain('usable: every $ref resolves and every schema compiles')
    expect(result.code).toBe(0)
  })

  it('exit 2 naming an unresolvable $ref, and an invalid schema', async () => {
    writeFileSync(
      join(cwd, 'broken.yaml'),
      'openapi: 3.0.3\ninfo: { title: t, version: "1" }\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema: { $ref: "#/components/schemas/Gone" }\n',
    )
    const broken = await runCliHere(['check', '--openapi', 'broken.yaml'], { cwd })
    expect(broken.code).toBe(2)
    expect(broken.stderr).toContain('the document cannot be used for checking')
    expect(broken.stderr).toContain('#/components/schemas/Gone')
    writeFileSync(
      join(cwd, 'invalid.yaml'),
      'openapi: 3.0.3\ninfo: { title: t, version: "1" }\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema: { type: integr }\n',
    )
    const invalid = await runCliHere(['check', '--openapi', 'invalid.yaml', '--json'], { cwd })
    expect(invalid.code).toBe(2)
    const report = JSON.parse(invalid.stdout) as { usable: boolean; error: string }
    expect(report.usable).toBe(false)
    expect(report.error).toContain('invalid.yaml#/paths/~1a/get')
  })

  it('exit 2 for a document that cannot be read', async () => {
    const result = await runCliHere(['check', '--openapi', 'missing.yaml', '--recordings', 'rec', ...ROUTE], {
      cwd,
    })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('missing.yaml')
  })

  it.each([
    [['--recordings', 'rec'], '--recordings goes with --openapi'],
    [['http://127.0.0.1:3000/pets', '--openapi', 'openapi.yaml'], 'a URL belongs to the CORS check'],
    [
      ['--openapi', 'openapi.yaml', '--origin', 'http://localhost:5173'],
      '--origin belongs to the CORS check',
    ],
    [['--openapi', 'openapi.yaml', '--route', '/api'], 'give --recordings DIR too'],
    [['--openapi', 'openapi.yaml', '--recordings', 'rec'], 'without a config file, --route PREFIX says'],
    [
      ['--openapi', 'openapi.yaml', '--recordings', 'rec', '--route', '/api=ftp://x'],
      'needs an http:, https:, ws: or wss: URL',
    ],
  ])('exit 2 with a working example: check %j', async (args, message) => {
    recordClean()
    const result = await runCliHere(['check', ...args], { cwd })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(message)
    expect(result.stderr).toMatch(
      /example: cors-dev-proxy check --openapi \.\/openapi\.yaml --recordings \S+ --route \/api/,
    )
  })

  it('exit 2 for a file in the folder that is not a recording, named, the other files still checked', async () => {
    recordClean()
    writeFileSync(join(cwd, 'rec', 'api', 'GET-broken.0009.json'), '{ not json')
    const result = await runCliHere(['check', '--openapi', 'openapi.yaml', '--recordings', 'rec', ...ROUTE], {
      cwd,
    })
    expect(result.code).toBe(2)
    expect(result.stdout).toContain('3 exchanges checked in 4 files: no violations')
    expect(result.stdout).toContain(
      `Not recordings (unreadable, or edited into something else):\n${join('rec', 'api', 'GET-broken.0009.json')}`,
    )
  })

  it('exit 2 when the folder holds no recordings of the route', async () => {
    const result = await runCliHere(['check', '--openapi', 'openapi.yaml', '--recordings', 'rec', ...ROUTE], {
      cwd,
    })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`no recordings in ${join('rec', 'api')}`)
  })

  it('--help lists the flags with examples and the exit codes', async () => {
    const result = await runCliHere(['check', '--help'], { cwd })
    expect(result.stdout).toContain('--openapi DOCUMENT')
    expect(result.stdout).toContain('--recordings DIR')
    expect(result.stdout).toContain(
      'cors-dev-proxy check --openapi ./openapi.yaml --recordings cors-dev-proxy/recordings --route /api',
    )
    expect(result.stdout).toContain(
      '2 the arguments are wrong, the document is unreadable or unusable for checking',
    )
  })
})
