import { type CorsDevProxyTestFixtures, corsDevProxyFixtures } from '@cors-dev-proxy/playwright'
import { test as base, expect } from '@playwright/test'
import { openApp } from './app-page.js'

// cors-dev-proxy.config.mjs beside playwright.config.ts, read as the CLI reads it.
const test = base.extend<CorsDevProxyTestFixtures>(corsDevProxyFixtures({ configFile: true }))

test('the routes of the configuration file replay', async ({ page }) => {
  await openApp(page, `show('users: ' + (await (await fetch('/api/users')).json()).length)`)
  await expect(page.locator('#out li').first()).toHaveText('users: 2')
})
