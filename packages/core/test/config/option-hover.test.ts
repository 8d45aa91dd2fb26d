// Test project: integration (compiles the core with TypeScript's language service: seconds beside a busy process)
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import type { OptionEntry } from '../../src/config/option-entry.js'
import { ANSWER_OPTIONS } from '../../src/config/option-table-answer.js'
import { GLOBAL_ONLY_OPTIONS } from '../../src/config/option-table-global.js'
import { REQUEST_OPTIONS } from '../../src/config/option-table-request.js'

// A simple option's field of `RouteOptions` is derived from its entry in the option table; what an
// editor shows on hover is the JSDoc of the entry's property, carried through the mapped type.
// Asked here as an editor asks it: quick info at the field, through TypeScript's language service.

const root = fileURLToPath(new URL('../../../../', import.meta.url))
const probe = `${root}packages/core/test/config/__hover-probe.ts`

/** The quick info's documentation at each `name` of a probe that reads `RouteOptions` and `CorsDevProxyOptions`. */
function hoverTexts(route: readonly string[], shared: readonly string[]): Map<string, string> {
  const lines = [
    "import type { CorsDevProxyOptions, RouteOptions } from '../../src/config/options.js'",
    'declare const route: RouteOptions',
    'declare const shared: CorsDevProxyOptions',
    ...route.map((name) => `route.${name}`),
    ...shared.map((name) => `shared.${name}`),
  ]
  const text = lines.join('\n')
  const parsed = ts.getParsedCommandLineOfConfigFile(
    `${root}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    },
  )
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [probe],
    getScriptVersion: () => '1',
    getScriptSnapshot: (file) =>
      file === probe
        ? ts.ScriptSnapshot.fromString(text)
        : ts.sys.fileExists(file)
          ? ts.ScriptSnapshot.fromString(readFileSync(file, 'utf8'))
          : undefined,
    getCurrentDirectory: () => root,
    getCompilationSettings: () => ({ ...parsed?.options, noEmit: true }),
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: (file) => file === probe || ts.sys.fileExists(file),
    readFile: (file) => (file === probe ? text : ts.sys.readFile(file)),
  }
  const service = ts.createLanguageService(host)
  const texts = new Map<string, string>()
  let offset = 0
  for (const line of lines) {
    // Quick info at the field's name, one character into it.
    const info = line.includes('.')
      ? service.getQuickInfoAtPosition(probe, offset + line.indexOf('.') + 2)
      : undefined
    if (info !== undefined) texts.set(line, ts.displayPartsToString(info.documentation))
    offset += line.length + 1
  }
  return texts
}

/** Text with every run of white space as one space. */
const flat = (text: string) => text.replace(/\s+/g, ' ').trim()

/** The simple options of a part of the table written at one of `levels`. */
function simple(part: Readonly<Record<string, OptionEntry>>, levels: readonly string[]): OptionEntry[] {
  return Object.values(part).filter((entry) => entry.check !== undefined && levels.includes(entry.level))
}

describe("a simple option's hover text", () => {
  const route = [REQUEST_OPTIONS, ANSWER_OPTIONS].flatMap((part) => simple(part, ['route', 'both']))
  const shared = [REQUEST_OPTIONS, ANSWER_OPTIONS, GLOBAL_ONLY_OPTIONS].flatMap((part) =>
    simple(part, ['global', 'both']),
  )
  const texts = hoverTexts(
    route.map((entry) => entry.name),
    shared.map((entry) => entry.name),
  )

  it("is its entry's JSDoc, the start of the Options page's text, on RouteOptions and CorsDevProxyOptions", () => {
    expect(route.map((entry) => entry.name)).toContain('xfwd')
    expect(shared.map((entry) => entry.name)).toContain('log')
    const wrong: string[] = []
    for (const [where, entries] of [
      ['route', route],
      ['shared', shared],
    ] as const) {
      for (const entry of entries) {
        const hover = flat(texts.get(`${where}.${entry.name}`) ?? '')
        if (hover === '' || !flat(entry.doc.join(' ')).startsWith(hover))
          wrong.push(`${where}.${entry.name}: '${hover}'`)
      }
    }
    expect(wrong).toEqual([])
    expect(flat(texts.get('route.xfwd') ?? '')).toBe(
      "Add `X-Forwarded-For` (appended to the client's), `X-Forwarded-Proto`, `-Host`, `-Port` and `X-Real-IP` to upstream requests.",
    )
  })
})
