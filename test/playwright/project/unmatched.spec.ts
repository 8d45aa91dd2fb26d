import { openApp } from './app-page.js'
import { expect, test } from './fixtures.js'

test('a call no recording matches fails the test', async ({ page }) => {
  await openApp(page, `show('status: ' + (await fetch('/api/users?page=2')).status)`)
  // The page gets the core's 404; the fixture fails the test when it ends.
  await expect(page.locator('#out li').first()).toHaveText('status: 404')
})
