import {
  type BrowserCallResult,
  type BrowserModel,
  type CorsInitiator,
  createBrowserModel,
  createNetworkSend,
  createPreflightCache,
  type NetworkSend,
  type RequestBodyInput,
} from '@cors-dev-proxy/core'
import type { Browser, Frame, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ConsolePage, launchChromium, openConsolePage } from '../support/browser.js'
import {
  type BodyKind,
  type CallOutcome,
  SEQUENCE_CASES,
  type SequenceCall,
  type SequenceCase,
} from './sequence-cases.js'
import { asMadeBy } from './sequence-kit.js'
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
/** The pages a call can run in; their console lines all go to `page.console`. */
let pages: Record<NonNullable<SequenceCall['page']>, Page | Frame>
let network: NetworkSend
let run = 0

beforeAll(async () => {
  servers = await startSequenceServers()
  // S and H have a self-signed certificate: Chromium's context and the model both accept it.
  network = createNetworkSend({ timeout: 10_000, secure: false })
  browser = await launchChromium()
  page = await openConsolePage(browser, `${servers.origins.P}/`, { ignoreHTTPSErrors: true })
  const extra = async (url: string) => {
    const other = await page.page.context().newPage()
    other.on('console', (message) =>
      page.console.push({ type: message.type(), text: message.text(), url: message.location().url }),
    )
    await other.goto(url)
    return other
  }
  // A page of P framed by a top-level page of another site (localhost, where the others are 127.0.0.1).
  const framing = async (topUrl: string) => {
    const top = await extra(topUrl)
    await top.evaluate(
      (src) =>
        new Promise<void>((resolve) => {
          const frame = document.createElement('iframe')
          frame.src = src
          frame.onload = () => resolve()
          document.body.append(frame)
        }),
      `${servers.origins.P}/`,
    )
    return top.frames()[1]!
  }
  pages = {
    P: page.page,
    B: await extra(`${servers.origins.B}/`),
    sandbox: await extra(`${servers.origins.P}/sandbox`),
    framed: await framing(`${servers.topLevelOrigin}/`),
    'framed-same-site': await framing(`${servers.origins.B}/`),
    S: await extra(`${servers.origins.S}/`),
    H: await extra(`${servers.origins.H}/`),
  }
}, 120_000)

/** The calling page's origin, URL and top-level origin, as the model is told them. */
function pageOf(call: SequenceCall): { origin: string; url: string; top: string } {
  switch (call.page ?? 'P') {
    case 'B':
      return { origin: servers.origins.B, url: `${servers.origins.B}/`, top: servers.origins.B }
    case 'sandbox':
      return { origin: 'null', url: `${servers.origins.P}/sandbox`, top: 'null' }
    case 'framed':
      return { origin: servers.origins.P, url: `${servers.origins.P}/`, top: servers.topLevelOrigin }
    case 'framed-same-site':
      return { origin: servers.origins.P, url: `${servers.origins.P}/`, top: servers.origins.B }
    case 'S':
      return { origin: servers.origins.S, url: `${servers.origins.S}/`, top: servers.origins.S }
    case 'H':
      return { origin: servers.origins.H, url: `${servers.origins.H}/`, top: servers.origins.H }
    default:
      return { origin: servers.origins.P, url: `${servers.origins.P}/`, top: servers.origins.P }
  }
}

/** The call's URL for a run, with its userinfo when it has one. */
function callUrl(prefix: string, call: SequenceCall): string {
  const url = servers.expand(prefix, call.url)
  return call.userinfo === undefined ? url : url.replace('http://', `http://${call.userinfo}@`)
}

afterAll(async () => {
  await page?.close()
  await browser?.close()
  await network?.close()
  await servers?.close()
}, 60_000)

