import {
  between,
  bodyFor,
  callbackFor,
  eventsFor,
  expectedJsonp,
  jsonFor,
  MAX_BODY,
  replySeed,
  seededRandom,
  sha256,
} from './load-bodies.js'

/** The kinds of request the load test mixes. */
export const LOAD_KINDS = ['get', 'post', 'preflight', 'jsonp', 'events', 'websocket'] as const
export type LoadKind = (typeof LOAD_KINDS)[number]

/** Share of each kind in a plan, in percent. */
const MIX: Readonly<Record<LoadKind, number>> = {
  get: 31,
  post: 26,
  preflight: 15,
  jsonp: 12,
  events: 12,
  // Each WebSocket opens two connections (to the front end, and upstream), and Node accepts one
  // connection per event-loop turn: on a loaded machine, where one turn of this process takes
  // hundreds of ms, a larger share (8 % was tried) queues handshakes behind accepts for seconds.
  websocket: 4,
}

/** The page origin preflights and CORS requests come from: a loopback origin, which `cors: true` admits. */
export const PAGE_ORIGIN = 'http://localhost:5173'

/** The routes every front end serves, all to the one target. */
export function loadRoutes(target: string) {
  return {
    '/api': target,
    '/cors': { target, cors: true },
    '/jsonp': { target, jsonp: true },
    '/ws': { target, ws: true },
  }
}

/** One request of a plan. */
export interface LoadJob {
  index: number
  kind: LoadKind
  seed: number
  /** GET: size of the answer; POST: size of the upload. */
  size: number
  /** POST: size of the target's answer. */
  reply: number
  /** GET: through the `cors` route, with an `Origin`. Preflight: the method asked for. */
  viaCors: boolean
  method: string
}

/** The kind whose share of the mix holds `point`, a number in [0, sum of the shares). */
function pickKind(point: number): LoadKind {
  let below = 0
  for (const kind of LOAD_KINDS) {
    below += MIX[kind]
    if (point < below) return kind
  }
  return 'get'
}

/**
 * `count` jobs drawn from `seed`: kinds by the mix above, sizes uniform in 0–256 KiB (uploads and
 * downloads) and 0–16 KiB (answers to uploads). The same seed gives the same plan.
 */
export function planJobs(seed: number, count: number): LoadJob[] {
  const random = seededRandom(seed)
  const total = Object.values(MIX).reduce((sum, share) => sum + share, 0)
  return Array.from({ length: count }, (_, index) => {
    const kind = pickKind(random() * total)
    return {
      index,
      kind,
      seed: Math.floor(random() * 2 ** 31),
      size: between(random, 0, MAX_BODY),
      reply: between(random, 0, 16 * 1024),
      viaCors: random() < 0.5,
      method: ['PUT', 'DELETE', 'PATCH'][between(random, 0, 2)] as string,
    }
  })
}

/** How many jobs of each kind a plan holds. */
export function countKinds(jobs: readonly LoadJob[]): Record<LoadKind, number> {
  const counts = Object.fromEntries(LOAD_KINDS.map((kind) => [kind, 0])) as Record<LoadKind, number>
  for (const job of jobs) counts[job.kind]++
  return counts
}

/** An answer as a client read it, whatever the protocol. Header names are lower-case. */
export interface LoadAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

/** An HTTP request of a plan, ready for any client, and the checks its answer must pass. */
export interface LoadExchange {
  method: string
  path: string
  headers: Record<string, string>
  body?: Buffer
  /** Every way the answer differs from what it must be; empty when it is right. */
  verify(answer: LoadAnswer): string[]
}

