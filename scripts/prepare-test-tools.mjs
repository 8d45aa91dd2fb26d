// `pnpm test:tools`, the first step of `pnpm test`: installs what the tests need beyond Node 20
// and pnpm, so that `pnpm install && pnpm test` passes on a fresh machine.
//
//   Debian packages   the programs in DEBIAN_PACKAGES (Chromium for the browser tests, wrk and
//                     h2load for the benchmark, ...)
//   Node 24           in .tools/node24 (git-ignored), for the webpack-dev-server 6 cell of
//                     test/matrix/run-matrix.mjs, which needs Node >= 22.15
//   Deno              in .tools/deno (git-ignored), the version the framework suite pins, for
//                     test/docs/fetch-handler-snippets.test.ts (the docs' Deno server, run)
//
// When everything is present it only looks (no network). As root it runs apt-get itself; as any
// other user it stops with exit code 1 and prints the command to run, because a test run must not
// wait on a sudo password prompt.
//
// Two environment variables exist only for test/tools/prepare-test-tools.test.ts, so that the
// refusal can be tested on any machine without touching apt:
//   CDP_TOOLS_PATH=<dirs>   look for the programs in these directories (PATH syntax) instead of PATH
//   CDP_TOOLS_NOT_ROOT=1    behave as when not running as root
import { spawnSync } from 'node:child_process'
import { accessSync, constants, mkdirSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const TAG = '[prepare-test-tools]'

/**
 * The programs the tests run, each mapped to the Debian package that installs it.
 * Add a line here when a test starts to need another program.
 */
export const DEBIAN_PACKAGES = Object.freeze({
  // The browser and playground tests drive it through playwright-core (test/support/browser.ts).
  chromium: 'chromium',
  // The benchmark's production baseline (bench/nginx.mjs), and the CLI's nginx export
  // (packages/cli/test/export, test/parity).
  nginx: 'nginx',
  // The CLI's Caddy export (packages/cli/test/export, test/parity).
  caddy: 'caddy',
  // The benchmark's load generators (bench/wrk.mjs, bench/h2load.mjs); `pnpm bench --quick` runs on
  // CI after `pnpm test`.
  wrk: 'wrk',
  h2load: 'nghttp2-client',
  // The protocol lab's HTTP/2 frame decoding (playground/lab, test/playground/lab.test.ts).
  nghttp: 'nghttp2-client',
  // The protocol lab's network namespace, packet loss and UDP blocking (playground/lab/lab-network.mjs;
  // test/playground, test/http3): `ip netns` and nftables rules inside the namespace.
  ip: 'iproute2',
  nft: 'nftables',
  // serve --http3's tests find the Caddy a CLI process started (packages/cli/test/commands).
  pgrep: 'procps',
})

/** The Node major the matrix's webpack-dev-server 6 cell runs on. */
export const NODE24_MAJOR = 24

/** Where test/matrix/run-matrix.mjs looks for it, relative to the repository root. */
export const NODE24_DIR = '.tools/node24'

/**
 * The Node 24 binary, for the matrix and the release check's require() on Node 24: npm's `node`
 * package links the platform's binary here (it comes from the npm registry too).
 */
export const NODE24_BINARY = join(root, NODE24_DIR, 'node_modules/.bin/node')

/** Where the docs' Deno server is run from, relative to the repository root. */
export const DENO_DIR = '.tools/deno'

/** The Deno binary: npm's `deno` package copies the platform's binary here when it installs. */
export const DENO_BINARY = join(root, DENO_DIR, 'node_modules/deno/deno')

/**
 * The Deno version the framework suite pins (test/frameworks/package.json), so that the root's
 * tests and the suite run the same Deno.
 * @returns {string}
 * @example
 * pinnedDenoVersion() // → '2.9.6'
 */
export function pinnedDenoVersion() {
  const manifest = JSON.parse(readFileSync(join(root, 'test/frameworks/package.json'), 'utf8'))
  return manifest.dependencies.deno
}

/**
 * A command to run, as `spawnSync` takes it.
 * @typedef {object} Command
 * @property {string} file
 * @property {string[]} args
 * @property {Record<string, string>} [env] added to the environment
 */

/**
 * What to do about the Debian packages:
 * `none` when every program is there, `run` the commands (as root), or `refuse` with the message
 * that tells the user what to run.
 * @typedef {{ action: 'none' } | { action: 'run', packages: string[], commands: Command[] }
 *   | { action: 'refuse', packages: string[], message: string }} DebianPlan
 */

/**
 * Decides what to do about the programs that are missing. Pure, so that every case can be tested.
 *
 * @param {object} input
 * @param {readonly string[]} input.missing programs (keys of `packages`) that are not installed
 * @param {boolean} input.isRoot whether this process may run apt-get itself
 * @param {Readonly<Record<string, string>>} [input.packages] program → Debian package
 * @returns {DebianPlan}
 * @example
 * planDebianPackages({ missing: ['nginx'], isRoot: false })
 * // → { action: 'refuse', packages: ['nginx'], message: '... sudo apt-get update && sudo apt-get install -y nginx' }
 */
export function planDebianPackages({ missing, isRoot, packages = DEBIAN_PACKAGES }) {
  if (missing.length === 0) return { action: 'none' }
  const names = [...new Set(missing.map((program) => debianPackageOf(program, packages)))]
  if (isRoot) {
    return {
      action: 'run',
      packages: names,
      commands: [
        { file: 'apt-get', args: ['update'] },
        // Non-interactive: a package's configuration questions must not stop a test run.
        {
          file: 'apt-get',
          args: ['install', '-y', ...names],
          env: { DEBIAN_FRONTEND: 'noninteractive' },
        },
      ],
    }
  }
  const message = [
    `${TAG} the tests need ${missing.join(', ')}, which ${missing.length === 1 ? 'is' : 'are'} not installed.`,
    'Install with this command (Debian or Ubuntu), then run pnpm test again:',
    `  sudo apt-get update && sudo apt-get install -y ${names.join(' ')}`,
  ].join('\n')
  return { action: 'refuse', packages: names, message }
}

/**
 * The Debian package of a program; a program missing from the map is a mistake in this file.
 * @param {string} program
 * @param {Readonly<Record<string, string>>} packages
 */
function debianPackageOf(program, packages) {
  const name = packages[program]
  if (name === undefined) throw new Error(`${TAG} no Debian package known for "${program}"`)
  return name
}

/**
 * Whether the Node found in `.tools/node24` must be (re)installed.
 * @param {string | undefined} version what the binary printed (`v24.11.0`), undefined when it cannot run
 * @example
 * needsNode24Install('v24.11.0') // → false
 */
export function needsNode24Install(version) {
  return version === undefined || Number(version.slice(1).split('.')[0]) !== NODE24_MAJOR
}

/**
 * The full path of an executable `program` in `searchPath` (PATH syntax), or undefined.
 * @param {string} program
 * @param {string} searchPath
 */
export function findProgram(program, searchPath) {
  for (const dir of searchPath.split(delimiter)) {
    if (dir === '') continue
    const candidate = join(dir, program)
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // Not in this directory: try the next one.
    }
  }
  return undefined
}

