import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { sourceAliases } from '../../vitest.config.js'
import { SLOW_FILES, slowFilesFirst } from './slow-files-first.js'
import { splitTestFiles } from './test-projects.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

describe('the slow files started first on a fresh clone', () => {
  it('are each an integration or stress file, named once', () => {
    const { integration, stress } = splitTestFiles(ROOT, sourceAliases)
    expect(SLOW_FILES.filter((file) => !integration.includes(file) && !stress.includes(file))).toEqual([])
    expect(new Set(SLOW_FILES).size).toBe(SLOW_FILES.length)
  })

  it('move to the front of their own project, in the list order, the others keeping theirs', () => {
    const files = [
      'unit:a',
      'unit:b',
      'integration:c',
      'integration:slow2',
      'integration:d',
      'integration:slow1',
    ]
    const ordered = slowFilesFirst(
      files,
      (file) => file.split(':')[0] as string,
      (file) => file.split(':')[1] as string,
      ['slow1', 'slow2', 'a-file-of-no-run'],
    )
    expect(ordered).toEqual([
      'unit:a',
      'unit:b',
      'integration:slow1',
      'integration:slow2',
      'integration:c',
      'integration:d',
    ])
  })

  it('never move a file out of its project, even when the project comes first', () => {
    const files = ['unit:a', 'unit:slow', 'network:b', 'network:c']
    const ordered = slowFilesFirst(
      files,
      (file) => file.split(':')[0] as string,
      (file) => file.split(':')[1] as string,
      ['c', 'slow'],
    )
    expect(ordered).toEqual(['unit:slow', 'unit:a', 'network:c', 'network:b'])
  })
})
