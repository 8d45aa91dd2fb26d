// `pnpm release:check` (in `pnpm test`, after `pnpm build`): whether the packages are ready to
// publish. It packs each published package once, as `pnpm publish` packs it, and checks:
//
//   tarball files     only package.json, README.md, LICENSE and dist/ (scripts/release/tarball-files.mjs)
//   CHANGELOG.md      one per package, its newest entry the package's version (release/changelogs.mjs)
//   publint --strict  and attw --profile esm-only on each tarball (release/package-linters.mjs)
//   publish dry run   pnpm -r publish --dry-run: every package, public (release/publish-dry-run.mjs)
//   require()         each package from a CommonJS script, on this Node and on Node 24
//                     (release/require-check.mjs), installed from the tarballs
//
// Every check runs, and every failure is reported, before it exits 1.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { packPackage, publishedPackageDirs } from './pack-local.mjs'
import { NODE24_BINARY } from './prepare-test-tools.mjs'
import { packageChangelogProblems } from './release/changelogs.mjs'
import { attwProblems, publintProblems } from './release/package-linters.mjs'
import { publishDryRun, publishDryRunProblems } from './release/publish-dry-run.mjs'
import {
  prepareRequireProject,
  probeRequire,
  REQUIRED_EXPORTS,
  uncoveredPackages,
} from './release/require-check.mjs'
import { tarballFileProblems } from './release/tarball-files.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const TAG = '[release:check]'
/** Checks at a time beside the publish dry run: the require() check waits on child processes. */
const CONCURRENCY = 2

/**
 * A named check: a function that resolves with its problems (none when it passes).
 * @typedef {{ name: string, run: () => Promise<string[]> | string[] }} Check
 */

/** The checks of one packed package. */
function packageChecks({ dir, name, version, filename, files }) {
  return [
    { name: `${name}: tarball files`, run: () => tarballFileProblems(files) },
    { name: `${name}: CHANGELOG.md`, run: () => packageChangelogProblems(dir, { name, version }) },
    { name: `${name}: publint --strict`, run: () => publintProblems(filename) },
    { name: `${name}: attw --profile esm-only`, run: () => attwProblems(filename) },
  ]
}

/** The dry run of the whole workspace's publish, expected to publish each of `manifests`. */
function publishCheck(manifests) {
  return {
    name: 'pnpm -r publish --dry-run',
    run: async () => {
      const { code, output } = await publishDryRun(root)
      const problems = publishDryRunProblems(output, manifests)
      return code === 0 ? problems : [`exited with ${code}:\n${output.trim()}`, ...problems]
    },
  }
}

/** require() of every package, on the Node running this and on Node 24. */
function requireCheck(packed, folder) {
  return {
    name: 'require() from CommonJS, Node 20.19+ and 24',
    run: async () => {
      const uncovered = uncoveredPackages(
        packed.map(({ name }) => name),
        REQUIRED_EXPORTS,
      )
      if (uncovered.length > 0) return [`REQUIRED_EXPORTS has no line for ${uncovered.join(', ')}`]
      if (!existsSync(NODE24_BINARY)) return [`Node 24 is missing (${NODE24_BINARY}): run pnpm test:tools`]
      const project = join(folder, 'require-project')
      await prepareRequireProject(project, Object.fromEntries(packed.map((p) => [p.name, p.filename])))
      const [here, node24] = await Promise.all([
        probeRequire(project, process.execPath),
        probeRequire(project, NODE24_BINARY),
      ])
      return [...here, ...node24]
    },
  }
}

/** Runs one check, timing it, and turns a throw into a problem. */
async function runCheck({ name, run }) {
  const started = Date.now()
  let problems
  try {
    problems = await run()
  } catch (error) {
    problems = [`threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`]
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  const mark = problems.length === 0 ? 'ok' : 'FAILED'
  console.log(`${TAG} ${mark} ${name} (${seconds} s)`)
  for (const problem of problems) console.log(`  ${problem.replaceAll('\n', '\n  ')}`)
  return { name, problems }
}

/** Runs the checks, at most `limit` at a time, in the order given, and returns every result. */
async function runAll(checks, limit) {
  const results = []
  let next = 0
  const worker = async () => {
    while (next < checks.length) {
      const check = checks[next++]
      results.push(await runCheck(check))
    }
  }
  await Promise.all(Array.from({ length: limit }, worker))
  return results
}

const started = Date.now()
const folder = mkdtempSync(join(tmpdir(), 'cdp-release-'))
try {
  const dirs = publishedPackageDirs(root)
  const manifests = dirs.map((dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')))
  // The publish dry run packs on its own and takes longest: it starts now, beside our packing.
  const publishing = runCheck(publishCheck(manifests))
  const packed = await Promise.all(
    dirs.map(async (dir) => ({ dir, ...(await packPackage(dir, join(folder, 'tarballs'))) })),
  )
  console.log(`${TAG} packed ${packed.map(({ name, version }) => `${name}@${version}`).join(', ')}`)
  // The require() check first, so that the short ones fill the time it waits on its install.
  const others = await runAll([requireCheck(packed, folder), ...packed.flatMap(packageChecks)], CONCURRENCY)
  const results = [await publishing, ...others]
  const failed = results.filter(({ problems }) => problems.length > 0)
  const seconds = Math.round((Date.now() - started) / 1000)
  if (failed.length > 0) {
    console.log(`${TAG} ${failed.length} of ${results.length} checks FAILED (${seconds} s):`)
    for (const { name } of failed) console.log(`  ${name}`)
    process.exitCode = 1
  } else {
    console.log(`${TAG} all ${results.length} checks passed (${seconds} s)`)
  }
} finally {
  rmSync(folder, { recursive: true, force: true })
}
