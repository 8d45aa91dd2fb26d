import type { Page } from 'playwright-core'

/*
 * A HAR made the way Chromium's DevTools makes "Save all as HAR": from the DevTools protocol's
 * Network domain (`requestWillBeSent`, `responseReceived`, `loadingFinished`/`loadingFailed`,
 * then `Network.getResponseBody`), laid out as DevTools' HAR writer lays it out (HAR 1.2, the
 * decoded body in `content.text`, base64 with `encoding` where the body is not text, status 0
 * and `_error` for a failed load). playwright's own `recordHar` is closer to playwright than to
 * DevTools (its own field choices, no `_initiator`...), so this test speaks CDP itself.
 */

interface NameValue {
  name: string
  value: string
}

interface PendingEntry {
  requestId: string
  wallTime: number
  timestamp: number
  request: { method: string; url: string; headers: Record<string, string>; postData?: string }
  response?: {
    status: number
    statusText: string
    protocol?: string
    mimeType: string
    headers: Record<string, string>
  }
  endTimestamp?: number
  error?: string
  body?: Promise<{ body: string; base64Encoded: boolean } | undefined>
}

const pairs = (headers: Record<string, string>): NameValue[] =>
  Object.entries(headers).flatMap(([name, value]) => value.split('\n').map((one) => ({ name, value: one })))

const headerOf = (headers: Record<string, string>, name: string): string | undefined =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1]

/** A HAR recorder on a page: `har()` returns the HAR of everything the page loaded since it started. */
export async function recordDevToolsHar(page: Page): Promise<{ har(): Promise<unknown> }> {
  const session = await page.context().newCDPSession(page)
  const entries = new Map<string, PendingEntry>()
  session.on('Network.requestWillBeSent', (event) => {
    entries.set(event.requestId, {
      requestId: event.requestId,
      wallTime: event.wallTime,
      timestamp: event.timestamp,
      request: {
        method: event.request.method,
        url: event.request.url,
        headers: event.request.headers,
        ...(event.request.postData === undefined ? {} : { postData: event.request.postData }),
      },
    })
  })
  session.on('Network.responseReceived', (event) => {
    const entry = entries.get(event.requestId)
    if (entry === undefined) return
    entry.response = {
      status: event.response.status,
      statusText: event.response.statusText,
      protocol: event.response.protocol,
      mimeType: event.response.mimeType,
      headers: event.response.headers,
    }
  })
  session.on('Network.loadingFinished', (event) => {
    const entry = entries.get(event.requestId)
    if (entry === undefined) return
    entry.endTimestamp = event.timestamp
    entry.body = session
      .send('Network.getResponseBody', { requestId: event.requestId })
      .catch(() => undefined)
  })
  session.on('Network.loadingFailed', (event) => {
    const entry = entries.get(event.requestId)
    if (entry === undefined) return
    entry.endTimestamp = event.timestamp
    entry.error = event.errorText
  })
  await session.send('Network.enable')

  async function toHarEntry(entry: PendingEntry) {
    const { request, response } = entry
    const url = new URL(request.url)
    const body = await entry.body
    const contentType = headerOf(request.headers, 'content-type')
    const time = entry.endTimestamp === undefined ? 0 : (entry.endTimestamp - entry.timestamp) * 1000
    return {
      _initiator: { type: 'script' },
      _resourceType: 'fetch',
      cache: {},
      startedDateTime: new Date(entry.wallTime * 1000).toISOString(),
      time,
      request: {
        method: request.method,
        url: request.url,
        httpVersion: response?.protocol ?? 'http/1.1',
        headers: pairs(request.headers),
        queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
        cookies: [],
        headersSize: -1,
        bodySize: request.postData === undefined ? 0 : Buffer.byteLength(request.postData),
        ...(request.postData === undefined
          ? {}
          : { postData: { mimeType: contentType ?? '', text: request.postData } }),
      },
      response: {
        status: response?.status ?? 0,
        statusText: response?.statusText ?? '',
        httpVersion: response?.protocol ?? '',
        headers: pairs(response?.headers ?? {}),
        cookies: [],
        content: {
          size: body === undefined ? 0 : Buffer.byteLength(body.body, body.base64Encoded ? 'base64' : 'utf8'),
          mimeType: response?.mimeType ?? 'x-unknown',
          ...(body === undefined ? {} : { text: body.body }),
          ...(body?.base64Encoded ? { encoding: 'base64' } : {}),
        },
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
        _transferSize: 0,
        _error: entry.error ?? null,
      },
      serverIPAddress: url.hostname,
      timings: { blocked: -1, dns: -1, ssl: -1, connect: -1, send: 0, wait: time, receive: 0 },
    }
  }

  return {
    async har() {
      const ordered = [...entries.values()].sort((a, b) => a.timestamp - b.timestamp)
      return {
        log: {
          version: '1.2',
          creator: { name: 'WebInspector', version: '537.36' },
          pages: [],
          entries: await Promise.all(ordered.map(toHarEntry)),
        },
      }
    },
  }
}
