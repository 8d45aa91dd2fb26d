// Draws the loss chart of the docs (docs/public/lab-loss.svg) from the `lab` entry of a
// benchmark results file, with the same function the lab page draws it with.
//
//   node playground/lab/render-loss-chart.mjs [bench/results.json] [docs/public/lab-loss.svg]
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { lossChartSvg } from '../src/lab-charts.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const [from = `${root}bench/results.json`, to = `${root}docs/public/lab-loss.svg`] = process.argv.slice(2)
const { lab } = JSON.parse(readFileSync(from, 'utf8'))
if (!lab?.loss?.length) {
  console.error(`${from} has no lab.loss rows: run \`pnpm bench --only lab\` as root first`)
  process.exit(1)
}
const { requests, bytes, runs } = lab.sizes
const title = `${requests} parallel requests of ${bytes / 1024} KiB, ${runs} runs each (${lab.when.slice(0, 10)})`
writeFileSync(to, `${lossChartSvg(lab.loss, { title, width: 720, height: 400 })}\n`)
console.log(`Wrote ${to}`)
