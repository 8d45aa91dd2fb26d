import { stripVTControlCharacters } from 'node:util'
import pc from 'picocolors'
import { describe, expect, it } from 'vitest'
import type { LogLevel, LogSink } from '../../src/config/options.js'
import { createLogger } from '../../src/log/logger.js'

/** A sink that records `[stream, plain text]` pairs (colours stripped: they follow the terminal). */
function capture(): LogSink & { lines: Array<[keyof LogSink, string]> } {
  const lines: Array<[keyof LogSink, string]> = []
  return {
    lines,
    info: (message) => lines.push(['info', stripVTControlCharacters(message)]),
    warn: (message) => lines.push(['warn', stripVTControlCharacters(message)]),
    error: (message) => lines.push(['error', stripVTControlCharacters(message)]),
  }
}

function logEveryLevel(level: LogLevel) {
  const sink = capture()
  const logger = createLogger(level, sink)
  logger.debug('d')
  logger.info('i')
  logger.warn('w')
  logger.error('e')
  return sink.lines
}

describe('createLogger: level filter', () => {
  it.each<[LogLevel, string[]]>([
    ['silent', []],
    ['error', ['e']],
    ['warn', ['w', 'e']],
    ['info', ['i', 'w', 'e']],
    ['debug', ['d', 'i', 'w', 'e']],
  ])('%s prints %j', (level, expected) => {
    expect(logEveryLevel(level).map(([, line]) => line.replace('[cors-dev-proxy] ', ''))).toEqual(expected)
  })

  it('tags every line and writes each level to its stream (debug goes to info)', () => {
    expect(logEveryLevel('debug')).toEqual([
      ['info', '[cors-dev-proxy] d'],
      ['info', '[cors-dev-proxy] i'],
      ['warn', '[cors-dev-proxy] w'],
      ['error', '[cors-dev-proxy] e'],
    ])
  })

  it("colours the tag by level with picocolors' own detection", () => {
    const raw: string[] = []
    const logger = createLogger('info', {
      info: (m) => raw.push(m),
      warn: (m) => raw.push(m),
      error: (m) => raw.push(m),
    })
    logger.info('i')
    logger.warn('w')
    logger.error('e')
    expect(raw).toEqual([
      `${pc.cyan('[cors-dev-proxy]')} i`,
      `${pc.yellow('[cors-dev-proxy]')} w`,
      `${pc.red('[cors-dev-proxy]')} e`,
    ])
  })

  it('exposes its level', () => {
    expect(createLogger('warn', capture()).level).toBe('warn')
  })
})

