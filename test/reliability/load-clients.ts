import { type ClientHttp2Session, connect as connectHttp2, constants as http2Constants } from 'node:http2'
import { Pool } from 'undici'
import WebSocket from 'ws'
import { messagesFor, sha256 } from './load-bodies.js'
import { httpExchange, type LoadAnswer, type LoadJob } from './load-plan.js'

/**
 * Longest a single job may take before it counts as an error. A job takes milliseconds; on a
 * loaded machine a new connection may wait seconds to be accepted, since Node accepts one
 * connection per event-loop turn and a turn of this process (client, proxy and target) can take
 * hundreds of ms: the deadline leaves room for that, and bounds the run if something hangs.
 */
export const JOB_DEADLINE_MS = 30_000

/**
 * When a client gives up on a job and cancels it, saying what it waited for: before the
 * runner's own deadline, so that message is the one reported.
 */
const STALL_MS = JOB_DEADLINE_MS - 2_000

/**
 * A WebSocket job makes up to 18 round trips (the handshake, 8 messages with their echo and
 * report, the close); its client watches each step for progress (STALL_MS without one fails),
 * and the runner bounds the whole job by this many times JOB_DEADLINE_MS. On a loaded machine a
 * round trip of this one process took 3 to 4 s, so a whole-job limit of 30 s failed jobs that
 * were slow but progressing (at load 8: 85 of 12,000, all WebSockets past their fifth echo).
 */
const WEBSOCKET_DEADLINES = 4

/** A job that did not pass, and why. */
export interface LoadFailure {
  index: number
  kind: string
  problems: string[]
}

/**
 * Runs `jobs` on `lanes` concurrent workers, each taking the next job when its last one is done:
 * `lanes` requests are in flight for the whole run. Every loop is bounded by the number of jobs.
 */
export async function runJobs(
  jobs: readonly LoadJob[],
  lanes: number,
  run: (job: LoadJob, lane: number) => Promise<string[]>,
): Promise<LoadFailure[]> {
  const failures: LoadFailure[] = []
  let next = 0
  async function lane(id: number): Promise<void> {
    while (next < jobs.length) {
      const job = jobs[next++] as LoadJob
      let problems: string[]
      try {
        const deadline = job.kind === 'websocket' ? JOB_DEADLINE_MS * WEBSOCKET_DEADLINES : JOB_DEADLINE_MS
        problems = await withDeadline(run(job, id), `${job.kind} #${job.index}`, deadline)
      } catch (error) {
        const { message, code } = error as Error & { code?: string }
        problems = [code === undefined ? message : `${message} (${code})`]
      }
      if (problems.length > 0) failures.push({ index: job.index, kind: job.kind, problems })
    }
  }
  await Promise.all(Array.from({ length: lanes }, (_, id) => lane(id)))
  return failures
}

function withDeadline<T>(work: Promise<T>, what: string, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms)
  })
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer))
}

/** An HTTP/1.1 client of `connections` keep-alive connections to `origin` (undici `Pool`). */
export interface Http1LoadClient {
  run(job: LoadJob): Promise<string[]>
  readonly pool: Pool
  close(): Promise<void>
}

export function http1Client(origin: string, connections: number): Http1LoadClient {
  const pool = new Pool(origin, {
    connections,
    pipelining: 1,
    connect: { rejectUnauthorized: false },
  })
  return {
    pool,
    async run(job) {
      const exchange = httpExchange(job)
      let stage = 'the head'
      try {
        const response = await pool.request({
          method: exchange.method as 'GET',
          path: exchange.path,
          headers: exchange.headers,
          body: exchange.body,
          signal: AbortSignal.timeout(STALL_MS),
        })
        stage = 'the end of the body'
        const body = Buffer.from(await response.body.arrayBuffer())
        return exchange.verify({ status: response.statusCode, headers: response.headers, body })
      } catch (error) {
        if ((error as Error).name !== 'TimeoutError') throw error
        throw new Error(`no progress for ${STALL_MS} ms waiting for ${stage}`)
      }
    },
    close: () => pool.close(),
  }
}

/** An HTTP/2 client: `sessions` TLS sessions to `origin`, a job's stream on the session of its lane. */
export interface Http2LoadClient {
  run(job: LoadJob, lane: number): Promise<string[]>
  close(): Promise<void>
}

