// The app's start, as a user's `storybook` script would chain it: `cors-dev-proxy export-msw`
// writes the MSW handlers from recordings/ (cors-dev-proxy.config.json), `msw init` puts MSW's
// worker script in public/ (Storybook's staticDirs), then `storybook dev` runs on the port given.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

const port = process.argv[2] ?? '6006'

/** The folder above the app whose node_modules/.bin holds `name` (the install's root). */
function installRoot(name) {
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules/.bin', name))) return dir
    if (dirname(dir) === dir) throw new Error(`${name} is not installed above ${process.cwd()}`)
  }
}

const bin = (name) => join(installRoot(name), 'node_modules/.bin', name)
const run = (name, args) => execFileSync(bin(name), args, { stdio: 'inherit' })

run('cors-dev-proxy', ['export-msw', '--route', '/api', '--out', 'src/mocks/api-handlers.ts'])
// `msw init` reads the package.json of its --cwd, which the install root has and the app not.
run('msw', ['init', resolve('public'), '--no-save', '--cwd', installRoot('msw')])
const storybook = spawn(bin('storybook'), ['dev', '-p', port, '--host', '127.0.0.1', '--ci', '--no-open'], {
  stdio: 'inherit',
})
storybook.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => storybook.kill(signal))
