// `pnpm pack:local`: the packages are not on the npm registry yet, so this builds them and packs
// each into a tarball (as `pnpm publish` would pack it) in `.packs/`, then prints the command that
// installs them into another project. `pnpm pack:local DIR` packs into DIR instead.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { isAbsolute, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runCommand } from './release/run-command.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * The folders of the packages a release publishes: every `packages/*` whose package.json is not
 * private, in name order.
 * @param {string} repository the repository root
 * @returns {string[]} absolute folders
 */
export function publishedPackageDirs(repository) {
  return readdirSync(join(repository, 'packages'), { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && existsSync(join(repository, 'packages', entry.name, 'package.json')),
    )
    .map((entry) => join(repository, 'packages', entry.name))
    .filter((dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).private !== true)
    .sort()
}

/**
 * One packed package, as `pnpm pack --json` describes it.
 * @typedef {object} PackedPackage
 * @property {string} name
 * @property {string} version
 * @property {string} filename the tarball's absolute path
 * @property {string[]} files the paths inside the tarball, without the leading `package/`
 */

/**
 * Packs the package in `dir` into `destination` with `pnpm pack`, as `pnpm publish` packs it
 * (`workspace:` ranges replaced by versions).
 * @param {string} dir the package's folder
 * @param {string} destination
 * @returns {Promise<PackedPackage>}
 */
export async function packPackage(dir, destination) {
  const args = ['pack', '--pack-destination', destination, '--json']
  const { code, stdout, output } = await runCommand('pnpm', args, { cwd: dir })
  if (code !== 0) throw new Error(`pnpm ${args.join(' ')} in ${dir} exited with ${code}\n${output}`)
  const { name, version, filename, files } = JSON.parse(stdout)
  return {
    name,
    version,
    filename: isAbsolute(filename) ? filename : join(destination, filename),
    files: files.map((file) => file.path),
  }
}

/**
 * Packs every published package of the repository into `destination`, all at once, and returns
 * their tarballs by package name.
 * @param {string} repository the repository root
 * @param {string} destination
 * @returns {Promise<Record<string, string>>} package name → absolute tarball path
 */
export async function packPackages(repository, destination) {
  mkdirSync(destination, { recursive: true })
  const packed = await Promise.all(
    publishedPackageDirs(repository).map((dir) => packPackage(dir, destination)),
  )
  return Object.fromEntries(packed.map(({ name, filename }) => [name, filename]))
}

/**
 * Adds the tarballs to the project in `folder` as `npm i ./x.tgz` would, with pnpm: each becomes a
 * `file:` dependency, and an override points every such name at its tarball, because our packages
 * depend on each other by version (`@cors-dev-proxy/core@^0.1.0`), which the registry may not have.
 * @param {object} input
 * @param {string} input.folder a project with its package.json
 * @param {Record<string, string>} input.tarballs package name → tarball
 * @param {NodeJS.ProcessEnv} [input.env] the environment to run pnpm in
 * @param {string[]} [input.pnpmArgs] more arguments for `pnpm install`
 * @param {boolean} [input.echo] print pnpm's output as it comes (else it is in the error only)
 * @returns {Promise<void>}
 */
export async function installTarballs({ folder, tarballs, env = process.env, pnpmArgs = [], echo = false }) {
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'))
  const files = Object.fromEntries(Object.entries(tarballs).map(([name, path]) => [name, `file:${path}`]))
  manifest.dependencies = { ...manifest.dependencies, ...files }
  manifest.pnpm = { ...manifest.pnpm, overrides: { ...manifest.pnpm?.overrides, ...files } }
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  // --no-frozen-lockfile: under CI pnpm install would otherwise insist on a lockfile that matches.
  const args = ['install', '--no-frozen-lockfile', '--ignore-workspace', '--prefer-offline', ...pnpmArgs]
  const { code, output } = await runCommand('pnpm', [...args, '--reporter=append-only'], {
    cwd: folder,
    env,
    echo,
  })
  if (code !== 0) throw new Error(`pnpm ${args.join(' ')} in ${folder} exited with ${code}\n${output}`)
}

/**
 * The install line for one adapter: its tarball and the core's in one `npm i`, since the adapter
 * depends on `@cors-dev-proxy/core@^0.1.0`, which npm then takes from the tarball beside it
 * instead of the registry.
 * @param {Record<string, string>} tarballs
 * @param {string} name the package to install
 * @param {string} from where the command runs (paths are written relative to it)
 */
export function installCommand(tarballs, name, from) {
  const paths = [tarballs['@cors-dev-proxy/core'], tarballs[name]]
    .filter((path, index, all) => path !== undefined && all.indexOf(path) === index)
    .map((path) => relative(from, path) || '.')
  return `npm i -D ${paths.join(' ')}`
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const destination = resolve(process.argv[2] ?? join(root, '.packs'))
  rmSync(destination, { recursive: true, force: true })
  execFileSync('pnpm', ['build'], { cwd: root, stdio: 'inherit' })
  const tarballs = await packPackages(root, destination)
  const here = process.cwd()
  console.log(`\nPacked ${Object.keys(tarballs).length} packages into ${destination}.`)
  console.log('In your project (paths relative to this folder; add --prefix or cd there first):\n')
  for (const name of Object.keys(tarballs).filter((name) => name !== '@cors-dev-proxy/core')) {
    console.log(`  ${name.padEnd(24)} ${installCommand(tarballs, name, here)}`)
  }
  console.log(
    '\nOnce the packages are published: npm i -D @cors-dev-proxy/vite (or webpack, nuxt, next, rsbuild, angular, playwright, core, cors-dev-proxy).',
  )
}
