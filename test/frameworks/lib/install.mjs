// Installs the framework apps as a user would: the apps' own dependencies from the lockfile
// committed beside them (test/frameworks/pnpm-lock.yaml, frozen), then our packages from the
// tarballs `pnpm pack` makes, as `npm install ./cors-dev-proxy-vite-0.1.0.tgz` would take them.
import { execFileSync } from 'node:child_process'
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export { packPackages } from '../../../scripts/pack-local.mjs'

/**
 * Copies the apps and their dependency manifest into `folder`, installs the locked
 * dependencies (frozen: the lockfile must match), then adds the tarballs. Our packages depend
 * on each other by version (`@cors-dev-proxy/core@^0.1.0`), which is not on the registry yet:
 * overrides point every such name at its tarball.
 * @param {object} input
 * @param {string} input.suite test/frameworks
 * @param {string} input.folder the temporary install root
 * @param {Record<string, string>} input.tarballs package name → tarball
 * @param {Record<string, string>} input.env the environment to run pnpm in (Node 24 first on PATH)
 */
export function installApps({ suite, folder, tarballs, env }) {
  cpSync(join(suite, 'apps'), join(folder, 'apps'), { recursive: true })
  cpSync(join(suite, 'package.json'), join(folder, 'package.json'))
  cpSync(join(suite, 'pnpm-lock.yaml'), join(folder, 'pnpm-lock.yaml'))
  const run = (args) =>
    execFileSync('pnpm', args, { cwd: folder, env, stdio: ['ignore', 'inherit', 'inherit'] })
  run(['install', '--frozen-lockfile', '--ignore-workspace', '--reporter=append-only'])
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'))
  const files = Object.fromEntries(Object.entries(tarballs).map(([name, path]) => [name, `file:${path}`]))
  manifest.dependencies = { ...manifest.dependencies, ...files }
  manifest.pnpm = { ...manifest.pnpm, overrides: { ...manifest.pnpm?.overrides, ...files } }
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  run(['install', '--no-frozen-lockfile', '--ignore-workspace', '--prefer-offline', '--reporter=append-only'])
}
