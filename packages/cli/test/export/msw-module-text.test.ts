import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { mswModule } from '../../src/export/msw-module.js'

/*
 * The module's text is TypeScript whatever the route and its files hold: a prefix may hold `*\/`
 * (legal in a path) and a note a line break, neither of which may end a comment early or spill
 * code out of it.
 */

const data = (prefix: string) => ({
  data: {
    prefix,
    maskNames: [],
    maxGap: 1000,
    match: { ignoreQuery: [], matchHeaders: [], body: 'exact' as const },
    mocks: [],
    recordings: [],
    writes: [],
  },
  notes: ['one note\nthrow new Error("spilled")'],
  folders: { recordings: '/tmp/r', mocks: undefined },
})

function syntaxErrors(text: string): string[] {
  const out = ts.transpileModule(text, {
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext },
  })
  return (out.diagnostics ?? []).map((diagnostic) =>
    ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
  )
}

describe('the export-msw module text', () => {
  it.each(['/api', '/a*/b', "/it's", '/x*/throw new Error(1)/*'])(
    'is valid TypeScript for the prefix %s',
    (prefix) => {
      const text = mswModule(data(prefix), { prefix, recordings: 'recordings/api', mocks: undefined })
      expect(syntaxErrors(text)).toEqual([])
      // The only statements are the module's own: nothing spilled out of a comment.
      expect(text).not.toMatch(/^throw /m)
      const code = ts.transpileModule(text, {
        compilerOptions: { module: ts.ModuleKind.ESNext, removeComments: true },
      })
      // Outside string literals: the data holds the prefix as a string, as it should.
      const outsideStrings = code.outputText.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
      expect(outsideStrings).not.toContain('spilled')
      expect(outsideStrings).not.toContain('new Error(1)')
    },
  )
})
