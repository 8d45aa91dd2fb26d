import { describe, expect, it } from 'vitest'
import { UsageError } from '../../src/args/usage-error.js'
import { mcpOrigin, runMcp } from '../../src/commands/mcp.js'

/*
 * `cors-dev-proxy mcp`'s flags, from the sources in this process: where the dev server's URL
 * comes from, and the mistakes, which `runCli` prints with exit code 2. The stdio server itself
 * runs from the built CLI in mcp-stdio.test.ts.
 */

async function run(argv: string[]) {
  let stdout = ''
  const code = await runMcp({
    argv,
    cwd: process.cwd(),
    io: { out: (text) => (stdout += text), err: () => {} },
  })
  return { code, stdout }
}

describe('cors-dev-proxy mcp', () => {
  it.each([
    ['http://localhost:5173', {}, 'http://localhost:5173'],
    ['https://localhost:8443/app/', {}, 'https://localhost:8443'],
    [undefined, { CORS_DEV_PROXY_URL: 'http://127.0.0.1:5173' }, 'http://127.0.0.1:5173'],
    ['http://localhost:3000', { CORS_DEV_PROXY_URL: 'http://127.0.0.1:5173' }, 'http://localhost:3000'],
  ])('--url %s with %o attaches to %s', (flag, env, origin) => {
    expect(mcpOrigin(flag, env)).toBe(origin)
  })

  it.each([
    [
      undefined,
      {},
      "mcp needs the dev server's URL: pass --url (CORS_DEV_PROXY_URL is not set in this environment)",
    ],
    ['localhost:5173', {}, '--url must be an http:// or https:// URL; got "localhost:5173"'],
    ['5173', {}, `--url must be the dev server's URL, like http://localhost:5173; got "5173"`],
    [
      undefined,
      { CORS_DEV_PROXY_URL: 'ws://localhost:5173' },
      'CORS_DEV_PROXY_URL must be an http:// or https:// URL',
    ],
  ])('--url %s with %o is refused with a working example', (flag, env, message) => {
    let thrown: unknown
    try {
      mcpOrigin(flag, env)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(UsageError)
    expect((thrown as UsageError).message).toContain(message)
    expect((thrown as UsageError).example).toBe('cors-dev-proxy mcp --url http://localhost:5173')
  })

  it('--help shows the flag, the agent configuration and examples', async () => {
    const { code, stdout } = await run(['--help'])
    expect(code).toBe(0)
    expect(stdout).toContain('Usage: cors-dev-proxy mcp [--url URL]')
    expect(stdout).toMatch(/^ {2}--url URL +the dev server's origin \(default: \$CORS_DEV_PROXY_URL/m)
    expect(stdout).toContain(
      '{ "mcpServers": { "cors-dev-proxy": { "command": "npx", "args": ["cors-dev-proxy", "mcp", "--url", "http://localhost:5173"] } } }',
    )
  })

  it('refuses an unknown flag with the closest one', async () => {
    await expect(run(['--uri', 'http://localhost:5173'])).rejects.toThrow(/--uri.*did you mean --url/)
  })
})
