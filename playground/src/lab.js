// The lab page: asks the playground to run the lab (POST /__lab/run) and draws what came back.
import { browserNote, renderLab } from './lab-view.js'

const status = document.getElementById('lab-status')
document.getElementById('browser-note').textContent = browserNote(navigator.userAgent)

async function run(size) {
  for (const button of document.querySelectorAll('button')) button.disabled = true
  status.textContent =
    size === 'full' ? 'Running the full lab (a few minutes)…' : 'Running the lab (under a minute)…'
  try {
    const answer = await fetch(`/__lab/run?size=${size}`, { method: 'POST' })
    const results = await answer.json()
    if (!answer.ok) throw new Error(results.error ?? `status ${answer.status}`)
    renderLab(results)
  } catch (error) {
    status.textContent = `The lab did not run: ${error.message}. Is \`pnpm playground\` still running?`
  } finally {
    for (const button of document.querySelectorAll('button')) button.disabled = false
  }
}

document.getElementById('run-lab').addEventListener('click', () => run('page'))
document.getElementById('run-lab-full').addEventListener('click', () => run('full'))
fetch('/__lab/results')
  .then((answer) => (answer.ok ? answer.json() : undefined))
  .then((results) => results && renderLab(results))
  .catch(() => {})
