import { createServer } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { captureLogSink, listen, sendRequest } from '../../../../test/support/servers.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { createFailureLog } from '../../src/forward/failure-log.js'
import { createUpstreamPool } from '../../src/forward/upstream-pool.js'
import { createLogger } from '../../src/log/logger.js'
import { createRoutePipeline } from '../../src/proxy/create-route-pipeline.js'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

describe('createRoutePipeline', () => {
  it('forwards a route with a target', async () => {
    const target = await listen(
      createServer((request, response) => response.end(`target got ${request.url}`)),
    )
    cleanup.push(target.close)
    const [route] = resolveOptions({ '/api': target.url }).routes
    if (!route) throw new Error('one route')
    const pool = createUpstreamPool()
    cleanup.push(() => pool.close())
    const logger = createLogger('silent', captureLogSink())
    const { run } = createRoutePipeline(route, { pool, logger, failures: createFailureLog(logger) })
    const front = await listen(
      createServer((request, response) => run(request, response, request.url ?? '/', () => undefined)),
    )
    cleanup.push(front.close)
    expect((await sendRequest(`${front.url}/api/users`)).body.toString()).toBe('target got /users')
  })
})
