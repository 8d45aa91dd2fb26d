/*
 * The lines of `packages/*\/src` an error's stack passes through, for tests that throw thousands of
 * errors from a few hundred places (fix-examples: 21,000 configuration mistakes from about 260 call
 * paths). Vitest maps every frame of a stack that is read to its source through the source maps; for
 * that corpus the mapping was two thirds of the file's CPU (about 3 s of 4.5 s), and the file ran past
 * its limit beside a busy process. `withStacksByPath` maps each distinct path once.
 */

const SOURCE_FRAME = /(packages\/[\w-]+\/src\/[^:\s)]+):(\d+):\d+/g

/** The lines of `packages/*\/src` an error's stack passes through, as `packages/core/src/config/x.ts:12`. */
export function framesOf(error: Error): string[] {
  return [...String(error.stack).matchAll(SOURCE_FRAME)].map((match) => `${match[1]}:${match[2]}`)
}

/** A stack as Node prints it without a `prepareStackTrace` of its own: the error, then one `at` line per frame. */
function plainStack(error: Error, sites: NodeJS.CallSite[]): string {
  return `${String(error)}${sites.map((site) => `\n    at ${site}`).join('')}`
}

/**
 * Runs `body` with every stack read inside it formatted once per call path (the same file, line and
 * column of the running code in every frame, so the same source lines): a stack is its error's own
 * first line followed by the frames formatted for the first error of that path. The formatting in
 * place before (Vitest's, with its source maps) is restored when `body` settles.
 */
export async function withStacksByPath<T>(body: () => Promise<T>): Promise<T> {
  const prepare = Error.prepareStackTrace
  const format = (error: Error, sites: NodeJS.CallSite[]): string =>
    prepare ? String(prepare(error, sites)) : plainStack(error, sites)
  const framesByPath = new Map<string, string>()
  Error.prepareStackTrace = (error, sites) => {
    const head = String(error)
    const path = sites
      .map((site) => `${site.getFileName()}:${site.getLineNumber()}:${site.getColumnNumber()}`)
      .join('\n')
    let frames = framesByPath.get(path)
    if (frames === undefined) {
      const stack = format(error, sites)
      // A formatting that does not start with the error's own line is kept whole, for this error only.
      if (!stack.startsWith(head)) return stack
      frames = stack.slice(head.length)
      framesByPath.set(path, frames)
    }
    return `${head}${frames}`
  }
  try {
    return await body()
  } finally {
    Error.prepareStackTrace = prepare
  }
}
