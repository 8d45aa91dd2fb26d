// `pnpm -r publish --dry-run`: what a release would upload, packed and handed to npm, with nothing
// sent. It needs no login (npm only warns that a real publish would).
import { runCommand } from './run-command.mjs'

/**
 * The command. `--force` makes pnpm publish every package, not only those whose version the
 * registry lacks: without it, once a version is on the registry the dry run skips that package
 * and checks nothing until the next version bump.
 */
export const PUBLISH_DRY_RUN = Object.freeze(['-r', 'publish', '--dry-run', '--no-git-checks', '--force'])

/** npm's warning that a real publish needs a login: expected in a dry run, and the only one allowed. */
const LOGIN_WARNING = /^npm warn publish This command requires you to be logged in/

/**
 * Runs the dry run in the repository.
 * @param {string} root the repository root
 * @returns {Promise<import('./run-command.mjs').CommandResult>}
 */
export function publishDryRun(root) {
  return runCommand('pnpm', PUBLISH_DRY_RUN, { cwd: root })
}

/**
 * What the dry run's output says is wrong: a package it did not publish, one published with
 * npm's default (restricted, for a scoped name) access instead of public, a `npm warn publish`
 * line (npm corrected the package.json, say) or an error.
 * @param {string} output pnpm's and npm's output, as `publishDryRun` returns it
 * @param {readonly { name: string, version: string }[]} packages the packages to publish
 * @returns {string[]} one sentence per problem; none when all went out as they should
 * @example
 * publishDryRunProblems(output, [{ name: '@cors-dev-proxy/core', version: '0.1.0' }])
 */
export function publishDryRunProblems(output, packages) {
  const lines = output.split('\n').map((line) => line.trim())
  const problems = []
  for (const { name, version } of packages) {
    const done = lines.indexOf(`+ ${name}@${version}`)
    if (done === -1) {
      problems.push(`${name}@${version} was not published by the dry run`)
      continue
    }
    // npm names the access just before pnpm prints the `+` line of that package.
    const access = lines.slice(0, done).findLast((line) => line.startsWith('npm notice Publishing to '))
    if (!access?.includes(' and public access ')) {
      problems.push(
        `${name} would not be published public (${access ?? 'no access line'}): ` +
          'add "publishConfig": { "access": "public" } to its package.json',
      )
    }
  }
  for (const line of lines) {
    if (/^npm warn publish /.test(line) && !LOGIN_WARNING.test(line)) problems.push(line)
    if (/^npm error |ERR_PNPM_/.test(line)) problems.push(line)
  }
  return problems
}
