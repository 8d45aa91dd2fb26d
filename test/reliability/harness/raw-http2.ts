import { connect } from 'node:tls'

/**
 * A raw HTTP/2 client over TLS, for requests `node:http2` refuses to send: a `:path` without a
 * slash, a pseudo-header twice or after a regular field, connection-specific fields, uppercase
 * names. Requests are HPACK-encoded as literals without indexing (RFC 7541 section 6.2.2), which
 * any decoder accepts; only the `:status` of the answer is decoded (see {@link decodeStatus}).
 */

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1')

/** Frame types (RFC 9113 section 6). */
const FRAME = {
  DATA: 0,
  HEADERS: 1,
  RST_STREAM: 3,
  SETTINGS: 4,
  PING: 6,
  GOAWAY: 7,
  CONTINUATION: 9,
} as const

/** The largest frame payload a peer must accept before any SETTINGS (RFC 9113 section 4.2). */
const MAX_FRAME = 16_384
const FLAG = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4 } as const

function frame(type: number, flags: number, stream: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(9)
  head.writeUIntBE(payload.length, 0, 3)
  head.writeUInt8(type, 3)
  head.writeUInt8(flags, 4)
  head.writeUInt32BE(stream & 0x7fffffff, 5)
  return Buffer.concat([head, payload])
}

/**
 * A header block as HEADERS then CONTINUATION frames of at most 16 KiB each, END_HEADERS on
 * the last (RFC 9113 section 6.10).
 */
function headerFrames(block: Buffer, endStream: boolean): Buffer[] {
  const frames: Buffer[] = []
  for (let offset = 0; offset === 0 || offset < block.length; offset += MAX_FRAME) {
    const last = offset + MAX_FRAME >= block.length
    const type = offset === 0 ? FRAME.HEADERS : FRAME.CONTINUATION
    const flags = (last ? FLAG.END_HEADERS : 0) | (offset === 0 && endStream ? FLAG.END_STREAM : 0)
    frames.push(frame(type, flags, 1, block.subarray(offset, offset + MAX_FRAME)))
  }
  return frames
}

/** An HPACK integer with an `n`-bit prefix (RFC 7541 section 5.1), first byte ORed with `mask`. */
function hpackInteger(value: number, bits: number, mask: number): number[] {
  const max = (1 << bits) - 1
  if (value < max) return [mask | value]
  const bytes = [mask | max]
  let rest = value - max
  while (rest >= 128) {
    bytes.push((rest % 128) + 128)
    rest = Math.floor(rest / 128)
  }
  bytes.push(rest)
  return bytes
}

function hpackString(text: string): Buffer {
  const bytes = Buffer.from(text, 'latin1')
  return Buffer.concat([Buffer.from(hpackInteger(bytes.length, 7, 0)), bytes])
}

/** Header fields as an HPACK block of literals without indexing, names and values exactly as given. */
export function encodeHeaderBlock(fields: ReadonlyArray<readonly [string, string]>): Buffer {
  return Buffer.concat(
    fields.flatMap(([name, value]) => [Buffer.from([0]), hpackString(name), hpackString(value)]),
  )
}

/** The HPACK static table's `:status` entries (RFC 7541 Appendix A). */
const STATIC_STATUS: Readonly<Record<number, number>> = {
  8: 200,
  9: 204,
  10: 206,
  11: 304,
  12: 400,
  13: 404,
  14: 500,
}

/** Huffman codes of the ten digits (RFC 7541 Appendix B): `[code, bit length]`. */
const DIGIT_CODES: ReadonlyArray<readonly [number, number]> = [
  [0b00000, 5],
  [0b00001, 5],
  [0b00010, 5],
  [0b011001, 6],
  [0b011010, 6],
  [0b011011, 6],
  [0b011100, 6],
  [0b011101, 6],
  [0b011110, 6],
  [0b011111, 6],
]

function huffmanDigits(bytes: Buffer): string {
  let bits = ''
  for (const byte of bytes) bits += byte.toString(2).padStart(8, '0')
  let digits = ''
  let position = 0
  while (digits.length < 3 && position < bits.length) {
    const match = DIGIT_CODES.findIndex(
      ([code, length]) => bits.slice(position, position + length) === code.toString(2).padStart(length, '0'),
    )
    if (match === -1) break
    digits += String(match)
    position += (DIGIT_CODES[match] as readonly [number, number])[1]
  }
  return digits
}

function readInteger(block: Buffer, offset: number, bits: number): [value: number, next: number] {
  const max = (1 << bits) - 1
  let value = (block[offset] as number) & max
  let next = offset + 1
  if (value < max) return [value, next]
  let shift = 0
  for (;;) {
    const byte = block[next++] as number
    value += (byte & 127) * 2 ** shift
    shift += 7
    if ((byte & 128) === 0 || shift > 28) return [value, next]
  }
}

/**
 * The `:status` of a response header block, which servers send first (RFC 9113 section
 * 8.3): an indexed static entry, or a literal whose name is a static `:status` entry and whose
 * value is plain or Huffman-coded digits. `0` when the block starts otherwise.
 */
