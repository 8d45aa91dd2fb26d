// `pnpm pack:local`: the packages are not on the npm registry yet, so this builds them and packs
// each into a tarball (as `pnpm publish` would pack it) in `.packs/`, then prints the command that
// installs them into another project. `pnpm pack:local DIR` packs into DIR instead.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * Packs every published package of the repository into `destination` and returns their
 * tarballs by package name.
 * @param {string} repository the repository root
 * @param {string} destination
 * @returns {Record<string, string>} package name → absolute tarball path
 */
export function packPackages(repository, destination) {
  mkdirSync(destination, { recursive: true })
  const tarballs = {}
  for (const entry of readdirSync(join(repository, 'packages'), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue
    const dir = join(repository, 'packages', entry.name)
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    if (manifest.private) continue
    const out = execFileSync('pnpm', ['pack', '--pack-destination', destination], {
      cwd: dir,
      encoding: 'utf8',
    })
    // pnpm prints the tarball's path on its last line.
    const path = out.trim().split('\n').at(-1) ?? ''
    tarballs[manifest.name] = path.startsWith('/') ? path : join(destination, path)
  }
  return tarballs
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
  const tarballs = packPackages(root, destination)
  const here = process.cwd()
  console.log(`\nPacked ${Object.keys(tarballs).length} packages into ${destination}.`)
  console.log('In your project (paths relative to this folder; add --prefix or cd there first):\n')
  for (const name of Object.keys(tarballs).filter((name) => name !== '@cors-dev-proxy/core')) {
    console.log(`  ${name.padEnd(24)} ${installCommand(tarballs, name, here)}`)
  }
  console.log(
    '\nOnce the packages are published: npm i -D @cors-dev-proxy/vite (or webpack, nuxt, rsbuild, core, cors-dev-proxy).',
  )
}
