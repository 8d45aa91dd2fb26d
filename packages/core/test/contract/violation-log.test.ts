import { describe, expect, it } from 'vitest'
import { captureLogSink } from '../../../../test/support/servers.js'
import { createViolationLog } from '../../src/contract/violation-log.js'
import { createLogger } from '../../src/log/logger.js'

describe('the violation log', () => {
  it('counts the checks still running, never below zero', () => {
    const log = createViolationLog(createLogger('silent', captureLogSink()))
    expect(log.pending).toBe(0)
    log.running(1)
    log.running(1)
    expect(log.pending).toBe(2)
    log.running(-1)
    log.running(-1)
    log.running(-1)
    expect(log.pending).toBe(0)
  })
})