/** The version a Node binary prints, or undefined when it is missing or cannot run. */
function nodeVersion(binary) {
  const result = spawnSync(binary, ['-p', 'process.version'], { encoding: 'utf8' })
  return result.status === 0 ? result.stdout.trim() : undefined
}

/**
 * Runs one command with inherited output; exits with its code when it fails.
 * @param {Command} command
 */
function runOrExit({ file, args, env = {} }) {
  const shown = [...Object.entries(env).map(([key, value]) => `${key}=${value}`), file, ...args].join(' ')
  console.log(`${TAG} ${shown}`)
  const result = spawnSync(file, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })
  if (result.error) {
    console.error(`${TAG} could not run ${file}: ${result.error.message}`)
    process.exit(1)
  }
  if (result.status !== 0) {
    console.error(`${TAG} ${shown} failed (exit ${result.status ?? result.signal})`)
    process.exit(result.status || 1)
  }
}

/** Installs the missing Debian packages as root, or stops with the command to run. */
function prepareDebianPackages() {
  const searchPath = process.env.CDP_TOOLS_PATH ?? process.env.PATH ?? ''
  const isRoot = process.env.CDP_TOOLS_NOT_ROOT !== '1' && process.getuid?.() === 0
  const programs = Object.keys(DEBIAN_PACKAGES)
  const missing = programs.filter((program) => findProgram(program, searchPath) === undefined)
  const plan = planDebianPackages({ missing, isRoot })
  if (plan.action === 'refuse') {
    console.error(plan.message)
    process.exit(1)
  }
  if (plan.action === 'run') {
    console.log(`${TAG} installing ${plan.packages.join(', ')} (Debian packages)`)
    for (const command of plan.commands) runOrExit(command)
    const stillMissing = programs.filter((program) => findProgram(program, searchPath) === undefined)
    if (stillMissing.length > 0) {
      console.error(`${TAG} apt-get succeeded, yet still not on PATH: ${stillMissing.join(', ')}`)
      process.exit(1)
    }
  }
  console.log(`${TAG} ${programs.join(', ')}: present`)
}

