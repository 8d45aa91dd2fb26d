import type { Page } from '@playwright/test'

/** The page's origin: no server has it; `openApp` answers its document itself. */
export const APP_URL = 'http://app.test/'

/**
 * Opens a page at {@link APP_URL} whose script runs `script` (a function body that may `await`
 * and calls `show(text)` to put a line on the page): the document is answered by `page.route`,
 * so no dev server runs.
 */
export async function openApp(page: Page, script: string): Promise<void> {
  const html = `<!doctype html><meta charset="utf-8"><title>app</title><ul id="out"></ul><script type="module">
const show = (text) => { const li = document.createElement('li'); li.textContent = text; document.getElementById('out').append(li) }
try { ${script} } catch (error) { show('error: ' + error.message) }
show('done')
</script>`
  await page.route(APP_URL, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }))
  await page.goto(APP_URL)
}
