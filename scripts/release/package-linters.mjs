// The two linters of a packed tarball, run on the tarball `pnpm pack` made, so that they judge
// exactly what `pnpm publish` uploads. Both run in this process through the libraries behind
// their CLIs (publint's, and @arethetypeswrong/core behind attw): attw's CLI loads TypeScript anew
// for each package, 14 s of CPU for six, against 2.7 s here.
import { readFileSync } from 'node:fs'
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core'
import { problemKindInfo } from '@arethetypeswrong/core/problems'
import { publint } from 'publint'
import { formatMessage } from 'publint/utils'

/**
 * `publint --strict`: the manifest against the packed files (every `exports` target packed, in the
 * right format, `types` first...), its warnings counted as errors as `--strict` does.
 * @param {string} tarball
 * @returns {Promise<string[]>} one line per error; suggestions pass, as they do for the CLI
 * @example
 * await publintProblems('/tmp/cors-dev-proxy-core-0.1.0.tgz') // → []
 */
export async function publintProblems(tarball) {
  const data = readFileSync(tarball)
  const pack = { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) }
  const { messages, pkg } = await publint({ pack, strict: true })
  return messages
    .filter((message) => message.type === 'error')
    .map((message) => `publint: ${formatMessage(message, pkg, { color: false }) ?? message.code}`)
}

/**
 * The resolutions `attw --profile esm-only` leaves out: node10 (no `exports` support) and node16
 * from CommonJS, which TypeScript resolves as a require() of an ES module and reports although
 * Node 20.19+ runs it (the require() check covers that at run time).
 */
export const ESM_ONLY_IGNORED_RESOLUTIONS = Object.freeze(['node10', 'node16-cjs'])

/**
 * Are the Types Wrong, as `attw --profile esm-only` judges a tarball: the types each entry
 * resolves to under TypeScript's node16 (from ESM) and bundler resolutions. The packages ship
 * their own types, so there is no @types package to merge (`--no-definitely-typed`).
 * @param {string} tarball
 * @returns {Promise<string[]>} one line per problem, with attw's title and the page that explains it
 * @example
 * await attwProblems('/tmp/cors-dev-proxy-core-0.1.0.tgz') // → []
 */
export async function attwProblems(tarball) {
  const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(readFileSync(tarball))))
  if (!analysis.types) return ['attw: the package has no types (package.json names no .d.ts)']
  return analysis.problems
    .filter(
      (problem) =>
        !('resolutionKind' in problem && ESM_ONLY_IGNORED_RESOLUTIONS.includes(problem.resolutionKind)),
    )
    .map((problem) => {
      const info = problemKindInfo[problem.kind]
      const where = 'entrypoint' in problem ? ` at '${problem.entrypoint}'` : ''
      const how = 'resolutionKind' in problem ? ` (${problem.resolutionKind})` : ''
      return `attw: ${info.title}${where}${how}: ${info.description} ${info.docsUrl}`
    })
}