export function decodeStatus(block: Buffer): number {
  let offset = 0
  // Dynamic table size updates (001xxxxx) may come first.
  while (offset < block.length && ((block[offset] as number) & 0xe0) === 0x20) {
    offset = readInteger(block, offset, 5)[1]
  }
  const first = block[offset] as number
  if (first & 0x80) return STATIC_STATUS[readInteger(block, offset, 7)[0]] ?? 0
  const bits = first & 0x40 ? 6 : 4
  const [nameIndex, afterName] = readInteger(block, offset, bits)
  if (STATIC_STATUS[nameIndex] === undefined) return 0
  const huffman = ((block[afterName] as number) & 0x80) !== 0
  const [length, start] = readInteger(block, afterName, 7)
  const raw = block.subarray(start, start + length)
  return Number(huffman ? huffmanDigits(raw) : raw.toString('latin1'))
}

/** How one raw HTTP/2 request ended. */
export interface H2Outcome {
  /** The response's `:status`, or `0` when no response head came. */
  readonly status: number
  /** The RST_STREAM error code the server reset the stream with, if it did. */
  readonly reset: number | undefined
  /** The GOAWAY error code, if the server sent one. */
  readonly goaway: number | undefined
  /** The connection closed before the stream ended. */
  readonly closed: boolean
  readonly timedOut: boolean
  /** The response body, when there was one. */
  readonly body: string
  readonly ms: number
}

/** Options of {@link h2Exchange}. */
export interface H2ExchangeOptions {
  /** @default 3000 */
  readonly timeoutMs?: number
  /** A body to send in one DATA frame (the HEADERS frame then does not end the stream). */
  readonly body?: string
}

/**
 * Opens a TLS connection offering only `h2`, sends the preface, an empty SETTINGS frame and one
 * request on stream 1 whose header block is `fields`, exactly as given, and waits (bounded)
 * until the stream ends, is reset, the connection goes away or closes.
 *
 * @example
 * const outcome = await h2Exchange(port, [[':method', 'GET'], [':path', 'api'], [':scheme', 'https'], [':authority', 'localhost']])
 * outcome.reset // 1 (PROTOCOL_ERROR)
 */
export function h2Exchange(
  port: number,
  fields: ReadonlyArray<readonly [string, string]>,
  options: H2ExchangeOptions = {},
): Promise<H2Outcome> {
  const started = performance.now()
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ALPNProtocols: ['h2'] })
    let buffer = Buffer.alloc(0)
    let status = 0
    let reset: number | undefined
    let goaway: number | undefined
    const body: Buffer[] = []
    let settled = false
    const finish = (closed: boolean, timedOut: boolean): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      resolve({
        status,
        reset,
        goaway,
        closed,
        timedOut,
        body: Buffer.concat(body).toString('utf8'),
        ms: performance.now() - started,
      })
    }
    const timer = setTimeout(() => finish(false, true), options.timeoutMs ?? 3000)
    socket.on('error', () => finish(true, false))
    socket.on('close', () => finish(true, false))
    socket.once('secureConnect', () => {
      if (socket.alpnProtocol !== 'h2') {
        finish(true, false)
        return
      }
      const block = encodeHeaderBlock(fields)
      socket.write(
        Buffer.concat([
          PREFACE,
          frame(FRAME.SETTINGS, 0, 0, Buffer.alloc(0)),
          ...headerFrames(block, options.body === undefined),
          ...(options.body === undefined
            ? []
            : [frame(FRAME.DATA, FLAG.END_STREAM, 1, Buffer.from(options.body))]),
        ]),
      )
    })
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      while (buffer.length >= 9) {
        const length = buffer.readUIntBE(0, 3)
        if (buffer.length < 9 + length) break
        const type = buffer.readUInt8(3)
        const flags = buffer.readUInt8(4)
        const stream = buffer.readUInt32BE(5) & 0x7fffffff
        const payload = buffer.subarray(9, 9 + length)
        buffer = buffer.subarray(9 + length)
        if (type === FRAME.SETTINGS && (flags & FLAG.ACK) === 0) {
          socket.write(frame(FRAME.SETTINGS, FLAG.ACK, 0, Buffer.alloc(0)))
        } else if (type === FRAME.PING && (flags & FLAG.ACK) === 0) {
          socket.write(frame(FRAME.PING, FLAG.ACK, 0, payload))
        } else if (type === FRAME.GOAWAY) {
          goaway = payload.readUInt32BE(4)
          finish(false, false)
          return
        } else if (stream === 1 && type === FRAME.RST_STREAM) {
          reset = payload.readUInt32BE(0)
          finish(false, false)
          return
        } else if (stream === 1 && type === FRAME.HEADERS) {
          // Neither PADDED nor PRIORITY is set by Node's servers, so the block is the payload.
          if (status === 0) status = decodeStatus(payload)
          if (status >= 100 && status < 200 && status !== 101) status = 0
        } else if (stream === 1 && type === FRAME.DATA) {
          body.push(payload)
        }
        if (stream === 1 && (type === FRAME.HEADERS || type === FRAME.DATA) && flags & FLAG.END_STREAM) {
          finish(false, false)
          return
        }
      }
    })
  })
}