describe('createLogger: de-duplication', () => {
  it('prints a keyed line once, then a summary with the count on the next different event', () => {
    const sink = capture()
    const logger = createLogger('info', sink)
    for (let i = 0; i < 13; i++) logger.error('connection refused: http://127.0.0.1:1', 'refused 1')
    expect(sink.lines).toEqual([['error', '[cors-dev-proxy] connection refused: http://127.0.0.1:1']])
    logger.info('next')
    expect(sink.lines).toEqual([
      ['error', '[cors-dev-proxy] connection refused: http://127.0.0.1:1'],
      ['error', '[cors-dev-proxy] connection refused: http://127.0.0.1:1 (repeated 12 times)'],
      ['info', '[cors-dev-proxy] next'],
    ])
  })

  it('prints the summary on flush, with the singular for one repeat', () => {
    const sink = capture()
    const logger = createLogger('info', sink)
    logger.warn('blocked', 'cors a')
    logger.warn('blocked', 'cors a')
    logger.flush()
    expect(sink.lines).toEqual([
      ['warn', '[cors-dev-proxy] blocked'],
      ['warn', '[cors-dev-proxy] blocked (repeated 1 time)'],
    ])
  })

  it('keeps one line per cause when causes interleave', () => {
    const sink = capture()
    const logger = createLogger('info', sink)
    for (let i = 0; i < 5; i++) {
      logger.error('refused A', 'A')
      logger.warn('blocked B', 'B')
    }
    expect(sink.lines.map(([, line]) => line)).toEqual([
      '[cors-dev-proxy] refused A',
      '[cors-dev-proxy] blocked B',
    ])
    logger.flush()
    expect(sink.lines.map(([, line]) => line)).toEqual([
      '[cors-dev-proxy] refused A',
      '[cors-dev-proxy] blocked B',
      '[cors-dev-proxy] refused A (repeated 4 times)',
      '[cors-dev-proxy] blocked B (repeated 4 times)',
    ])
  })

  it('prints pending summaries before a new key, and counts afresh after a summary', () => {
    const sink = capture()
    const logger = createLogger('info', sink)
    logger.error('A', 'A')
    logger.error('A', 'A')
    logger.error('C', 'C')
    logger.error('A', 'A')
    logger.error('A', 'A')
    logger.flush()
    expect(sink.lines.map(([, line]) => line.replace('[cors-dev-proxy] ', ''))).toEqual([
      'A',
      'A (repeated 1 time)',
      'C',
      'A (repeated 2 times)',
    ])
  })

  it('forgets keys on flush, so the next occurrence prints in full', () => {
    const sink = capture()
    const logger = createLogger('info', sink)
    logger.error('A', 'A')
    logger.flush()
    logger.error('A', 'A')
    expect(sink.lines.map(([, line]) => line)).toEqual(['[cors-dev-proxy] A', '[cors-dev-proxy] A'])
  })

  it('never de-duplicates lines without a key', () => {
    const sink = capture()
    const logger = createLogger('info', sink)
    logger.error('same')
    logger.error('same')
    logger.warn('same')
    logger.warn('same')
    expect(sink.lines).toHaveLength(4)
  })

  it('neither prints nor counts lines below the level', () => {
    const sink = capture()
    const logger = createLogger('error', sink)
    logger.warn('hidden', 'k')
    logger.warn('hidden', 'k')
    logger.flush()
    expect(sink.lines).toEqual([])
  })

  it('prints nothing on flush when nothing repeated', () => {
    const sink = capture()
    const logger = createLogger('info', sink)
    logger.error('once', 'k')
    logger.flush()
    logger.flush()
    expect(sink.lines).toHaveLength(1)
  })

  it('bounds the remembered keys (the oldest is forgotten first)', () => {
    const sink = capture()
    const logger = createLogger('info', sink)
    for (let i = 0; i < 300; i++) logger.error(`cause ${i}`, `key ${i}`)
    // key 0 was evicted, so it prints again; key 299 is still remembered.
    logger.error('cause 0', 'key 0')
    logger.error('cause 299', 'key 299')
    expect(sink.lines).toHaveLength(301)
    expect(sink.lines.at(-1)?.[1]).toBe('[cors-dev-proxy] cause 0')
  })
})

describe('createLogger: limited lines', () => {
  function clocked(level: LogLevel = 'info') {
    let time = 0
    const sink = capture()
    const logger = createLogger(level, sink, { now: () => time })
    return {
      sink,
      logger,
      advance(ms: number) {
        time += ms
      },
      text: () => sink.lines.map(([stream, line]) => `${stream} ${line.replace('[cors-dev-proxy] ', '')}`),
    }
  }

  it('prints one line per key every 10 s, with the count of the folded ones on the next', () => {
    const { logger, advance, text } = clocked()
    for (let i = 0; i < 300; i++)
      logger.limited('warn', 'cors /api refused', () => `origin ${i} refused\n  fix`)
    expect(text()).toEqual(['warn origin 0 refused\n  fix'])
    advance(10_000)
    logger.limited('warn', 'cors /api refused', () => 'origin 300 refused\n  fix')
    expect(text()).toEqual([
      'warn origin 0 refused\n  fix',
      'warn origin 300 refused (… and 299 more like it in the last 10 s)\n  fix',
    ])
  })

  it('sums up on flush what is still folded, on the stream of its severity, by the first line of the last printed', () => {
    const { logger, advance, text } = clocked()
    logger.limited('error', 'gate', () => 'bypass threw\n  detail')
    logger.limited('error', 'gate', () => 'bypass threw again')
    advance(2_000)
    logger.flush()
    expect(text()).toEqual([
      'error bypass threw\n  detail',
      'error bypass threw (… and 1 more like it in the last 2 s)',
    ])
  })

  it('neither prints nor builds lines below the level', () => {
    const { logger, sink } = clocked('error')
    let built = 0
    logger.limited('warn', 'k', () => `line ${++built}`)
    logger.flush()
    expect(sink.lines).toEqual([])
    expect(built).toBe(0)
  })
})