/** What a Chromium call gave the script: `thrown` when it threw before any request. */
type PageOutcome =
  | { read: true; status: number; headers: string[]; type?: string }
  | { read: false; error: string; thrown?: string }

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
    credentials: call.credentials === true ? 'include' : call.credentials === 'omit' ? 'omit' : 'same-origin',
    body: call.body,
    redirect: call.redirect,
    cache: call.cache,
    mode: call.mode,
    duplex: call.body === 'stream' && call.noDuplex === undefined,
  }
  return pages[call.page ?? 'P'].evaluate(
    async ([initiator, url, init, makeBodySource]) => {
      const makeBody = new Function(`return (${makeBodySource})`)() as (kind?: string) => unknown
      const body = makeBody(init.body) as BodyInit | undefined
      if (initiator === 'fetch') {
        let pending: Promise<Response>
        try {
          // fetch() throws synchronously only for a missing argument: a TypeError from building
          // the Request rejects the promise at once, before any request, so both are caught here.
          pending = fetch(url, {
            method: init.method,
            headers: init.headers,
            credentials: init.credentials as RequestCredentials,
            body,
            ...(init.redirect ? { redirect: init.redirect } : {}),
            ...(init.cache ? { cache: init.cache } : {}),
            ...(init.mode ? { mode: init.mode } : {}),
            ...(init.duplex ? { duplex: 'half' } : {}),
          } as RequestInit)
        } catch (error) {
          return { read: false as const, error: String(error), thrown: String(error) }
        }
        try {
          const res = await pending
          await res.text()
          return {
            read: true as const,
            status: res.status,
            headers: [...res.headers.keys()].sort(),
            type: res.type,
          }
        } catch (error) {
          const text = String(error)
          // "Failed to fetch" is a network or CORS failure; any other TypeError came from the constructor.
          return text === 'TypeError: Failed to fetch'
            ? { read: false as const, error: text }
            : { read: false as const, error: text, thrown: text }
        }
      }
      return new Promise<PageOutcome>((resolve) => {
        const xhr = new XMLHttpRequest()
        try {
          xhr.open(init.method, url)
          xhr.withCredentials = init.credentials === 'include'
          for (const [name, value] of Object.entries(init.headers)) xhr.setRequestHeader(name, value)
        } catch (error) {
          resolve({ read: false, error: String(error), thrown: String(error) })
          return
        }
        xhr.onload = () => {
          const names = xhr
            .getAllResponseHeaders()
            .split('\r\n')
            .filter((line) => line !== '')
            .map((line) => line.slice(0, line.indexOf(':')).toLowerCase())
          resolve({ read: true, status: xhr.status, headers: [...new Set(names)].sort() })
        }
        xhr.onerror = () => resolve({ read: false, error: 'XMLHttpRequest error' })
        xhr.send((body as XMLHttpRequestBodyInit | undefined) ?? null)
      })
    },
    [initiator, url, init, makeBody.toString()] as const,
  )
}

/** Chromium's full message for a blocked outcome, in the initiator's words (built here, not by the model). */
function expectedMessage(
  prefix: string,
  initiator: CorsInitiator,
  outcome: CallOutcome,
  pageOrigin: string,
): string | undefined {
  if (outcome.readable || 'network' in outcome || 'thrown' in outcome) return undefined
  let text = servers.expand(prefix, outcome.text)
  // XMLHttpRequest's message has no "valid value" sentence (Chromium's cors_error_string.cc).
  if (initiator === 'XMLHttpRequest')
    text = text
      .replace(' Have the server send the header with a valid value.', '')
      .replace(
        "when the request's credentials mode is 'include'.",
        "when the request's credentials mode is 'include'. The credentials mode of requests initiated by the XMLHttpRequest is controlled by the withCredentials attribute.",
      )
  const from =
    outcome.from === undefined ? '' : `(redirected from '${servers.expand(prefix, outcome.from)}') `
  return `Access to ${initiator} at '${servers.expand(prefix, outcome.at)}' ${from}from origin '${pageOrigin}' has been blocked by CORS policy: ${text}`
}

/** What the script gets thrown before any request, in the initiator's words, or `undefined`. */
function expectedThrow(
  prefix: string,
  initiator: CorsInitiator,
  outcome: CallOutcome,
  call: SequenceCall,
): string | undefined {
  if (!('thrown' in outcome)) return undefined
  const text = servers.expand(
    prefix,
    initiator === 'XMLHttpRequest' ? (outcome.xhrThrown ?? outcome.thrown) : outcome.thrown,
  )
  // Chromium quotes the URL as the script wrote it, user:password included.
  return call.userinfo === undefined ? text : text.replace('http://', `http://${call.userinfo}@`)
}

/** The requests that reached the servers since `from`, as the table writes them. */
function sentSince(prefix: string, from: number): string[] {
  return servers
    .seen(prefix)
    .slice(from)
    .map((seen) => `${seen.method} ${seen.server}${seen.path} ${seen.origin}`)
}

/**
 * Asserts that Chromium printed nothing for the run's calls since console index `from`: a page can
 * only wait for a line, not for the absence of one, so it makes a 404 fetch (whose "Failed to load
 * resource" line comes the way a failed load's would) and waits for that line; no line before it
 * may come from a URL of the run (a late line of an earlier case may).
 */
