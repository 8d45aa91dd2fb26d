import {
  type BrowserCallResult,
  type CorsInitiator,
  createBrowserModel,
  createNetworkSend,
  type NetworkSend,
  type RequestBodyInput,
} from '@cors-dev-proxy/core'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ConsolePage, launchChromium, openConsolePage } from '../support/browser.js'
import {
  type BodyKind,
  type CallOutcome,
  SEQUENCE_CASES,
  type SequenceCall,
  type SequenceCase,
} from './sequence-cases.js'
import { type SequenceServers, startSequenceServers } from './sequence-server.js'

/**
 * Each sequence of test/browser/sequence-cases.ts twice: in headless Chromium, then through
 * `createBrowserModel` sending real requests (`createNetworkSend`) to the same servers, each
 * under its own path prefix. Both must match the table on their own (what the script got,
 * Chromium's message, what reached the servers), so a Chromium update shows as a Chromium change.
 * Every case runs as fetch and, unless it uses a fetch-only option, as XMLHttpRequest.
 */

let servers: SequenceServers
let browser: Browser
let page: ConsolePage
let network: NetworkSend
let run = 0

beforeAll(async () => {
  servers = await startSequenceServers()
  network = createNetworkSend({ timeout: 10_000, secure: true })
  browser = await launchChromium()
  page = await openConsolePage(browser, `${servers.origins.P}/`)
}, 120_000)

afterAll(async () => {
  await page?.close()
  await browser?.close()
  await network?.close()
  await servers?.close()
}, 60_000)

/** What a Chromium call gave the script. */
type PageOutcome = { read: true; status: number } | { read: false; error: string }

/** Builds the body of a kind; the same code runs in the page (serialized) and in Node. */
function makeBody(kind: BodyKind | undefined): RequestBodyInput | undefined {
  switch (kind) {
    case 'blob-json':
      return new Blob(['{}'], { type: 'application/json' })
    case 'blob-text':
      return new Blob(['x'], { type: 'text/plain' })
    case 'blob-untyped':
      return new Blob(['x'])
    case 'string':
      return 'x'
    case 'params':
      return new URLSearchParams('a=1')
    case 'stream':
      return new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('x'))
          controller.close()
        },
      })
    case 'form': {
      const form = new FormData()
      form.append('a', '1')
      return form
    }
    default:
      return undefined
  }
}

function callInPage(initiator: CorsInitiator, url: string, call: SequenceCall): Promise<PageOutcome> {
  const init = {
    method: call.method ?? 'GET',
    headers: call.headers ?? {},
    credentials: call.credentials === true,
    body: call.body,
    redirect: call.redirect,
    cache: call.cache,
  }
  return page.page.evaluate(
    async ([initiator, url, init, makeBodySource]) => {
      const makeBody = new Function(`return (${makeBodySource})`)() as (kind?: string) => unknown
      const body = makeBody(init.body) as BodyInit | undefined
      if (initiator === 'fetch') {
        try {
          const res = await fetch(url, {
            method: init.method,
            headers: init.headers,
            credentials: init.credentials ? 'include' : 'same-origin',
            body,
            ...(init.redirect ? { redirect: init.redirect } : {}),
            ...(init.cache ? { cache: init.cache } : {}),
            ...(init.body === 'stream' ? { duplex: 'half' } : {}),
          })
          await res.text()
          return { read: true as const, status: res.status }
        } catch (error) {
          return { read: false as const, error: String(error) }
        }
      }
      return new Promise<PageOutcome>((resolve) => {
        const xhr = new XMLHttpRequest()
        xhr.open(init.method, url)
        xhr.withCredentials = init.credentials
        for (const [name, value] of Object.entries(init.headers)) xhr.setRequestHeader(name, value)
        xhr.onload = () => resolve({ read: true, status: xhr.status })
        xhr.onerror = () => resolve({ read: false, error: 'XMLHttpRequest error' })
        xhr.send((body as XMLHttpRequestBodyInit | undefined) ?? null)
      })
    },
    [initiator, url, init, makeBody.toString()] as const,
  )
}

