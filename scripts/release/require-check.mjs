// require() of every package from a CommonJS script, in a project where the tarballs are installed
// as a user installs them. Node >= 20.19 loads an ES module through require() when its graph has no
// top-level await; webpack configs are often CommonJS, so this is how many users load us.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { installTarballs } from '../pack-local.mjs'
import { runCommand } from './run-command.mjs'

const here = fileURLToPath(new URL('.', import.meta.url))
const webpackReadme = fileURLToPath(new URL('../../packages/webpack/README.md', import.meta.url))

/** The webpack README's CommonJS config, written into the project under this name. */
export const WEBPACK_CONFIG = './webpack.config.js'

/**
 * What each module must export to a CommonJS script: an export's `typeof`, or for a plain object
 * the `typeof` of its keys. Every published package needs a line (`uncoveredPackages` says which lack one),
 * and the last line is the webpack README's config, required as webpack-cli requires it.
 */
export const REQUIRED_EXPORTS = Object.freeze({
  '@cors-dev-proxy/core': {
    createCorsDevProxy: 'function',
    CorsDevProxyError: 'function',
    defineConfig: 'function',
  },
  '@cors-dev-proxy/core/adapter': { createDevServerProxy: 'function', resolveOptions: 'function' },
  '@cors-dev-proxy/core/client': { jsonp: 'function' },
  '@cors-dev-proxy/vite': { corsDevProxy: 'function' },
  '@cors-dev-proxy/webpack': { corsDevProxy: 'function' },
  '@cors-dev-proxy/rsbuild': { pluginCorsDevProxy: 'function' },
  // Nuxt loads a module by its default export.
  '@cors-dev-proxy/nuxt': { default: 'function', corsDevProxyModule: 'function' },
  '@cors-dev-proxy/next': {
    withCorsDevProxy: 'function',
    createNextProxy: 'function',
    createNextServer: 'function',
  },
  '@cors-dev-proxy/angular': { angularProxy: 'function' },
  // Loads without @playwright/test: it only needs its types.
  '@cors-dev-proxy/playwright': { corsDevProxyFixtures: 'function' },
  'cors-dev-proxy': { defineConfig: 'function' },
  [WEBPACK_CONFIG]: { devServer: { setupMiddlewares: 'function', onListening: 'function' } },
})

/**
 * The first CommonJS sample of a README (a `js` block that calls require()).
 * @param {string} readme
 * @returns {string | undefined}
 */
export function commonJsSample(readme) {
  const blocks = [...readme.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '')
  return blocks.find((block) => /\brequire\(/.test(block))
}

/**
 * Compares a probe's report (`require-probe.cjs`) with the expected exports.
 * @param {Record<string, { exports?: Record<string, unknown>, error?: string }>} report
 * @param {Readonly<Record<string, Record<string, unknown>>>} expected specifier → export → type
 * @returns {string[]} one sentence per problem: a module that threw, or an export missing or of another type
 * @example
 * requireProblems({ x: { error: 'ERR_REQUIRE_ASYNC_MODULE: ...' } }, { x: { a: 'function' } })
 * // → ["require('x') threw ERR_REQUIRE_ASYNC_MODULE: ..."]
 */
export function requireProblems(report, expected) {
  const problems = []
  for (const [specifier, exports] of Object.entries(expected)) {
    const result = report[specifier]
    if (result?.error !== undefined) problems.push(`require('${specifier}') threw ${result.error}`)
    else if (result?.exports === undefined) problems.push(`require('${specifier}') was not probed`)
    else problems.push(...exportProblems(`require('${specifier}')`, result.exports, exports))
  }
  return problems
}

/** The differences between the types found and the types expected, one level of objects deep. */
function exportProblems(where, found, expected) {
  return Object.entries(expected).flatMap(([key, type]) => {
    const actual = found[key]
    if (typeof type === 'object') {
      if (typeof actual !== 'object') return [`${where}.${key} is ${actual ?? 'missing'}, not an object`]
      return exportProblems(`${where}.${key}`, actual, type)
    }
    return actual === type ? [] : [`${where}.${key} is ${actual ?? 'missing'}, not a ${type}`]
  })
}

/**
 * The packages with no line in the table (a new package must be added to it).
 * @param {readonly string[]} names the published packages
 * @param {Readonly<Record<string, unknown>>} expected
 * @returns {string[]}
 */
export function uncoveredPackages(names, expected) {
  const specifiers = Object.keys(expected)
  return names.filter((name) => !specifiers.some((spec) => spec === name || spec.startsWith(`${name}/`)))
}

/**
 * Installs the tarballs into a new CommonJS project in `folder`, with the webpack README's config
 * and the probe, without the packages' peers (Vite, webpack-dev-server, Nuxt...): the adapters
 * must load without them until the dev server calls them.
 * @param {string} folder an empty folder
 * @param {Record<string, string>} tarballs package name → tarball
 * @param {string} [readme] the README whose CommonJS sample becomes the config (the webpack package's)
 * @returns {Promise<void>}
 */
export async function prepareRequireProject(folder, tarballs, readme = readFileSync(webpackReadme, 'utf8')) {
  mkdirSync(folder, { recursive: true })
  // No "type": module, so .js files are CommonJS.
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify({ name: 'require-check', private: true })}\n`)
  const sample = commonJsSample(readme)
  if (sample === undefined) throw new Error('packages/webpack/README.md has no CommonJS (require) sample')
  writeFileSync(join(folder, WEBPACK_CONFIG), sample)
  copyFileSync(join(here, 'require-probe.cjs'), join(folder, 'require-probe.cjs'))
  await installTarballs({ folder, tarballs, pnpmArgs: ['--config.auto-install-peers=false'] })
}

/**
 * Runs the probe in the project with one Node binary and returns what is wrong, each sentence
 * naming that Node's version.
 * @param {string} folder a project `prepareRequireProject` made
 * @param {string} node the Node binary
 * @param {Readonly<Record<string, Record<string, unknown>>>} [expected]
 * @returns {Promise<string[]>}
 */
export async function probeRequire(folder, node, expected = REQUIRED_EXPORTS) {
  // NODE_OPTIONS from a parent (a test runner's loader, say) must not change how require() works.
  const env = { ...process.env, NODE_OPTIONS: '' }
  const version = await runCommand(node, ['--version'], { env })
  const label = `Node ${version.output.trim() || node}`
  const probe = await runCommand(node, ['require-probe.cjs', JSON.stringify(Object.keys(expected))], {
    cwd: folder,
    env,
  })
  let report
  try {
    report = probe.code === 0 ? JSON.parse(probe.stdout) : undefined
  } catch {
    // Something in a module wrote to stdout: reported below with the output.
  }
  if (report === undefined) return [`${label}: the probe exited with ${probe.code}: ${probe.output.trim()}`]
  return requireProblems(report, expected).map((problem) => `${label}: ${problem}`)
}
