import { describe, expect, it } from 'vitest'
import type { CommandSpec } from '../../src/args/command-spec.js'
import { closestName } from '../../src/args/did-you-mean.js'
import { formatHelp } from '../../src/args/format-help.js'
import { parseFlags } from '../../src/args/parse-flags.js'
import { UsageError } from '../../src/args/usage-error.js'

const spec: CommandSpec = {
  name: 'serve',
  summary: 'test command',
  usage: 'cors-dev-proxy serve [flags]',
  positionals: [{ name: '<url>', description: 'a URL' }],
  flags: {
    port: { type: 'string', value: 'PORT', description: 'port', example: '--port 8080' },
    route: {
      type: 'string',
      multiple: true,
      value: 'PREFIX=TARGET',
      description: 'route',
      example: '--route /api=http://x',
    },
    https: { type: 'boolean', description: 'tls' },
    credentials: { type: 'boolean', description: 'credentials' },
  },
  examples: ['cors-dev-proxy serve --port 8080'],
}

function usageError(argv: string[]): UsageError {
  try {
    parseFlags(spec, argv)
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    return error as UsageError
  }
  throw new Error(`no error for ${argv.join(' ')}`)
}

describe('parseFlags', () => {
  it('reads values, repeated values, booleans and positionals', () => {
    const flags = parseFlags(spec, [
      'http://x',
      '--port=0',
      '--route',
      '/a=http://a',
      '--route',
      '/b=http://b',
      '--https',
    ])
    expect(flags.positionals).toEqual(['http://x'])
    expect(flags.string('port')).toBe('0')
    expect(flags.strings('route')).toEqual(['/a=http://a', '/b=http://b'])
    expect(flags.boolean('https')).toBe(true)
    expect(flags.boolean('credentials')).toBe(false)
    expect(flags.has('route')).toBe(true)
    expect(flags.help).toBe(false)
  })

  it('keeps the last value of a single flag given twice', () => {
    expect(parseFlags(spec, ['--port', '1', '--port', '2']).string('port')).toBe('2')
  })

  it.each([['--help'], ['-h'], ['--port', '1', '--help', 'a', 'b']])(
    'sees %j as a request for help',
    (...argv) => {
      expect(parseFlags(spec, argv).help).toBe(true)
    },
  )

  it.each([
    [
      ['--prot', '8080'],
      'unknown flag --prot for `serve`: did you mean --port?',
      'cors-dev-proxy serve --port 8080',
    ],
    [['--rout', '/a=b'], 'did you mean --route?', 'cors-dev-proxy serve --route /api=http://x'],
    [['--cred'], 'did you mean --credentials?', undefined],
    [['--bogus'], 'unknown flag --bogus for `serve`', 'cors-dev-proxy serve --port 8080'],
    [['--port'], '--port needs a value: --port PORT', 'cors-dev-proxy serve --port 8080'],
    [['--port', '--https'], '--port needs a value', 'cors-dev-proxy serve --port 8080'],
    [['--https=no'], '--https takes no value (got --https=no): write --https alone', undefined],
    [['a', 'b'], 'too many arguments for `serve`: "b"', 'cors-dev-proxy serve --port 8080'],
  ])('%j is a usage error that says so, with an example', (argv, message, example) => {
    const error = usageError(argv)
    expect(error.message).toContain(message)
    expect(error.message).not.toContain('did you mean --help')
    if (example !== undefined) expect(error.example).toBe(example)
  })

  it('accepts a value that starts with "-" when written with =', () => {
    expect(parseFlags(spec, ['--port=-1']).string('port')).toBe('-1')
  })
})

describe('closestName', () => {
  it.each([
    ['prot', 'port'],
    ['PORT', 'port'],
    ['rotue', 'route'],
    ['htps', 'https'],
    ['cred', 'credentials'],
    ['zzzz', undefined],
    ['x', undefined],
  ])('%s → %s', (input, expected) => {
    expect(closestName(input, ['port', 'route', 'https', 'credentials'])).toBe(expected)
  })
})

describe('formatHelp', () => {
  it('lists the usage, every flag with its value, default and repeatability, and the examples', () => {
    const help = formatHelp({
      ...spec,
      flags: { ...spec.flags, port: { ...spec.flags.port!, default: '8080' } },
    })
    expect(help).toContain('Usage: cors-dev-proxy serve [flags]')
    expect(help).toMatch(/--port PORT +port \(default: 8080\)/)
    expect(help).toMatch(/--route PREFIX=TARGET +route \(repeatable\)/)
    expect(help).toMatch(/-h, --help +show this help/)
    expect(help).toContain('  cors-dev-proxy serve --port 8080')
  })
})
