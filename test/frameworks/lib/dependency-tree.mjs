// What installing our adapters brings into a project: every package reachable from one of them
// (dependencies, and the peers the package manager linked), read from the installed tree as
// Node resolves it. Rsbuild and Rspack projects must not get webpack-dev-server, webpack or
// Express from @cors-dev-proxy/webpack or @cors-dev-proxy/rsbuild.
import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** The folder of package `name` as Node finds it from `fromDir`, or undefined. */
function findPackage(fromDir, name) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate)
    if (dirname(dir) === dir) return undefined
  }
}

/**
 * Every package name reachable from `name`, installed under `root`.
 * @param {string} root the install's folder
 * @param {string} name
 * @returns {Set<string>}
 */
export function reachableFrom(root, name) {
  const seen = new Set()
  const names = new Set()
  const visit = (dir) => {
    if (seen.has(dir)) return
    seen.add(dir)
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    names.add(manifest.name)
    // An optional peer is never installed because of the package: pnpm links it when the project
    // has it for another reason (the webpack `browser` builder of Angular brings webpack-dev-server).
    const optionalPeers = Object.keys(manifest.peerDependenciesMeta ?? {}).filter(
      (peer) => manifest.peerDependenciesMeta[peer]?.optional === true,
    )
    const wanted = {
      ...manifest.dependencies,
      ...manifest.optionalDependencies,
      ...manifest.peerDependencies,
    }
    for (const peer of optionalPeers) delete wanted[peer]
    for (const dep of Object.keys(wanted)) {
      const found = findPackage(dir, dep)
      if (found !== undefined) visit(found)
    }
  }
  const start = findPackage(root, name)
  if (start === undefined) throw new Error(`${name} is not installed in ${root}`)
  visit(start)
  return names
}
