import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'

/**
 * Answers a raw socket (an upgrade nobody takes, or one refused) with a complete HTTP/1.1
 * response and closes it: an upgrade has no `ServerResponse` to answer on, and leaving the
 * socket alone would make the client hang. The one writer of a raw answer: the core's upgrade and
 * CONNECT refusals and the CLI's `serve` use it (through `@cors-dev-proxy/core/adapter`).
 *
 * `headers`: more fields, names and values written by the caller (never request text).
 *
 * @example
 * answerSocket(socket, 403, 'Invalid Host header')
 */
export function answerSocket(
  socket: Duplex,
  status: number,
  body: string,
  headers: readonly (readonly [string, string])[] = [],
): void {
  socket.on('error', () => socket.destroy())
  const extra = headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  )
}
