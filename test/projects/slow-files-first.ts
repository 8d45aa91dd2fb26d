import { relative } from 'node:path'
import type { TestSequencer, TestSpecification, Vitest } from 'vitest/node'

/*
 * On a fresh clone Vitest has no durations cached, so it starts the largest files first: the
 * playground test (90 lines, 50 s) then started 45th of 51 integration files and ran on while the
 * other worker had nothing left. These files, each 15 s or more, start first instead, longest
 * first, so that the short ones fill the end. Once a run has cached durations, Vitest's own order
 * (failed first, then longest) takes over. A stale entry only costs time:
 * test/projects/slow-files-first.test.ts checks that each still names an integration or stress file.
 */

/** The slowest integration and stress files, longest first (seconds on a quiet 2-core machine). */
export const SLOW_FILES: readonly string[] = [
  // 80 to 105 s, nearly all of it waiting on one 70 s answer: it overlaps the other worker's files.
  'test/reliability/slow-answer.test.ts',
  'packages/core/test/forward/forward-request-large.test.ts', // 51
  'test/playground/playground.test.ts', // 51
  'test/reliability/load.test.ts', // 40
  'test/reliability/faults-early-answer-repeated.test.ts', // 34
  'test/reliability/faults-slow-reader.test.ts', // 24
  'test/inspector/overlay-vite.test.ts', // 21
  'test/browser/browser-sequences.test.ts', // 20
  'packages/cli/test/config/load-config.test.ts', // 19
  'test/browser/check-agrees-with-chromium.test.ts', // 19
  'packages/cli/test/commands/serve-http3.test.ts', // 17
  'test/packaging/install-from-clone.test.ts', // 17
  'test/inspector/overlay-layout.test.ts', // 16
]

/**
 * The files in their order, but within each run of one project, the ones `slow` names first, in
 * `slow`'s order. Projects run one after another, so a file never leaves its project's run.
 *
 * @example
 * slowFilesFirst(['u:a', 'i:b', 'i:c'], (f) => f.split(':')[0], (f) => f.split(':')[1], ['c'])
 * // ['u:a', 'i:c', 'i:b']
 */
export function slowFilesFirst<T>(
  files: readonly T[],
  projectOf: (file: T) => string,
  pathOf: (file: T) => string,
  slow: readonly string[] = SLOW_FILES,
): T[] {
  const rank = (file: T) => {
    const index = slow.indexOf(pathOf(file))
    return index === -1 ? slow.length : index
  }
  const ordered: T[] = []
  let start = 0
  while (start < files.length) {
    let end = start + 1
    while (end < files.length && projectOf(files[end] as T) === projectOf(files[start] as T)) end++
    // Array.prototype.sort is stable: the files `slow` does not name keep their order.
    ordered.push(...files.slice(start, end).sort((a, b) => rank(a) - rank(b)))
    start = end
  }
  return ordered
}

/**
 * Vitest's sequencer ({@link slowFilesFirst} on a run without cached results, Vitest's own order
 * otherwise), for `test.sequence.sequencer` in vitest.config.ts.
 */
export class SlowFilesFirstSequencer implements TestSequencer {
  constructor(private readonly ctx: Vitest) {}

  /** Vitest's own sequencer, loaded on first use: vitest.config.ts is imported by tests too. */
  private async base(): Promise<TestSequencer> {
    const { BaseSequencer } = await import('vitest/node')
    return new BaseSequencer(this.ctx)
  }

  /** Vitest's own sharding. */
  async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await this.base()).shard(files)
  }

  /** Vitest's own order, then the slow files first when no file has a cached result. */
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await (await this.base()).sort(files)
    const path = (file: TestSpecification) =>
      relative(this.ctx.config.root, file.moduleId).split('\\').join('/')
    const cached = sorted.some(
      (file) => this.ctx.cache.getFileTestResults(`${file.project.name}:${path(file)}`) !== undefined,
    )
    return cached ? sorted : slowFilesFirst(sorted, (file) => file.project.name, path)
  }
}
