import { createServer as createHttpServer, type RequestListener } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { type AddressSpace, predictLocalNetworkAccess } from '@cors-dev-proxy/core'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ConsolePage, launchChromium, openConsolePage } from '../support/browser.js'
import { listen, type StartedServer } from '../support/servers.js'
import { localhostCertificate } from '../support/tls.js'

/**
 * Local Network Access in headless Chromium: every server listens on 127.0.0.1, and
 * `--ip-address-space-overrides` makes the page servers public (one page server local) and one
 * target local, so a page calls "down" the address spaces without leaving this machine. The
 * pages are reached as `public.test` (`--host-resolver-rules`): an http page on 127.0.0.1 would
 * be a secure context by its host. Each case asserts what Chromium did (script error, console
 * line, what reached the target) and, separately, that predictLocalNetworkAccess says the same.
 */

type Server = StartedServer<ReturnType<typeof createHttpServer>>
const reached: string[] = []
const servers: Server[] = []
let browser: Browser
let httpPage: Server
let httpsPage: StartedServer<ReturnType<typeof createHttpsServer>>
let localPage: Server
let loopbackTarget: Server
let localTarget: Server

const page: RequestListener = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' })
  res.end('<!doctype html><title>page</title>')
}

/** A target that lets every origin read it, so only Local Network Access can block a call. */
const target =
  (name: string): RequestListener =>
  (req, res) => {
    reached.push(`${name} ${req.method} ${req.url}`)
    res.writeHead(200, { 'access-control-allow-origin': '*' })
    res.end('ok')
  }

beforeAll(async () => {
  const { cert, key } = await localhostCertificate()
  httpPage = await listen(createHttpServer(page))
  httpsPage = await listen(createHttpsServer({ cert, key }, page), 'https')
  localPage = await listen(createHttpServer(page))
  loopbackTarget = await listen(createHttpServer(target('loopback')))
  localTarget = await listen(createHttpServer(target('local')))
  servers.push(httpPage, localPage, loopbackTarget, localTarget)
  const overrides = [
    `127.0.0.1:${httpPage.port}=public`,
    `127.0.0.1:${httpsPage.port}=public`,
    `127.0.0.1:${localPage.port}=local`,
    `127.0.0.1:${localTarget.port}=local`,
  ]
  browser = await launchChromium([
    `--ip-address-space-overrides=${overrides.join(',')}`,
    '--host-resolver-rules=MAP public.test 127.0.0.1',
    '--ignore-certificate-errors',
  ])
})

afterAll(async () => {
  await browser?.close()
  await Promise.all([...servers.map((server) => server.close()), httpsPage?.close()])
})

type Initiator = 'fetch' | 'XMLHttpRequest'

/** Runs one call in the page: `String(error)` for fetch, `error status=0` or `load <status>` for XHR. */
function call(
  consolePage: ConsolePage,
  initiator: Initiator,
  url: string,
  init: object = {},
): Promise<string> {
  return consolePage.page.evaluate(
    ([initiator, url, init]) => {
      if (initiator === 'fetch') {
        return fetch(url, init).then(
          (response) => `status ${response.status}`,
          (error: unknown) => String(error),
        )
      }
      return new Promise<string>((resolve) => {
        const xhr = new XMLHttpRequest()
        xhr.open('GET', url)
        xhr.onload = () => resolve(`status ${xhr.status}`)
        xhr.onerror = () => resolve(`error status=${xhr.status}`)
        xhr.send()
      })
    },
    [initiator, url, init] as const,
  )
}

/** The page origins Chromium sees. */
const httpOrigin = () => `http://public.test:${httpPage.port}`
const httpsOrigin = () => `https://public.test:${httpsPage.port}`
const blockedLine = (initiator: Initiator, url: string, origin: string, text: string) =>
  `Access to ${initiator} at '${url}' from origin '${origin}' has been blocked by CORS policy: ${text}`

interface Observed {
  result: string
  line: string | undefined
  reached: string[]
}

async function observe(
  consolePage: ConsolePage,
  initiator: Initiator,
  url: string,
  init: object = {},
): Promise<Observed> {
  const before = reached.length
  const result = await call(consolePage, initiator, url, init)
  // Chromium logs asynchronously; a call that went through logs nothing, so wait briefly only then.
  const line = await consolePage.waitForConsole(
    `Access to ${initiator} at '${url}'`,
    result.startsWith('status') ? 4 : 200,
  )
  return { result, line, reached: reached.slice(before) }
}

const scriptSees = (initiator: Initiator) =>
  initiator === 'fetch' ? 'TypeError: Failed to fetch' : 'error status=0'
const modelScriptError = (initiator: Initiator) =>
  initiator === 'fetch' ? 'TypeError: Failed to fetch' : 'an error event, status 0'