/** Chromium's full message for a blocked outcome, in the initiator's words (built here, not by the model). */
function expectedMessage(prefix: string, initiator: CorsInitiator, outcome: CallOutcome): string | undefined {
  if (outcome.readable || 'network' in outcome) return undefined
  let text = servers.expand(prefix, outcome.text)
  // XMLHttpRequest's message has no "valid value" sentence (Chromium's cors_error_string.cc).
  if (initiator === 'XMLHttpRequest')
    text = text.replace(' Have the server send the header with a valid value.', '')
  const from =
    outcome.from === undefined ? '' : `(redirected from '${servers.expand(prefix, outcome.from)}') `
  return `Access to ${initiator} at '${servers.expand(prefix, outcome.at)}' ${from}from origin '${servers.origins.P}' has been blocked by CORS policy: ${text}`
}

/** The requests that reached the servers since `from`, as the table writes them. */
function sentSince(prefix: string, from: number): string[] {
  return servers
    .seen(prefix)
    .slice(from)
    .map((seen) => `${seen.method} ${seen.server}${seen.path} ${seen.origin}`)
}

/** Waits for the first console line from index `from` on that starts with `start`. */
async function consoleLine(from: number, start: string): Promise<string | undefined> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const found = page.console.slice(from).find((entry) => entry.text.startsWith(start))
    if (found !== undefined) return found.text
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return undefined
}

function variants(cases: readonly SequenceCase[]) {
  return cases.flatMap((testCase) => [
    { name: `${testCase.name} (fetch)`, testCase, initiator: 'fetch' as const },
    ...(testCase.fetchOnly === undefined
      ? [{ name: `${testCase.name} (XMLHttpRequest)`, testCase, initiator: 'XMLHttpRequest' as const }]
      : []),
  ])
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('sequences in headless Chromium', { timeout: 60_000 }, () => {
  it.each(variants(SEQUENCE_CASES))('$name', async ({ testCase, initiator }) => {
    const prefix = `chromium-${++run}`
    servers.register(prefix, testCase.routes)
    for (const call of testCase.calls) {
      if (call.waitBefore !== undefined) await delay(call.waitBefore)
      const seenBefore = servers.seen(prefix).length
      const consoleBefore = page.console.length
      const outcome = await callInPage(initiator, servers.expand(prefix, call.url), call)
      const expected = call.expected
      expect(outcome.read).toBe(expected.readable)
      const message = expectedMessage(prefix, initiator, expected)
      if (message !== undefined) {
        const start = message.slice(0, message.indexOf(' from origin'))
        expect(await consoleLine(consoleBefore, start)).toBe(message)
      }
      if ('network' in expected) {
        expect(await consoleLine(consoleBefore, expected.console)).toBe(expected.console)
        // No CORS text: the failure is not a CORS one.
        expect(page.console.slice(consoleBefore).some((entry) => entry.text.includes('CORS policy'))).toBe(
          false,
        )
      }
      expect(sentSince(prefix, seenBefore)).toEqual(call.sent.map((line) => servers.expand(prefix, line)))
    }
  })
})

describe('the same sequences through createBrowserModel', { timeout: 60_000 }, () => {
  it.each(variants(SEQUENCE_CASES))('$name', async ({ testCase, initiator }) => {
    const prefix = `model-${++run}`
    servers.register(prefix, testCase.routes)
    const model = createBrowserModel({ origin: servers.origins.P, send: network.send })
    for (const call of testCase.calls) {
      if (call.waitBefore !== undefined) await delay(call.waitBefore)
      const seenBefore = servers.seen(prefix).length
      const result: BrowserCallResult = await model.fetch({
        url: servers.expand(prefix, call.url),
        method: call.method ?? 'GET',
        headers: call.headers,
        credentials: call.credentials === true ? 'include' : 'same-origin',
        body: makeBody(call.body),
        initiator,
        redirect: call.redirect,
        cache: call.cache,
      })
      const expected = call.expected
      expect(result.allowed).toBe(expected.readable)
      const message = expectedMessage(prefix, initiator, expected)
      if (message !== undefined) expect(result.message).toBe(message)
      if (expected.readable) expect(result.message).toBeUndefined()
      else expect(result.networkError !== undefined).toBe('network' in expected)
      if ('network' in expected) expect(result.message).toBe(expected.console)
      expect(sentSince(prefix, seenBefore)).toEqual(call.sent.map((line) => servers.expand(prefix, line)))
    }
  })
})
