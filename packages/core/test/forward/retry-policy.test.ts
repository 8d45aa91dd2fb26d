import { describe, expect, it } from 'vitest'
import type { RequestBody } from '../../src/forward/request-body.js'
import { isReplayable, mayRetry } from '../../src/forward/retry-policy.js'

const none: RequestBody = { kind: 'none' }
const parsed: RequestBody = { kind: 'parsed', bytes: Buffer.from('{"a":1}') }
const stream: RequestBody = { kind: 'stream' }

/** An error shaped as undici's and Node's: a code, a message. */
const error = (code: string, message = code) => Object.assign(new Error(message), { code })

describe('isReplayable', () => {
  it.each([
    ['GET', none, true],
    ['HEAD', none, true],
    ['OPTIONS', none, true],
    ['TRACE', none, true],
    ['PUT', parsed, true],
    ['DELETE', none, true],
    ['PUT', stream, false], // a streamed body is gone once sent
    ['POST', none, false], // RFC 9112 section 9.3.1: never a non-idempotent method
    ['PATCH', parsed, false],
    ['get', none, false], // method names are case-sensitive: not GET
    ['CONNECT', none, false],
  ] as const)('%s with a %o body: %s', (method, body, expected) => {
    expect(isReplayable(method, body)).toBe(expected)
  })
})

describe('mayRetry', () => {
  it.each([
    [error('UND_ERR_SOCKET', 'other side closed'), true],
    [error('UND_ERR_SOCKET', 'closed'), true],
    [error('ECONNRESET'), true],
    [error('EPIPE'), true],
    [new AggregateError([error('ECONNRESET')]), true],
    // An HTTP/2 stream refused as it opened (RFC 9113 section 8.7; Node's server out of memory).
    [error('ERR_HTTP2_STREAM_ERROR', 'Stream closed with error code NGHTTP2_REFUSED_STREAM'), true],
    [error('ERR_HTTP2_STREAM_ERROR', 'Stream closed with error code NGHTTP2_ENHANCE_YOUR_CALM'), true],
    [error('ERR_HTTP2_STREAM_ERROR', 'Stream closed with error code NGHTTP2_INTERNAL_ERROR'), false],
    [error('UND_ERR_SOCKET', 'bad response'), false], // the target answered (a 100 Continue)
    [error('UND_ERR_HEADERS_TIMEOUT'), false],
    [error('UND_ERR_ABORTED'), false],
    [error('ECONNREFUSED'), false],
    [error('HPE_INVALID_CONSTANT'), false],
    ['not an error', false],
  ])('a GET that failed with %o: %s', (failure, expected) => {
    expect(mayRetry('GET', none, failure)).toBe(expected)
  })

  it('never retries a POST, whatever the error', () => {
    expect(mayRetry('POST', none, error('UND_ERR_SOCKET', 'other side closed'))).toBe(false)
  })
})
