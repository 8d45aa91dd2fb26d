// Installs the framework apps as a user would: the apps' own dependencies from the lockfile
// committed beside them (test/frameworks/pnpm-lock.yaml, frozen), then our packages from the
// tarballs `pnpm pack` makes, as `npm install ./cors-dev-proxy-vite-0.1.0.tgz` would take them.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Packs every published package of the repository into `destination` and returns their
 * tarballs by package name.
 * @param {string} root the repository root
 * @param {string} destination
 * @returns {Record<string, string>} package name → tarball path
 */
export function packPackages(root, destination) {
  mkdirSync(destination, { recursive: true })
  const tarballs = {}
  for (const entry of readdirSync(join(root, 'packages'), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue
    const dir = join(root, 'packages', entry.name)
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    if (manifest.private) continue
    const out = execFileSync('pnpm', ['pack', '--pack-destination', destination], {
      cwd: dir,
      encoding: 'utf8',
    })
    // pnpm prints the tarball's path on its last line.
    const path = out.trim().split('\n').at(-1)
    tarballs[manifest.name] = path.startsWith('/') ? path : join(destination, path)
  }
  return tarballs
}

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
