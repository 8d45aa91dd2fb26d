// What results.json records about the run's conditions: the machine, its load, and the version of
// every program and package that was measured.
import { spawnSync } from 'node:child_process'
import { readFileSync, realpathSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

/** The machine: cores, CPU model, memory, kernel; and the load averages right now. */
export function machine() {
  const cpus = os.cpus()
  return {
    cores: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    kernel: `${os.type()} ${os.release()}`,
  }
}

/** The 1-, 5- and 15-minute load averages, rounded. */
export function loadAverage() {
  return os.loadavg().map((value) => Math.round(value * 100) / 100)
}

/** The first line a program prints for `args`, or undefined when it is not installed. */
function programVersion(command, args, pattern) {
  const result = spawnSync(command, args, { encoding: 'utf8' })
  if (result.error) return undefined
  const text = `${result.stdout}${result.stderr}`
  return pattern.exec(text)?.[1] ?? text.split('\n')[0]?.trim()
}

function packageVersion(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version
}

/** The directory of an installed package, found from the repository root (or `from`). */
function packageDir(name, from = root) {
  const require = createRequire(join(from, 'package.json'))
  try {
    return dirname(require.resolve(`${name}/package.json`))
  } catch {
    // Packages whose `exports` hide package.json: from the entry point upwards.
    let dir = dirname(require.resolve(name))
    while (!readFileSafe(join(dir, 'package.json'))?.includes(`"name": "${name}"`)) dir = dirname(dir)
    return dir
  }
}

function readFileSafe(file) {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

/**
 * Versions of what ran: Node (and Node 24 when used), our packages, the dev servers and proxies,
 * the load generators, nginx and Chromium.
 * @param {{ node24?: string, chromium?: string }} extra
 */
export function versions({ node24, chromium } = {}) {
  const wds5 = realpathSync(join(root, 'node_modules/wds5'))
  const wds6 = realpathSync(join(root, 'node_modules/wds6'))
  return {
    node: process.version,
    node24,
    corsDevProxy: packageVersion(join(root, 'packages/core')),
    git: spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim(),
    vite: packageVersion(realpathSync(join(root, 'node_modules/vite8'))),
    webpackDevServer: packageVersion(wds5),
    webpack: packageVersion(packageDir('webpack')),
    httpProxyMiddleware2: packageVersion(packageDir('http-proxy-middleware', wds5)),
    httpProxyMiddleware3: packageVersion(packageDir('http-proxy-middleware')),
    httpProxyMiddleware4: packageVersion(packageDir('http-proxy-middleware', wds6)),
    undici: packageVersion(packageDir('undici')),
    wrk: programVersion('wrk', ['-v'], /wrk (\S+)/),
    h2load: programVersion('h2load', ['--version'], /nghttp2\/(\S+)/),
    nginx: programVersion('nginx', ['-v'], /nginx\/(\S+)/),
    chromium,
  }
}
