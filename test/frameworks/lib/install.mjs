// Installs the framework apps as a user would: the apps' own dependencies from the lockfile
// committed beside them (test/frameworks/pnpm-lock.yaml, frozen), then our packages from the
// tarballs `pnpm pack` makes, as `npm install ./cors-dev-proxy-vite-0.1.0.tgz` would take them.
// An older dependency set (sets/<name>/package.json and its own lockfile) is installed the same
// way into a folder of its own, for the apps that name it (`set` in app.mjs).
import { execFileSync } from 'node:child_process'
import { cpSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { installTarballs } from '../../../scripts/pack-local.mjs'

export { packPackages } from '../../../scripts/pack-local.mjs'

/**
 * Copies the apps and a dependency manifest into `folder`, installs the locked dependencies
 * (frozen: the lockfile must match), then adds the tarballs (`installTarballs`).
 * @param {object} input
 * @param {string} input.suite test/frameworks
 * @param {string} input.folder the temporary install root
 * @param {Record<string, string>} input.tarballs package name → tarball
 * @param {Record<string, string>} input.env the environment to run pnpm in (Node 24 first on PATH)
 * @param {string} [input.set] the dependency set under sets/ (none: the suite's own)
 * @returns {Promise<void>}
 */
export async function installApps({ suite, folder, tarballs, env, set }) {
  const manifests = set === undefined ? suite : join(suite, 'sets', set)
  cpSync(join(suite, 'apps'), join(folder, 'apps'), { recursive: true })
  cpSync(join(manifests, 'package.json'), join(folder, 'package.json'))
  cpSync(join(manifests, 'pnpm-lock.yaml'), join(folder, 'pnpm-lock.yaml'))
  execFileSync('pnpm', ['install', '--frozen-lockfile', '--ignore-workspace', '--reporter=append-only'], {
    cwd: folder,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  await installTarballs({ folder, tarballs, env, echo: true })
}

/**
 * Makes an app that reuses another's files (`base` in its app.mjs) whole in the install: the
 * base app's files, then the app's own over them, so a variant holds only what differs.
 * @param {object} input
 * @param {string} input.suite test/frameworks
 * @param {string} input.appDir the app's folder in the install
 * @param {string} input.name the app's folder name
 * @param {string} input.base the folder name of the app it reuses
 * @returns {void}
 */
export function composeApp({ suite, appDir, name, base }) {
  rmSync(appDir, { recursive: true, force: true })
  cpSync(join(suite, 'apps', base), appDir, { recursive: true })
  cpSync(join(suite, 'apps', name), appDir, { recursive: true })
}
