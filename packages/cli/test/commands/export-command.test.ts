import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import type { ExportOptions } from '../../src/export/export-options.js'
import type { CliIo } from '../../src/io.js'

/**
 * `nginx` and `caddy` in process, with the renderers replaced: the commands read the flags and
 * the configuration, resolve it with the core and print exactly what the renderer returns (the
 * renderers have tests of their own).
 */

const calls = vi.hoisted(() => [] as Array<{ renderer: string; prefixes: string[]; options: ExportOptions }>)
vi.mock('../../src/export/nginx.js', () => ({
  renderNginx: (resolved: { routes: Array<{ prefix: string }> }, options: ExportOptions) => {
    calls.push({ renderer: 'nginx', prefixes: resolved.routes.map((route) => route.prefix), options })
    return 'server { # rendered by nginx }\n'
  },
}))
vi.mock('../../src/export/caddy.js', () => ({
  renderCaddy: (resolved: { routes: Array<{ prefix: string }> }, options: ExportOptions) => {
    calls.push({ renderer: 'caddy', prefixes: resolved.routes.map((route) => route.prefix), options })
    return ':8080 { # rendered by caddy }\n'
  },
}))

const { runCli } = await import('../../src/cli.js')

async function run(argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const io: CliIo = { out: (text) => out.push(text), err: (text) => err.push(text) }
  const code = await runCli(argv, { io, cwd: '/nonexistent-cors-dev-proxy-test' })
  return { code, out: out.join(''), err: err.join('') }
}

describe.each([
  ['nginx', 'server { # rendered by nginx }\n'],
  ['caddy', ':8080 { # rendered by caddy }\n'],
])('%s', (command, rendered) => {
  it('prints what the renderer returns for the resolved routes, longest prefix first', async () => {
    calls.length = 0
    const result = await run([
      command,
      '--route',
      '/api=http://127.0.0.1:3000',
      '--route',
      '/api/v2=http://127.0.0.1:3001',
      '--listen',
      '127.0.0.1:9000',
      '--server-name',
      'app.example.test',
    ])
    expect(result).toEqual({ code: 0, out: rendered, err: '' })
    expect(calls).toEqual([
      {
        renderer: command,
        prefixes: ['/api/v2', '/api'],
        options: { listen: '127.0.0.1:9000', serverName: 'app.example.test' },
      },
    ])
  })

  it('listens on 8080 without a server name by default', async () => {
    calls.length = 0
    await run([command, '--route', '/api=http://127.0.0.1:3000'])
    expect(calls[0]?.options).toEqual({ listen: '8080', serverName: undefined })
  })

  it.each(['8080', '[::1]:8080', 'localhost:80', '0.0.0.0:65535'])('takes --listen %s', async (listen) => {
    const result = await run([command, '--route', '/api=http://127.0.0.1:3000', '--listen', listen])
    expect(result.code).toBe(0)
  })

  it.each([
    [['--listen', '0'], '--listen must be a port (8080) or an address and a port (127.0.0.1:8080), got "0"'],
    [['--listen', 'localhost'], '--listen must be a port'],
    [['--listen', '127.0.0.1:99999'], '--listen must be a port'],
    [['--route', '/api'], '--route must be PREFIX=TARGET'],
    [[], 'no routes to export'],
    [['--route', '/api=http://127.0.0.1:3000', '--lisen', '80'], 'did you mean --listen?'],
  ])('refuses %j with exit 2 and an example', async (args, message) => {
    calls.length = 0
    const result = await run([command, ...args])
    expect(result.code).toBe(2)
    expect(result.err).toContain(message)
    expect(result.err).toContain(`example: cors-dev-proxy ${command} `)
    expect(calls).toEqual([])
  })

  it('warns on stderr, one line per dev-time option, and still prints the export', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdp-export-'))
    try {
      writeFileSync(
        join(dir, 'cors-dev-proxy.config.json'),
        JSON.stringify({
          routes: {
            '/api': {
              targets: { local: 'http://127.0.0.1:3000', staging: 'http://127.0.0.1:4000' },
              latency: 300,
            },
            '/rec': { target: 'http://127.0.0.1:3000', record: true },
          },
        }),
      )
      const out: string[] = []
      const err: string[] = []
      const io: CliIo = { out: (text) => out.push(text), err: (text) => err.push(text) }
      expect(await runCli([command], { io, cwd: dir })).toBe(0)
      expect(out.join('')).toBe(rendered)
      expect(err).toEqual([
        "[cors-dev-proxy] routes['/api'].targets: exported with the target in use, 'local' (http://127.0.0.1:3000/) of local, staging; for another, export with CORS_DEV_PROXY_TARGETS=/api=<name>.",
        "[cors-dev-proxy] routes['/api'].latency: not exported (a dev-time fault), requests are forwarded without delay.",
        "[cors-dev-proxy] routes['/rec'].record: not exported, nothing is recorded.",
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("reports the core's configuration error, naming the flag behind it", async () => {
    const result = await run([
      command,
      '--route',
      '/api=http://127.0.0.1:3000',
      '--cors-origin',
      '*',
      '--cors-credentials',
    ])
    expect(result.code).toBe(2)
    expect(result.err).toContain("options.cors.origin is '*' with `credentials: true`")
    expect(result.err).toContain('Set on the command line by: --cors-origin * --cors-credentials')
  })
})