async function expectNoConsoleLine(from: number, prefix: string): Promise<void> {
  const marker = `${servers.origins.P}/console-marker-${++run}/x`
  await page.page.evaluate((url) => fetch(url).then((res) => res.text()), marker)
  const line = 'Failed to load resource: the server responded with a status of 404 (Not Found)'
  expect(await consoleLine(from, line)).toBe(line)
  const upTo = page.console.findIndex((entry, index) => index >= from && entry.url === marker)
  expect(upTo).toBeGreaterThanOrEqual(from)
  const ofTheRun = page.console.slice(from, upTo).filter((entry) => entry.url?.includes(`/${prefix}/`))
  expect(ofTheRun.map((entry) => entry.text)).toEqual([])
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
    for (const written of testCase.calls) {
      const call = asMadeBy(written, initiator)
      if (call.waitBefore !== undefined) await delay(call.waitBefore)
      const seenBefore = servers.seen(prefix).length
      const consoleBefore = page.console.length
      const outcome = await callInPage(initiator, callUrl(prefix, call), call)
      const expected = call.expected
      expect(outcome.read).toBe(expected.readable)
      if (outcome.read && expected.readable) {
        if (expected.status !== undefined) expect(outcome.status).toBe(expected.status)
        if (expected.headers !== undefined) expect(outcome.headers).toEqual(expected.headers)
        if (expected.type !== undefined && initiator === 'fetch') expect(outcome.type).toBe(expected.type)
      }
      expect(outcome.read ? undefined : outcome.thrown).toBe(expectedThrow(prefix, initiator, expected, call))
      const message = expectedMessage(prefix, initiator, expected, pageOf(call).origin)
      if (message !== undefined) {
        const start = message.slice(0, message.indexOf(' from origin'))
        expect(await consoleLine(consoleBefore, start)).toBe(message)
      }
      if ('network' in expected && expected.console === null) await expectNoConsoleLine(consoleBefore, prefix)
      else if ('network' in expected && expected.console !== null) {
        const line = servers.expand(prefix, expected.console)
        expect(await consoleLine(consoleBefore, line)).toBe(line)
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
    // One model per calling page, all on one preflight cache, as Chromium keeps one per profile.
    const models = new Map<string, BrowserModel>()
    const preflightCache = createPreflightCache(Date.now)
    for (const written of testCase.calls) {
      const call = asMadeBy(written, initiator)
      if (call.waitBefore !== undefined) await delay(call.waitBefore)
      const seenBefore = servers.seen(prefix).length
      const { origin, url: pageUrl, top } = pageOf(call)
      const model =
        models.get(pageUrl + top) ??
        createBrowserModel({ origin, pageUrl, topLevelOrigin: top, preflightCache, send: network.send })
      models.set(pageUrl + top, model)
      const result: BrowserCallResult = await model.fetch({
        url: callUrl(prefix, call),
        method: call.method ?? 'GET',
        headers: call.headers,
        credentials:
          call.credentials === true ? 'include' : call.credentials === 'omit' ? 'omit' : 'same-origin',
        body: makeBody(call.body),
        initiator,
        redirect: call.redirect,
        cache: call.cache,
        mode: call.mode,
        ...(call.body === 'stream' && call.noDuplex === undefined ? { duplex: 'half' as const } : {}),
      })
      const expected = call.expected
      expect(result.allowed).toBe(expected.readable)
      if (expected.readable) {
        if (expected.status !== undefined) expect(result.response?.status).toBe(expected.status)
        if (expected.headers !== undefined) expect(result.readableHeaders).toEqual(expected.headers)
        if (expected.type !== undefined && initiator === 'fetch')
          expect(result.responseType).toBe(expected.type)
      }
      expect(result.scriptError).toBe(expectedThrow(prefix, initiator, expected, call))
      const message = expectedMessage(prefix, initiator, expected, origin)
      if (message !== undefined) expect(result.message).toBe(message)
      if (expected.readable || 'thrown' in expected) expect(result.message).toBeUndefined()
      else expect(result.networkError !== undefined).toBe('network' in expected)
      if ('network' in expected)
        expect(result.message).toBe(
          expected.console === null ? undefined : servers.expand(prefix, expected.console),
        )
      expect(sentSince(prefix, seenBefore)).toEqual(call.sent.map((line) => servers.expand(prefix, line)))
    }
  })
})
