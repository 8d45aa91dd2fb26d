import type { Socket } from 'node:net'
import { onRequestHeads, type RawTarget, rawTarget } from './raw-target.js'

/** A target that closes idle connections (see {@link idleClosingTarget}) and what it counted. */
export interface IdleClosingTarget {
  readonly target: RawTarget
  /** Requests that arrived on a connection the target had already closed. */
  raced(): number
  /** Connections closed for idling. */
  idleCloses(): number
}

const ok = (text: string) =>
  `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${text.length}\r\n\r\n${text}`

/**
 * A keep-alive target that closes a connection `idleMs` after its last answer, without a
 * `Keep-Alive` hint, as servers with a short idle timeout do. `raced` counts requests that
 * arrived on a connection it had already closed (the race, seen from the target). The caller
 * closes `target`.
 */
export async function idleClosingTarget(idleMs: number): Promise<IdleClosingTarget> {
  let raced = 0
  let idleCloses = 0
  const target = await rawTarget((socket: Socket) => {
    let timer: NodeJS.Timeout | undefined
    let closed = false
    const arm = (ms = idleMs) => {
      clearTimeout(timer)
      timer = setTimeout(() => {
        closed = true
        idleCloses += 1
        socket.end()
      }, ms)
    }
    // Idle counts from the last answer, as in Node's keepAliveTimeout: a new connection waits for
    // its first request as a real server does (a 30 ms limit there made a loaded proxy's fresh
    // retry connection race too, which is not the race under test).
    arm(10_000)
    onRequestHeads(socket, () => {
      if (closed) {
        raced += 1
        return
      }
      clearTimeout(timer)
      socket.write(ok('ok'), () => arm())
    })
    socket.once('close', () => clearTimeout(timer))
  })
  return { target, raced: () => raced, idleCloses: () => idleCloses }
}
