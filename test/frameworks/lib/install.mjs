// Installs the framework apps as a user would: the apps' own dependencies from the lockfile
// committed beside them (test/frameworks/pnpm-lock.yaml, frozen), then our packages from the
// tarballs `pnpm pack` makes, as `npm install ./cors-dev-proxy-vite-0.1.0.tgz` would take them.
import { execFileSync } from 'node:child_process'
import { cpSync } from 'node:fs'
import { join } from 'node:path'
import { installTarballs } from '../../../scripts/pack-local.mjs'

export { packPackages } from '../../../scripts/pack-local.mjs'

/**
 * Copies the apps and their dependency manifest into `folder`, installs the locked
 * dependencies (frozen: the lockfile must match), then adds the tarballs (`installTarballs`).
 * @param {object} input
 * @param {string} input.suite test/frameworks
 * @param {string} input.folder the temporary install root
 * @param {Record<string, string>} input.tarballs package name → tarball
 * @param {Record<string, string>} input.env the environment to run pnpm in (Node 24 first on PATH)
 * @returns {Promise<void>}
 */
export async function installApps({ suite, folder, tarballs, env }) {
  cpSync(join(suite, 'apps'), join(folder, 'apps'), { recursive: true })
  cpSync(join(suite, 'package.json'), join(folder, 'package.json'))
  cpSync(join(suite, 'pnpm-lock.yaml'), join(folder, 'pnpm-lock.yaml'))
  execFileSync('pnpm', ['install', '--frozen-lockfile', '--ignore-workspace', '--reporter=append-only'], {
    cwd: folder,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  await installTarballs({ folder, tarballs, env, echo: true })
}