describe.each(['fetch', 'XMLHttpRequest'] as const)('Local Network Access by %s', (initiator) => {
  const targets = (): Array<[AddressSpace, string]> => [
    ['loopback', `${loopbackTarget.url}/${initiator}`],
    ['local', `${localTarget.url}/${initiator}`],
  ]

  it('an http public page: blocked, not a secure context; nothing reaches the target', async () => {
    const consolePage = await openConsolePage(browser, `${httpOrigin()}/`)
    try {
      for (const [space, url] of targets()) {
        const observed = await observe(consolePage, initiator, url)
        const text = `The request client is not a secure context and the resource is in more-private address space \`${space}\`.`
        expect(observed).toEqual({
          result: scriptSees(initiator),
          line: blockedLine(initiator, url, httpOrigin(), text),
          reached: [],
        })
        const prediction = predictLocalNetworkAccess({
          origin: httpOrigin(),
          pageSpace: 'public',
          url,
          targetSpace: space,
          initiator,
        })
        expect(prediction).toMatchObject({
          applies: true,
          outcome: 'blocked',
          scriptError: modelScriptError(initiator),
        })
        expect(prediction.message).toBe(observed.line)
      }
    } finally {
      await consolePage.close()
    }
  })

  it('an https public page: the permission (denied without a user); nothing reaches the target', async () => {
    const consolePage = await openConsolePage(browser, `${httpsOrigin()}/`, { ignoreHTTPSErrors: true })
    try {
      for (const [space, url] of targets()) {
        const observed = await observe(consolePage, initiator, url)
        const text = `Permission was denied for this request to access the \`${space}\` address space.`
        expect(observed).toEqual({
          result: scriptSees(initiator),
          line: blockedLine(initiator, url, httpsOrigin(), text),
          reached: [],
        })
        const prediction = predictLocalNetworkAccess({
          origin: httpsOrigin(),
          pageSpace: 'public',
          url,
          targetSpace: space,
          initiator,
        })
        expect(prediction).toMatchObject({
          outcome: 'needs-permission',
          permission: space === 'loopback' ? 'loopback-network' : 'local-network',
        })
        expect(prediction.message).toBe(observed.line)
      }
    } finally {
      await consolePage.close()
    }
  })

  it('an https public page with the permission granted: the call goes through, no preflight', async () => {
    const consolePage = await openConsolePage(browser, `${httpsOrigin()}/`, {
      ignoreHTTPSErrors: true,
      permissions: ['local-network-access'],
    })
    try {
      for (const [space, url] of targets()) {
        const observed = await observe(consolePage, initiator, url)
        expect(observed).toEqual({
          result: 'status 200',
          line: undefined,
          reached: [`${space} GET ${new URL(url).pathname}`],
        })
      }
    } finally {
      await consolePage.close()
    }
  })

  it('a local page calling loopback: not checked', async () => {
    const origin = `http://public.test:${localPage.port}`
    const consolePage = await openConsolePage(browser, `${origin}/`)
    try {
      const url = `${loopbackTarget.url}/${initiator}-from-local`
      const observed = await observe(consolePage, initiator, url)
      expect(observed).toEqual({
        result: 'status 200',
        line: undefined,
        reached: [`loopback GET /${initiator}-from-local`],
      })
      expect(predictLocalNetworkAccess({ origin, pageSpace: 'local', url, initiator })).toMatchObject({
        applies: false,
        outcome: 'not-needed',
      })
    } finally {
      await consolePage.close()
    }
  })
})

describe("fetch's targetAddressSpace", () => {
  it('blocks a call whose target is in another space than declared, granted or not', async () => {
    const consolePage = await openConsolePage(browser, `${httpsOrigin()}/`, {
      ignoreHTTPSErrors: true,
      permissions: ['local-network-access'],
    })
    try {
      const url = `${loopbackTarget.url}/declared-local`
      const observed = await observe(consolePage, 'fetch', url, { targetAddressSpace: 'local' })
      const text =
        'Request had a target IP address space of `local` yet the resource is in address space `loopback`.'
      expect(observed).toEqual({
        result: 'TypeError: Failed to fetch',
        line: blockedLine('fetch', url, httpsOrigin(), text),
        reached: [],
      })
      const prediction = predictLocalNetworkAccess({
        origin: httpsOrigin(),
        pageSpace: 'public',
        url,
        targetAddressSpace: 'local',
      })
      expect(prediction.message).toBe(observed.line)

      const matching = await observe(consolePage, 'fetch', `${loopbackTarget.url}/declared-loopback`, {
        targetAddressSpace: 'loopback',
      })
      expect(matching).toMatchObject({ result: 'status 200', reached: ['loopback GET /declared-loopback'] })

      const invalid = await call(consolePage, 'fetch', url, { targetAddressSpace: 'private' })
      expect(invalid).toBe(
        predictLocalNetworkAccess({
          origin: httpsOrigin(),
          pageSpace: 'public',
          url,
          targetAddressSpace: 'private',
        }).scriptError,
      )
    } finally {
      await consolePage.close()
    }
  })
})
