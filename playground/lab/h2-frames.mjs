// The HTTP/2 frames of one exchange, from `nghttp -nv` (nghttp2's client, which prints every
// frame it sends and receives), turned into data the page can lay out: the 9-byte frame header
// (RFC 9113 §4.1: length 24 bits, type 8, flags 8, reserved bit + stream id 31) rebuilt from
// what nghttp prints, and the decoded header list of each HEADERS frame.
import { execFile } from 'node:child_process'

/** Frame type codes, RFC 9113 §6. */
const TYPES = {
  DATA: 0,
  HEADERS: 1,
  PRIORITY: 2,
  RST_STREAM: 3,
  SETTINGS: 4,
  PUSH_PROMISE: 5,
  PING: 6,
  GOAWAY: 7,
  WINDOW_UPDATE: 8,
  CONTINUATION: 9,
}

/**
 * The 9 bytes of a frame header, as hex pairs.
 * @param {{ length: number, type: string, flags: number, streamId: number }} frame
 */
export function frameHeaderBytes({ length, type, flags, streamId }) {
  const bytes = [
    (length >> 16) & 0xff,
    (length >> 8) & 0xff,
    length & 0xff,
    TYPES[type] ?? 0xff,
    flags & 0xff,
    (streamId >>> 24) & 0x7f,
    (streamId >>> 16) & 0xff,
    (streamId >>> 8) & 0xff,
    streamId & 0xff,
  ]
  return bytes.map((byte) => byte.toString(16).padStart(2, '0'))
}

const RECEIVED_HEADER = /^\[\s*[\d.]+\] recv \(stream_id=(\d+)\) (:?[a-z0-9-]+): (.*)$/
const FRAME = /^\[\s*([\d.]+)\] (send|recv) (\w+) frame <length=(\d+), flags=0x([0-9a-f]+), stream_id=(\d+)>/

/**
 * Parses `nghttp -nv` output into frames: direction (from the client's side), type, length,
 * flags (with nghttp's names for them), stream id, the 9 header bytes, and for HEADERS the
 * decoded header list; the lines nghttp prints under a frame (SETTINGS values, window size
 * increments) are kept as `details`.
 * @param {string} output
 */
export function parseNghttp(output) {
  const frames = []
  let current
  // nghttp prints a received header block as lines *before* its frame: `recv (stream_id=13) name: value`.
  const pending = new Map()
  for (const line of output.split('\n')) {
    const received = RECEIVED_HEADER.exec(line)
    if (received) {
      const [, streamId, name, value] = received
      if (!pending.has(streamId)) pending.set(streamId, [])
      pending.get(streamId).push([name, value])
      continue
    }
    const match = FRAME.exec(line)
    if (match) {
      const [, at, direction, type, length, flags, streamId] = match
      current = {
        atMs: Number(at) * 1000,
        direction: direction === 'send' ? 'client → server' : 'server → client',
        type,
        length: Number(length),
        flags: Number.parseInt(flags, 16),
        streamId: Number(streamId),
        flagNames: [],
        headers: [],
        details: [],
      }
      current.bytes = frameHeaderBytes(current)
      if (direction === 'recv' && type === 'HEADERS' && pending.has(streamId)) {
        current.headers.push(...pending.get(streamId))
        pending.delete(streamId)
      }
      frames.push(current)
      continue
    }
    if (current === undefined || !/^\s{10}/.test(line)) continue
    const text = line.trim()
    if (text.startsWith('; ')) current.flagNames.push(...text.slice(2).split(' | '))
    else if (current.type === 'HEADERS' && /^:?[a-z0-9-]+: /.test(text)) {
      const colon = text.indexOf(': ', 1)
      current.headers.push([text.slice(0, colon), text.slice(colon + 2)])
    } else if (text !== '') current.details.push(text)
  }
  return frames
}

/**
 * Runs `nghttp -nv -W 20 url` (certificate not verified: ours is self-signed) and parses its frames.
 * @param {string} url
 * @returns {Promise<ReturnType<typeof parseNghttp>>}
 */
export function captureFrames(url) {
  return new Promise((resolve, reject) => {
    // -W 20: a connection window of 2^20 bytes, announced with a WINDOW_UPDATE as browsers do.
    execFile('nghttp', ['-nv', '-W', '20', url], { timeout: 15_000 }, (error, stdout) => {
      if (error && stdout === '') reject(error)
      else resolve(parseNghttp(stdout))
    })
  })
}
