import { openApp } from './app-page.js'
import { expect, test } from './fixtures.js'

const backend = process.env.BACKEND_URL ?? 'http://127.0.0.1:2'

test('the page shows the recorded answers and the mock, with no backend and no dev server', async ({
  page,
  corsDevProxyReplay,
}) => {
  await openApp(
    page,
    `const users = await (await fetch('/api/users')).json()
    show('users: ' + users.map((user) => user.name).join(', '))
    const created = await fetch('/api/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Grace' }) })
    show('created: ' + created.status + ' ' + (await created.json()).id)
    const ada = await (await fetch('${backend}/users/1')).json()
    show('from the target: ' + ada.name)
    show('mock: ' + (await (await fetch('/api/status')).json()).status)`,
  )
  await expect(page.locator('#out')).toContainText('done')
  await expect(page.locator('#out li')).toHaveText([
    'users: Ada, Linus',
    'created: 201 3',
    'from the target: Ada',
    'mock: mocked',
    'done',
  ])
  expect(corsDevProxyReplay.unmatched).toEqual([])
  expect(corsDevProxyReplay.calls.map((call) => `${call.method} ${call.url} ${call.status}`)).toEqual([
    'GET http://app.test/api/users 200',
    'POST http://app.test/api/users 201',
    `GET ${backend}/users/1 200`,
    'GET http://app.test/api/status 200',
  ])
})

test.describe('with failOnUnmatched: false', () => {
  test.use({ corsDevProxy: { failOnUnmatched: false } })

  test('a call never recorded gets the 404 and the test decides', async ({ page, corsDevProxyReplay }) => {
    await openApp(page, `show('status: ' + (await fetch('/api/users/99')).status)`)
    await expect(page.locator('#out li').first()).toHaveText('status: 404')
    expect(corsDevProxyReplay.unmatched.map((call) => call.url)).toEqual(['http://app.test/api/users/99'])
  })
})