/** Installs Node 24 into .tools/node24 from the npm registry when it is missing or cannot run. */
function prepareNode24() {
  if (needsNode24Install(nodeVersion(NODE24_BINARY))) {
    // A half-installed or wrong Node would make npm believe there is nothing to do.
    rmSync(join(root, NODE24_DIR), { recursive: true, force: true })
    mkdirSync(join(root, NODE24_DIR), { recursive: true })
    runOrExit({
      file: 'npm',
      args: ['i', '--prefix', NODE24_DIR, '--no-audit', '--no-fund', '--no-save', `node@${NODE24_MAJOR}`],
    })
  }
  const version = nodeVersion(NODE24_BINARY)
  if (needsNode24Install(version)) {
    console.error(
      `${TAG} ${NODE24_BINARY} does not run Node ${NODE24_MAJOR} (it printed ${version ?? 'nothing'})`,
    )
    process.exit(1)
  }
  console.log(`${TAG} Node ${NODE24_MAJOR}: ${version} (${NODE24_DIR})`)
}

/** The version a Deno binary prints (`deno 2.9.6 (stable, …)` → `2.9.6`), or undefined. */
function denoVersion(binary) {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8' })
  return result.status === 0 ? /^deno (\S+)/.exec(result.stdout)?.[1] : undefined
}

/** Installs the pinned Deno into .tools/deno from the npm registry when it is missing or another version. */
function prepareDeno() {
  const wanted = pinnedDenoVersion()
  if (denoVersion(DENO_BINARY) !== wanted) {
    rmSync(join(root, DENO_DIR), { recursive: true, force: true })
    mkdirSync(join(root, DENO_DIR), { recursive: true })
    runOrExit({
      file: 'npm',
      args: ['i', '--prefix', DENO_DIR, '--no-audit', '--no-fund', '--no-save', `deno@${wanted}`],
    })
  }
  const version = denoVersion(DENO_BINARY)
  if (version !== wanted) {
    console.error(`${TAG} ${DENO_BINARY} does not run Deno ${wanted} (it printed ${version ?? 'nothing'})`)
    process.exit(1)
  }
  console.log(`${TAG} Deno: ${version} (${DENO_DIR})`)
}

/** Whether this file is the script node was asked to run (and not imported by a test). */
function isMain() {
  return process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)
}

if (isMain()) {
  // The Debian check first: it can refuse at once, before any download.
  prepareDebianPackages()
  prepareNode24()
  prepareDeno()
}
