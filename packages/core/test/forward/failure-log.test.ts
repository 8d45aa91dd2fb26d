import { describe, expect, it } from 'vitest'
import { captureLogSink } from '../../../../test/support/servers.js'
import { createFailureLog, FAILURE_SUMMARY_INTERVAL_MS } from '../../src/forward/failure-log.js'
import type { UpstreamFailure } from '../../src/forward/proxy-error.js'
import { createLogger } from '../../src/log/logger.js'

const TARGET = 'http://127.0.0.1:3000'
const refused: UpstreamFailure = {
  status: 502,
  cause: 'connection refused',
  hint: 'is the server running?',
  code: 'ECONNREFUSED',
}
const timeout: UpstreamFailure = {
  status: 504,
  cause: 'no answer in time',
  hint: 'the server took too long',
  code: undefined,
}

function setup() {
  const sink = captureLogSink()
  let time = 1_000_000
  const failures = createFailureLog(createLogger('info', sink), () => time)
  return {
    failures,
    lines: () => sink.lines.map((line) => line.message.replace('[cors-dev-proxy] ', '')),
    advance: (ms: number) => {
      time += ms
    },
  }
}

const get = (url: string) => ({ method: 'GET', url })

describe('createFailureLog', () => {
  it('prints the first failure at once, then at most one summary per interval while the target keeps failing', () => {
    const { failures, lines, advance } = setup()
    failures.failed(refused, TARGET, get('/api/a'))
    for (let i = 0; i < 5; i++) {
      advance(1000)
      failures.failed(refused, TARGET, get(`/api/${i}`))
    }
    expect(lines()).toEqual([`502 GET /api/a → ${TARGET}: connection refused (is the server running?)`])
    advance(FAILURE_SUMMARY_INTERVAL_MS)
    failures.failed(refused, TARGET, get('/api/late'))
    expect(lines()[1]).toBe(
      `${TARGET} still failing: 6 more requests in 15 s (connection refused; /api/0, /api/1, /api/2, /api/3, /api/4)`,
    )
    expect(lines()).toHaveLength(2)
  })

  it('says once when the target answers again, and reports a later outage at once', () => {
    const { failures, lines, advance } = setup()
    failures.failed(refused, TARGET, get('/api/a'))
    failures.failed(refused, TARGET, get('/api/b'))
    advance(3000)
    failures.answered(TARGET)
    failures.answered(TARGET)
    expect(lines()[1]).toBe(`${TARGET} answers again, after 2 failed requests in 3 s`)
    advance(3_600_000)
    failures.failed(refused, TARGET, get('/api/c'))
    expect(lines()[2]).toBe(`502 GET /api/c → ${TARGET}: connection refused (is the server running?)`)
    expect(lines()).toHaveLength(3)
  })

  it('reports a new cause at once, after summarising the old one', () => {
    const { failures, lines } = setup()
    failures.failed(refused, TARGET, get('/api/a'))
    failures.failed(refused, TARGET, get('/api/b'))
    failures.failed(timeout, TARGET, get('/api/c'))
    expect(lines()).toEqual([
      `502 GET /api/a → ${TARGET}: connection refused (is the server running?)`,
      `${TARGET} still failing: 1 more request in 1 s (connection refused; /api/b)`,
      `504 GET /api/c → ${TARGET}: no answer in time (the server took too long)`,
    ])
  })

  it('keeps targets apart, and summarises what is pending on flush', () => {
    const { failures, lines } = setup()
    failures.failed(refused, TARGET, get('/a'))
    failures.failed(refused, 'http://127.0.0.1:4000', get('/b'))
    failures.failed(refused, TARGET, get('/a2'))
    failures.flush()
    expect(lines()).toHaveLength(3)
    expect(lines()[2]).toContain(`${TARGET} still failing: 1 more request`)
    failures.flush()
    expect(lines()).toHaveLength(3)
  })
})

describe('failures through a real proxy', () => {
  it('reports an outage at once and the recovery in one line', async () => {
    const { createServer } = await import('node:http')
    const { serveProxy } = await import('../../../../test/support/proxy-server.js')
    const { listen, sendRequest } = await import('../../../../test/support/servers.js')
    let down = true
    const target = await listen(
      createServer((req, res) => {
        if (down) req.socket.destroy()
        else res.end('up')
      }),
    )
    const sink = captureLogSink()
    const proxy = await serveProxy({ '/api': target.url }, { logger: sink })
    try {
      for (let i = 0; i < 3; i++) expect((await sendRequest(`${proxy.url}/api/x${i}`)).status).toBe(502)
      down = false
      expect((await sendRequest(`${proxy.url}/api/y`)).status).toBe(200)
      expect((await sendRequest(`${proxy.url}/api/z`)).status).toBe(200)
      const lines = sink.lines.map((line) => line.message)
      expect(lines.filter((line) => line.includes(`→ ${target.url}:`))).toHaveLength(1)
      expect(lines.filter((line) => line.includes('answers again'))).toEqual([
        expect.stringMatching(
          new RegExp(`${target.url.replaceAll('.', '\\.')} answers again, after 3 failed requests in \\d+ s`),
        ),
      ])
    } finally {
      await proxy.close()
      await target.close()
    }
  })
})
