import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resolveOptions } from '@cors-dev-proxy/core/adapter'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spkiSha256 } from '../../packages/cli/src/serve/certificate.js'
import { findProgram } from '../../packages/cli/src/serve/find-program.js'
import { type RunningServe, startServe } from '../../packages/cli/src/serve/start-serve.js'
import { createLabNetwork, labNetworkSupport } from '../../playground/lab/lab-network.mjs'
import { launchQuicChromium } from '../support/browser.js'
import { programRequirement, skipUnmet } from '../support/requirement.js'

/**
 * `serve --http3` as a browser finds it: no QUIC forced on its port, so Chromium learns h3 from
 * `Alt-Svc` on an HTTP/2 answer and moves over, and, with every UDP datagram dropped, stays on
 * HTTP/2 without an error. Chromium runs in the lab's network namespace, where an nftables rule
 * drops UDP; the servers listen outside it, on the veth pair's address.
 */

const caddy = findProgram('caddy')
const skip = skipUnmet(
  'UDP-blocked fallback',
  programRequirement('caddy', caddy, 'caddy'),
  labNetworkSupport(),
)

/** The protocol of the navigation and of `count` fetches made one after the other, 50 ms apart. */
async function protocols(browser: Browser, url: string, count: number): Promise<string[]> {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.goto(url)
    return await page.evaluate(async (count) => {
      for (let i = 0; i < count; i++) {
        const answer = await fetch(`/api/x?i=${i}`)
        if (!answer.ok) throw new Error(`status ${answer.status}`)
        await answer.text()
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const entries = [
        ...performance.getEntriesByType('navigation'),
        ...performance.getEntriesByType('resource'),
      ]
      return entries
        .filter((entry) => entry.name.includes('/api/'))
        .map((entry) => (entry as PerformanceResourceTiming).nextHopProtocol)
    }, count)
  } finally {
    await context.close()
  }
}

describe.skipIf(skip)('serve --http3 with Alt-Svc discovery', () => {
  let lab: Awaited<ReturnType<typeof createLabNetwork>>
  let serve: RunningServe
  let browser: Browser
  let project: string

  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'cdp-h3-fallback-'))
    mkdirSync(join(project, 'node_modules'))
    lab = await createLabNetwork({ lifetimeMs: 120_000 })
    serve = await startServe({
      resolved: resolveOptions({ routes: { '/api': { mock: true } }, log: 'warn' }),
      port: 0,
      host: lab.hostAddress,
      cwd: project,
      http3: { caddy: caddy as string },
    })
    const spki = spkiSha256(serve.certificate?.cert ?? '')
    // QUIC forced on a port nothing uses: that lifts the public-root rule for this host, and
    // leaves the real port to Alt-Svc, with Chromium's real fallback.
    browser = await launchQuicChromium({ forceQuicOn: [`${lab.hostAddress}:9`], spki }, lab.chromiumWrapper)
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await serve?.close(0)
    await lab?.close()
    rmSync(project, { recursive: true, force: true })
  })

  it('starts on HTTP/2, reads Alt-Svc, and moves to h3', async () => {
    const seen = await protocols(browser, `https://${lab.hostAddress}:${serve.port}/api/page`, 12)
    expect(seen[0]).toBe('h2')
    expect(seen.at(-1)).toBe('h3')
  })

  it('falls back to HTTP/2 when UDP is blocked: every request answered, none over h3', async () => {
    await lab.blockUdp(true)
    const seen = await protocols(browser, `https://${lab.hostAddress}:${serve.port}/api/page`, 12)
    expect(seen).toHaveLength(13)
    expect(new Set(seen)).toEqual(new Set(['h2']))
    expect(await lab.rules()).toContain('meta l4proto udp drop')
  })
})
