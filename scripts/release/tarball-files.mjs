// What a published tarball may hold: the manifest, the README, the license and the build. The
// rule reads the file list `pnpm pack --json` reports, the one `pnpm publish` uploads.

/** The files every tarball holds at its root, and the only root files it may hold. */
export const ROOT_FILES = Object.freeze(['package.json', 'README.md', 'LICENSE'])

/** The folder of the build, the only folder a tarball may hold. */
export const BUILD_FOLDER = 'dist/'

/**
 * What is wrong with a tarball's file list: a root file missing, an empty build, or anything
 * beyond package.json, README.md, LICENSE and `dist/**` (sources, tests, a CHANGELOG.md, a stray
 * config). Paths are relative to the package, without npm's leading `package/`.
 * @param {readonly string[]} files
 * @returns {string[]} one sentence per problem; none when the list is right
 * @example
 * tarballFileProblems(['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'src/index.ts'])
 * // → ['holds src/index.ts: a tarball holds only package.json, README.md, LICENSE and dist/']
 */
export function tarballFileProblems(files) {
  const problems = ROOT_FILES.filter((file) => !files.includes(file)).map(
    (file) => `lacks ${file}: every package ships its own (add it beside its package.json)`,
  )
  if (!files.some((file) => file.startsWith(BUILD_FOLDER))) {
    problems.push(`holds nothing under ${BUILD_FOLDER}: run pnpm build first`)
  }
  for (const file of files) {
    if (ROOT_FILES.includes(file) || file.startsWith(BUILD_FOLDER)) continue
    problems.push(
      `holds ${file}: a tarball holds only ${ROOT_FILES.join(', ')} and ${BUILD_FOLDER} ` +
        '(narrow `files` in its package.json)',
    )
  }
  return problems
}