function header(answer: LoadAnswer, name: string): string | undefined {
  const value = answer.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

/**
 * Both ends of a body: the hash of what arrived against the target's `X-Sent-Sha256`, and the bytes
 * against the client's own computation from the seed (an answer to another request fails here).
 */
function checkBody(answer: LoadAnswer, expected: Buffer | string, problems: string[]): void {
  const got = sha256(answer.body)
  if (got !== header(answer, 'x-sent-sha256'))
    problems.push(
      `received ${answer.body.length} bytes hashing ${got}, the target sent ${header(answer, 'x-sent-sha256')}`,
    )
  if (!answer.body.equals(typeof expected === 'string' ? Buffer.from(expected) : expected))
    problems.push(`the body is not the one computed from the seed (${answer.body.length} bytes)`)
}

function expectStatus(answer: LoadAnswer, status: number, problems: string[]): void {
  if (answer.status !== status) problems.push(`status ${answer.status}, expected ${status}`)
}

/** The request for an HTTP job (every kind but `websocket`) and its checks. */
export function httpExchange(job: LoadJob): LoadExchange {
  const { seed } = job
  switch (job.kind) {
    case 'get': {
      const headers: Record<string, string> = job.viaCors ? { origin: PAGE_ORIGIN } : {}
      return {
        method: 'GET',
        path: `/${job.viaCors ? 'cors' : 'api'}/bytes?seed=${seed}&size=${job.size}`,
        headers,
        verify(answer) {
          const problems: string[] = []
          expectStatus(answer, 200, problems)
          if (job.viaCors && header(answer, 'access-control-allow-origin') !== PAGE_ORIGIN)
            problems.push(`access-control-allow-origin ${header(answer, 'access-control-allow-origin')}`)
          checkBody(answer, bodyFor(seed, job.size), problems)
          return problems
        },
      }
    }
    case 'post': {
      const body = bodyFor(seed, job.size)
      return {
        method: 'POST',
        path: `/api/upload?seed=${seed}&reply=${job.reply}`,
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(body.length) },
        body,
        verify(answer) {
          const problems: string[] = []
          expectStatus(answer, 200, problems)
          if (
            header(answer, 'x-received-sha256') !== sha256(body) ||
            header(answer, 'x-received-bytes') !== String(body.length)
          )
            problems.push(
              `the target received ${header(answer, 'x-received-bytes')} bytes hashing ${header(answer, 'x-received-sha256')}, the client sent ${body.length}`,
            )
          checkBody(answer, bodyFor(replySeed(seed), job.reply), problems)
          return problems
        },
      }
    }
    case 'preflight': {
      const requested = 'content-type,x-load-seed'
      return {
        method: 'OPTIONS',
        path: `/cors/bytes?seed=${seed}`,
        headers: {
          origin: PAGE_ORIGIN,
          'access-control-request-method': job.method,
          'access-control-request-headers': requested,
        },
        verify(answer) {
          const problems: string[] = []
          expectStatus(answer, 204, problems)
          if (header(answer, 'access-control-allow-origin') !== PAGE_ORIGIN)
            problems.push(`access-control-allow-origin ${header(answer, 'access-control-allow-origin')}`)
          if (!header(answer, 'access-control-allow-methods')?.split(',').includes(job.method))
            problems.push(
              `access-control-allow-methods ${header(answer, 'access-control-allow-methods')} lacks ${job.method}`,
            )
          if (header(answer, 'access-control-allow-headers') !== requested)
            problems.push(`access-control-allow-headers ${header(answer, 'access-control-allow-headers')}`)
          if (header(answer, 'x-answered-by') !== undefined) problems.push('the preflight reached the target')
          if (answer.body.length !== 0) problems.push(`a preflight answer with ${answer.body.length} bytes`)
          return problems
        },
      }
    }
    case 'jsonp': {
      const callback = callbackFor(seed)
      return {
        method: 'GET',
        path: `/jsonp/json?seed=${seed}&callback=${callback}`,
        headers: {},
        verify(answer) {
          const problems: string[] = []
          expectStatus(answer, 200, problems)
          if (header(answer, 'content-type') !== 'application/javascript; charset=utf-8')
            problems.push(`content-type ${header(answer, 'content-type')}`)
          if (header(answer, 'x-content-type-options') !== 'nosniff') problems.push('no nosniff')
          const script = expectedJsonp(callback, jsonFor(seed))
          if (!answer.body.equals(Buffer.from(script)))
            problems.push(
              `the script is not the one computed from the seed (${answer.body.length} bytes, expected ${Buffer.byteLength(script)})`,
            )
          return problems
        },
      }
    }
    case 'events':
      return {
        method: 'GET',
        path: `/api/events?seed=${seed}`,
        headers: { accept: 'text/event-stream' },
        verify(answer) {
          const problems: string[] = []
          expectStatus(answer, 200, problems)
          if (header(answer, 'content-type') !== 'text/event-stream')
            problems.push(`content-type ${header(answer, 'content-type')}`)
          checkBody(answer, eventsFor(seed).join(''), problems)
          return problems
        },
      }
    case 'websocket':
      throw new Error('a WebSocket job has no HTTP exchange')
  }
}
