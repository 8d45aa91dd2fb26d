import { openApp } from './app-page.js'
import { expect, test } from './fixtures.js'

// Run on its own by playwright-fixtures.test.ts, with a live backend (BACKEND_URL) and a copy of the recordings.
test.skip(
  process.env.LIVE_BACKEND !== '1',
  'needs the live backend playwright-fixtures.test.ts starts for it',
)
test.use({ corsDevProxy: { mode: 'missing' } })

test("mode 'missing' replays what is recorded and records the rest from the live backend", async ({
  page,
}) => {
  await openApp(
    page,
    `show('users: ' + (await (await fetch('/api/users')).json()).length)
    show('user 2: ' + (await (await fetch('/api/users/2')).json()).name)`,
  )
  await expect(page.locator('#out li')).toHaveText(['users: 2', 'user 2: Linus', 'done'])
})
