import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { runCli, runCliHere } from './support/cli-process.js'

/**
 * The command line as a whole: version, help, unknown commands. `runCli` runs from the sources in
 * this process (runCliHere); the run without a command is the built binary's, in a child process,
 * for its exit code.
 */

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string
}
const COMMANDS = ['serve', 'mock', 'check', 'nginx', 'caddy', 'import-har', 'export-msw', 'mcp']

describe.concurrent('cors-dev-proxy', () => {
  it.each([['--version'], ['-v']])('%s prints the version of the package', async (flag) => {
    const result = await runCliHere([flag])
    expect(result).toMatchObject({ code: 0, stdout: `${version}\n` })
  })

  it('--help lists every command', async () => {
    const result = await runCliHere(['--help'])
    expect(result.code).toBe(0)
    for (const command of [...COMMANDS, 'recordings verify'])
      expect(result.stdout).toMatch(new RegExp(`^  ${command} +\\S`, 'm'))
  })

  it('without a command prints the help and exits 2', async () => {
    const result = await runCli([])
    expect(result.code).toBe(2)
    expect(result.stdout).toContain('Usage: cors-dev-proxy <command> [flags]')
  })

  it.each(COMMANDS)('%s --help prints its usage, flags and examples', async (command) => {
    const result = await runCliHere([command, '--help'])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(`Usage: cors-dev-proxy ${command}`)
    expect(result.stdout).toMatch(/^Flags:$/m)
    expect(result.stdout).toMatch(/^ {2}-h, --help +show this help$/m)
    expect(result.stdout).toMatch(new RegExp(`^Examples:\\n {2}cors-dev-proxy ${command} `, 'm'))
  })

  it('suggests the command meant, exit 2', async () => {
    const result = await runCliHere(['serv', '--port', '0'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('unknown command "serv": did you mean serve?')
    expect(result.stderr).toContain('example: cors-dev-proxy serve --help')
  })

  it('recordings verify --help prints its usage; a mistake exits 2 naming the flag and a fix', async () => {
    const help = await runCliHere(['recordings', 'verify', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('Usage: cors-dev-proxy recordings verify --route PREFIX --target URL')
    expect(help.stdout).toMatch(/^Examples:\n {2}cors-dev-proxy recordings verify /m)
    const mistake = await runCliHere([
      'recordings',
      'verify',
      '--route',
      '/api',
      '--tagret',
      'http://127.0.0.1:3000',
    ])
    expect(mistake.code).toBe(2)
    expect(mistake.stderr).toContain('unknown flag --tagret for `recordings verify`: did you mean --target?')
    expect(mistake.stderr).toContain(
      'example: cors-dev-proxy recordings verify --route /api --target https://',
    )
    expect(mistake.stderr).toContain('see: cors-dev-proxy recordings verify --help')
  })

  it('export-msw: an unknown flag is named with the one meant, exit 2', async () => {
    const result = await runCliHere(['export-msw', '--rute', '/api'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--rute')
    expect(result.stderr).toContain('did you mean --route?')
    expect(result.stderr).toContain('example: cors-dev-proxy export-msw --route /api')
  })

  it('explains that a command comes first, exit 2', async () => {
    const result = await runCliHere(['--port', '8080'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--port is not a global flag: a command comes first')
  })
})
