import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { corsDevProxy } from '@cors-dev-proxy/webpack'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import webpack from 'webpack'
import { startWebpackDevServer, WEBPACK_APP } from '../adapters/webpack-server.ts'
import { launchChromium } from '../support/browser.ts'
import { startPlainBackend } from './backend.ts'
import { expectInspectorAndHar, expectOverlayForDirectCall } from './overlay-scenario.ts'

/**
 * webpack-dev-server with its own client and HMR off, serving a static HTML file that loads the
 * bundle (no html-webpack-plugin): the spread of `corsDevProxy()` alone must bring the overlay.
 */
describe('the overlay and the inspector in a real webpack app', () => {
  let browser: Browser
  let backend: Awaited<ReturnType<typeof startPlainBackend>>
  let site: string

  beforeAll(async () => {
    ;[browser, backend] = await Promise.all([launchChromium(), startPlainBackend()])
    site = await mkdtemp(join(tmpdir(), 'cdp-webpack-static-'))
    await writeFile(
      join(site, 'index.html'),
      '<!doctype html><title>static</title><script src="/main.js"></script>',
    )
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await backend?.close()
    await rm(site, { recursive: true, force: true })
  })

  const devServer = () => ({ static: { directory: site }, client: false, hot: false, liveReload: false })

  test('a direct call to a backend without CORS shows the overlay; with the route, the inspector and the HAR list it', async () => {
    const before = await startWebpackDevServer({
      routes: { '/other': { mock: true } },
      devServer: devServer(),
    })
    try {
      await expectOverlayForDirectCall(browser, `${before.origin}/`, backend.url)
    } finally {
      await before.close()
    }
    const after = await startWebpackDevServer({ routes: { '/api': backend.url }, devServer: devServer() })
    try {
      await expectInspectorAndHar(browser, `${after.origin}/`, backend.url)
    } finally {
      await after.close()
    }
  }, 60_000)

  test('overlay: false adds no entry; webpack build contains none of it', async () => {
    const output = await mkdtemp(join(tmpdir(), 'cdp-webpack-build-'))
    try {
      const off = await startWebpackDevServer({
        routes: { '/api': backend.url },
        options: { overlay: false },
        devServer: devServer(),
      })
      try {
        const bundle = await (await fetch(`${off.origin}/main.js`)).text()
        expect(bundle).toContain('cors-dev-proxy webpack fixture')
        expect(bundle).not.toContain('cors-dev-proxy-overlay')
        expect((await fetch(`${off.origin}/__cors-dev-proxy/client.js`)).status).toBe(404)
      } finally {
        await off.close()
      }
      // The same config, built: `devServer` (and the entry it adds) plays no part.
      const compiler = webpack({
        mode: 'production',
        context: WEBPACK_APP,
        entry: './index.js',
        output: { path: output },
        devServer: { ...corsDevProxy({ '/api': backend.url }) },
      } as webpack.Configuration)
      await new Promise<void>((resolve, reject) =>
        compiler.run((error, stats) =>
          error || stats?.hasErrors() ? reject(error ?? stats?.toString()) : resolve(),
        ),
      )
      await new Promise<void>((resolve) => compiler.close(() => resolve()))
      const files = await readdir(output)
      expect(files).toContain('main.js')
      for (const file of files) {
        expect(await readFile(join(output, file), 'utf8')).not.toMatch(
          /__cors-dev-proxy|cors-dev-proxy-overlay/,
        )
      }
    } finally {
      await rm(output, { recursive: true, force: true })
    }
  }, 60_000)
})
