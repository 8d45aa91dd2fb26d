import { request } from 'node:http'
import WebSocket from 'ws'

/** An answer as the parity suite compares it: status, header lines (lowercased names, repeats kept), body. */
export interface Answer {
  status: number
  headers: Record<string, string[]>
  body: string
}

/** What to send: method, path (with query), headers, body. */
export interface Ask {
  method?: string
  path: string
  headers?: Record<string, string>
  body?: string
}

/** The header lines of a raw `rawHeaders` list, repeats kept, names lowercased. */
function headerLines(raw: string[]): Record<string, string[]> {
  const lines: Record<string, string[]> = {}
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase()
    const value = raw[i + 1] as string
    if (lines[name] === undefined) lines[name] = [value]
    else lines[name].push(value)
  }
  return lines
}

/**
 * Sends one request on a fresh connection (no pooling, so no server's keep-alive habits leak into
 * another's answer), never following a redirect, and reads the whole answer.
 */
export function send(origin: string, ask: Ask): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${origin}${ask.path}`,
      { method: ask.method ?? 'GET', headers: ask.headers, agent: false, timeout: 10_000 },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: headerLines(res.rawHeaders),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error(`no answer from ${origin}${ask.path} in 10 s`)))
    req.on('error', reject)
    req.end(ask.body)
  })
}

/** One server-sent event as it arrived: its `id` and the milliseconds since the request was sent. */
export interface ArrivedEvent {
  id: string
  at: number
}

/**
 * Reads an event stream and notes when each event arrives, so a test can tell events that
 * arrive one by one from events held back and delivered together at the end. `complete` is
 * false when the connection was cut before the answer's end.
 */
export function readEvents(
  origin: string,
  path: string,
  onEvent?: (event: ArrivedEvent) => void,
): Promise<{ answer: Answer; events: ArrivedEvent[]; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const events: ArrivedEvent[] = []
    const req = request(`${origin}${path}`, { agent: false, timeout: 10_000 }, (res) => {
      let text = ''
      let pending = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
        pending += chunk
        let end = pending.indexOf('\n\n')
        while (end !== -1) {
          const id = /^id: (.*)$/m.exec(pending.slice(0, end))?.[1]
          if (id !== undefined) {
            const event = { id, at: performance.now() - started }
            events.push(event)
            onEvent?.(event)
          }
          pending = pending.slice(end + 2)
          end = pending.indexOf('\n\n')
        }
      })
      // A cut stream ends in 'aborted' and 'error' rather than 'end': what arrived still counts.
      res.on('error', () => undefined)
      res.on('close', () =>
        resolve({
          answer: { status: res.statusCode ?? 0, headers: headerLines(res.rawHeaders), body: text },
          events,
          complete: res.complete,
        }),
      )
    })
    req.on('timeout', () => req.destroy(new Error(`event stream ${origin}${path} stalled`)))
    req.on('error', reject)
    req.end()
  })
}

/**
 * What a WebSocket handshake ended in: the echo of `message`, the HTTP status it was refused
 * with, or `closed` when the server ended the connection without an answer.
 */
export type WebSocketOutcome = { echo: string } | { refused: number } | { closed: true }

/** Opens a WebSocket, sends `message` and waits for the echo (or the refusal), within 5 s. */
export function echoOverWebSocket(url: string, origin: string, message: string): Promise<WebSocketOutcome> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { origin, handshakeTimeout: 5000 })
    const timer = setTimeout(() => {
      socket.terminate()
      reject(new Error(`no echo from ${url} within 5 s`))
    }, 5000)
    const done = (outcome: WebSocketOutcome) => {
      clearTimeout(timer)
      socket.terminate()
      resolve(outcome)
    }
    socket.on('unexpected-response', (_req, res) => {
      res.resume()
      done({ refused: res.statusCode ?? 0 })
    })
    socket.on('open', () => socket.send(message))
    socket.on('message', (data) => done({ echo: data.toString() }))
    socket.on('error', (error) => {
      clearTimeout(timer)
      if (/socket hang up|ECONNRESET/.test(error.message)) done({ closed: true })
      else reject(error)
    })
  })
}
