import { type MockResponse, sendJson } from './mock-http.js'

/** Events sent when `?count=` is absent: a short, bounded stream. */
const DEFAULT_COUNT = 5
const MAX_COUNT = 1000
/** Milliseconds between events when `?interval=` is absent. */
const DEFAULT_INTERVAL = 1000
const MAX_INTERVAL = 60_000

/** The `/events` streams that are open, so the backend can end them when it closes. */
export interface MockEventStreams {
  /** Answers `/events` on `res`: validates `count` and `interval`, then streams. */
  answer(res: MockResponse, url: URL): void
  /** Ends every open stream and stops its timer. */
  closeAll(): void
}

function readBounded(url: URL, name: string, fallback: number, min: number, max: number): number | undefined {
  const raw = url.searchParams.get(name)
  if (raw === null) return fallback
  if (!/^\d{1,9}$/.test(raw)) return undefined
  const n = Number(raw)
  return n >= min && n <= max ? n : undefined
}

/**
 * Creates the `/events` handler: a server-sent event stream (HTML Living Standard §9.2) of
 * `count` events `interval` ms apart, each `id: n` with JSON `data: {"n":n,"count":..,"time":..}`,
 * then an `event: end` and the end of the response. Each event is written (and so flushed)
 * on its own, which is what a proxy must pass through without holding it back.
 *
 * @example
 * const source = new EventSource('http://127.0.0.1:4000/events?count=3&interval=500')
 * source.addEventListener('end', () => source.close())
 */
export function createMockEventStreams(): MockEventStreams {
  const open = new Set<() => void>()

  function answer(res: MockResponse, url: URL): void {
    const count = readBounded(url, 'count', DEFAULT_COUNT, 1, MAX_COUNT)
    const interval = readBounded(url, 'interval', DEFAULT_INTERVAL, 0, MAX_INTERVAL)
    if (count === undefined || interval === undefined) {
      sendJson(res, 400, {
        error: `count must be an integer from 1 to ${MAX_COUNT}, interval milliseconds from 0 to ${MAX_INTERVAL}`,
        example: '/events?count=3&interval=500',
      })
      return
    }
    res.statusCode = 200
    res.setHeader('content-type', 'text/event-stream; charset=utf-8')
    res.setHeader('cache-control', 'no-cache')
    // Tells nginx-style buffering proxies to pass each event on at once.
    res.setHeader('x-accel-buffering', 'no')

    let sent = 0
    let timer: NodeJS.Timeout | undefined
    const stop = (): void => {
      clearTimeout(timer)
      open.delete(end)
    }
    const end = (): void => {
      stop()
      if (!res.writableEnded && !res.destroyed) res.end()
    }
    const tick = (): void => {
      if (res.writableEnded || res.destroyed) {
        stop()
        return
      }
      sent += 1
      res.write(
        `id: ${sent}\ndata: ${JSON.stringify({ n: sent, count, time: new Date().toISOString() })}\n\n`,
      )
      if (sent < count) {
        timer = setTimeout(tick, interval)
        return
      }
      res.write('event: end\ndata: {}\n\n')
      end()
    }
    open.add(end)
    res.on('close', stop)
    // The first write sends the headers, so the browser sees the stream open before the first interval.
    res.write(`retry: ${Math.max(interval, 1000)}\n\n`)
    tick()
  }

  return {
    answer,
    closeAll() {
      for (const end of [...open]) end()
    },
  }
}