export async function http2Client(origin: string, sessions: number): Promise<Http2LoadClient> {
  const open: ClientHttp2Session[] = []
  for (let i = 0; i < sessions; i++) {
    const session = connectHttp2(origin, { rejectUnauthorized: false })
    session.on('error', () => {}) // every stream of the session reports it
    await new Promise<void>((resolve, reject) => {
      session.once('connect', () => resolve())
      session.once('error', reject)
    })
    open.push(session)
  }
  return {
    run(job, lane) {
      const session = open[lane % open.length] as ClientHttp2Session
      const exchange = httpExchange(job)
      return new Promise((resolve, reject) => {
        const stream = session.request(
          { ':method': exchange.method, ':path': exchange.path, ...exchange.headers },
          { endStream: exchange.body === undefined },
        )
        let head: LoadAnswer['headers'] | undefined
        const timer = setTimeout(() => {
          reject(
            new Error(
              `no progress for ${STALL_MS} ms waiting for ${head ? 'the end of the body' : 'the head'}`,
            ),
          )
          stream.close(http2Constants.NGHTTP2_CANCEL)
        }, STALL_MS)
        const chunks: Buffer[] = []
        stream.once('response', (headers) => (head = headers))
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.once('error', reject)
        stream.once('close', () => {
          clearTimeout(timer)
          if (stream.rstCode !== http2Constants.NGHTTP2_NO_ERROR)
            return reject(new Error(`stream reset with code ${stream.rstCode}`))
          if (head === undefined) return reject(new Error('the stream closed without a head'))
          const answer = { status: Number(head[':status']), headers: head, body: Buffer.concat(chunks) }
          resolve(exchange.verify(answer))
        })
        if (exchange.body !== undefined) stream.end(exchange.body)
      })
    },
    async close() {
      await Promise.all(open.map((session) => new Promise<void>((resolve) => session.close(() => resolve()))))
    },
  }
}

/** What a WebSocket job waits for, named in the error when it waits too long. */
type WebSocketStage = 'the handshake' | `echo ${number}` | `report ${number}` | 'the close'

/**
 * A WebSocket job: opens `<base>/ws/echo?seed=`, sends the seed's binary messages one at a time and
 * checks each echo (bytes against what was sent) and the target's report (hash of what it
 * received), then closes and waits for the close handshake. A job that waits longer than the
 * deadline fails naming what it waited for, and its socket is terminated.
 */
export async function runWebSocket(base: string, job: LoadJob): Promise<string[]> {
  const socket = new WebSocket(`${base}/ws/echo?seed=${job.seed}`, {
    rejectUnauthorized: false,
    perMessageDeflate: false,
  })
  let stage: WebSocketStage = 'the handshake'
  const inbox: Array<{ data: Buffer; isBinary: boolean }> = []
  let wake: (() => void) | undefined
  let failure: Error | undefined
  const stop = (error: Error) => {
    failure ??= error
    wake?.()
  }
  // A watchdog of progress, not a limit on the whole job: re-armed by every step that arrives.
  let stall: NodeJS.Timeout | undefined
  const progressed = () => {
    clearTimeout(stall)
    stall = setTimeout(() => {
      stop(new Error(`no progress for ${STALL_MS} ms waiting for ${stage} (readyState ${socket.readyState})`))
      socket.terminate()
    }, STALL_MS)
  }
  progressed()
  socket.on('message', (data: Buffer, isBinary) => {
    progressed()
    inbox.push({ data, isBinary })
    wake?.()
  })
  socket.once('error', stop)
  socket.once('open', () => {
    progressed()
    wake?.()
  })
  socket.once('close', () => wake?.())
  /** Waits until `ready()` holds or the job failed. */
  const until = async (ready: () => boolean) => {
    while (!ready() && failure === undefined) await new Promise<void>((resolve) => (wake = resolve))
    if (failure) throw failure
  }
  const next = async (waitingFor: WebSocketStage) => {
    stage = waitingFor
    await until(() => inbox.length > 0 || socket.readyState >= WebSocket.CLOSING)
    const message = inbox.shift()
    if (message === undefined) throw new Error(`the WebSocket closed while waiting for ${waitingFor}`)
    return message
  }
  const problems: string[] = []
  try {
    await until(() => socket.readyState !== WebSocket.CONNECTING)
    if (socket.readyState !== WebSocket.OPEN) throw new Error('the WebSocket closed during the handshake')
    for (const [index, message] of messagesFor(job.seed).entries()) {
      socket.send(message, { binary: true })
      const echo = await next(`echo ${index}`)
      const report = await next(`report ${index}`)
      if (!echo.isBinary || !echo.data.equals(message))
        problems.push(
          `message ${index}: the echo of ${message.length} bytes came back as ${echo.data.length} bytes that differ`,
        )
      const seen = JSON.parse(report.data.toString()) as { sha256: string; bytes: number }
      if (seen.sha256 !== sha256(message) || seen.bytes !== message.length)
        problems.push(
          `message ${index}: the target received ${seen.bytes} bytes hashing ${seen.sha256}, the client sent ${message.length}`,
        )
    }
    stage = 'the close'
    progressed()
    socket.close(1000)
    await until(() => socket.readyState === WebSocket.CLOSED)
  } finally {
    clearTimeout(stall)
    if (socket.readyState !== WebSocket.CLOSED) socket.terminate()
  }
  return problems
}
