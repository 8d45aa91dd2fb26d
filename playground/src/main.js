// Renders the case table, runs cases, and asks the dev server (the playground's own small API)
// for the backend's log and for the predicted console message of blocked calls.
import { cases, newCallId } from './cases.js'
import { setupProtocolPanel } from './protocol-panel.js'

const tbody = document.querySelector('#cases tbody')
const setupError = document.querySelector('#setup-error')
document.querySelector('#page-origin').textContent = location.origin

/** Fetches JSON from the playground API, throwing a readable error when the dev server does not answer. */
async function api(path, init) {
  const response = await fetch(`/__playground/${path}`, init)
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  return response.json()
}

function cell(row, label, className) {
  const td = document.createElement('td')
  td.dataset.label = label
  if (className) td.className = className
  row.append(td)
  return td
}

function renderRow(testCase) {
  const row = document.createElement('tr')
  row.id = `case-${testCase.id}`
  row.dataset.case = testCase.id
  row.dataset.expect = testCase.expect
  const title = cell(row, 'Case', 'case')
  title.innerHTML = '<strong></strong><span class="why"></span>'
  title.querySelector('strong').textContent = testCase.title
  title.querySelector('.why').textContent = `${testCase.why} Expected: ${testCase.expect}.`
  cell(row, 'Sent', 'sent').textContent = '–'
  cell(row, 'Preflight', 'preflight').textContent = '–'
  cell(row, 'Script could read', 'read').textContent = '–'
  cell(row, 'Verdict', 'verdict-cell').innerHTML = '<span class="verdict">not run</span>'
  const button = document.createElement('button')
  button.type = 'button'
  button.textContent = 'Run'
  button.addEventListener('click', () => runCase(testCase, row))
  cell(row, '', 'actions').append(button)
  tbody.append(row)
}

let env

async function runCase(testCase, row) {
  const verdictCell = row.querySelector('.verdict-cell')
  verdictCell.innerHTML = '<span class="verdict">running…</span>'
  row.dataset.state = 'running'
  const cid = newCallId(testCase.id)
  const url = testCase.url(env, cid)
  let result
  try {
    result = await testCase.run(url)
  } catch (error) {
    result = { verdict: 'error', read: `the case itself failed: ${error.message}` }
  }
  const request = result.request
  row.querySelector('.sent').textContent =
    `${request?.method ?? 'GET'} ${url}${request?.credentials ? ' (credentials)' : ''}`
  row.querySelector('.read').textContent = result.read

  const log = await api(`log?cid=${encodeURIComponent(cid)}`).catch(() => [])
  const preflights = log.filter((entry) => entry.method === 'OPTIONS')
  const handled = log.filter((entry) => entry.method !== 'OPTIONS')
  row.querySelector('.preflight').textContent = request
    ? preflights.length > 0
      ? `yes: OPTIONS → ${preflights.map((entry) => entry.status).join(', ')}`
      : 'no'
    : 'n/a (not a fetch)'

  const verdict = document.createElement('span')
  verdict.className = `verdict ${result.verdict.replace(' ', '-')}`
  verdict.textContent = result.verdict
  verdictCell.replaceChildren(verdict)
  if (result.verdict !== testCase.expect) {
    verdict.classList.add('unexpected')
    addNote(
      verdictCell,
      'note',
      `Expected ${testCase.expect}. Is every backend running? Restart \`pnpm playground\` and reload.`,
    )
  }
  if (handled.length > 0 && !url.startsWith('/')) {
    const seen = handled
      .map((entry) => `${entry.method} ${entry.path.split('?')[0]} → ${entry.status}`)
      .join(', ')
    addNote(verdictCell, 'note', `backend log: ${seen}`)
  }
  if (result.verdict === 'blocked' && request) {
    const explained = await api('explain', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...request, origin: location.origin }),
    }).catch((error) => ({ message: `(could not explain: ${error.message})` }))
    addNote(verdictCell, 'console', explained.message ?? '')
    if (explained.fix) addNote(verdictCell, 'fix', `Fix: ${explained.fix}`)
  } else if (result.console) {
    addNote(verdictCell, 'console', result.console)
  }
  row.dataset.verdict = result.verdict
  row.dataset.state = 'done'
}

function addNote(parent, className, text) {
  const note = document.createElement('span')
  note.className = className
  note.textContent = text
  parent.append(note)
}

for (const testCase of cases) renderRow(testCase)

document.querySelector('#run-all').addEventListener('click', async () => {
  // One at a time, so the backend's log and the browser's console line up with each row.
  for (const testCase of cases) await runCase(testCase, document.querySelector(`#case-${testCase.id}`))
  document.body.dataset.ranAll = 'true'
})

try {
  env = await api('config')
  document.querySelector('#origins').textContent =
    `Backend without CORS: ${env.backend} · backend with CORS: ${env.corsBackend} · dev server over HTTPS (HTTP/2): ${env.https}`
  setupProtocolPanel(env)
  document.body.dataset.ready = 'true'
} catch (error) {
  setupError.hidden = false
  setupError.textContent = `The playground's dev server did not answer (${error.message}). Start it with \`pnpm playground\`.`
}
