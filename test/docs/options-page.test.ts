import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import * as http from 'node:http'
import * as https from 'node:https'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { resolveOptions, splitConfig } from '@cors-dev-proxy/core/adapter'
import { describe, expect, it } from 'vitest'
import { extractOptions, type OptionEntry } from '../../docs/.vitepress/option-reference/extract-options.ts'
import { OPTION_SECTIONS } from '../../docs/.vitepress/option-reference/option-sections.ts'
import { optionAnchor, renderOptionsPage } from '../../docs/.vitepress/option-reference/render-options.ts'
import { sectionEntries } from '../../docs/.vitepress/option-reference/section-entries.ts'
import { readBuiltPage } from '../../docs/scripts/built-page.mjs'
import {
  CORS_OPTION_NAMES,
  INSPECTOR_OPTION_NAMES,
  JSONP_OPTION_NAMES,
  MOCK_OPTION_NAMES,
  OPENAPI_OPTION_NAMES,
  RECORDINGS_OPTION_NAMES,
} from '../../packages/core/src/config/nested-option-names.ts'
import { GLOBAL_OPTION_NAMES, ROUTE_OPTION_NAMES } from '../../packages/core/src/config/option-lists.ts'
import { assertDocsBuilt, DIST } from './built-docs.js'
import { docPages } from './doc-samples.js'

// The options page (docs/reference/options.md) is generated from the core's option table and the
// JSDoc of its nested option interfaces. These tests hold the two ends together: every key the validator accepts has an
// entry with a description, a default and an example, and every example is a configuration
// `resolveOptions` accepts, run as the page prints it.

/** The validator's list of accepted keys for each interface of the page. */
const ACCEPTED: Record<string, readonly string[]> = {
  RouteOptions: ROUTE_OPTION_NAMES,
  CorsDevProxyOptions: GLOBAL_OPTION_NAMES,
  CorsOptions: CORS_OPTION_NAMES,
  MockBackendOptions: MOCK_OPTION_NAMES,
  JsonpOptions: JSONP_OPTION_NAMES,
  InspectorOptions: INSPECTOR_OPTION_NAMES,
  RecordingsOptions: RECORDINGS_OPTION_NAMES,
  OpenApiOptions: OPENAPI_OPTION_NAMES,
}

/** What an entry lacks to be documented: the parts a reader of the page needs. */
function missingParts(entry: OptionEntry): string[] {
  const missing: string[] = []
  if (entry.description.length < 10) missing.push('a description')
  if (!entry.defaultValue) missing.push('@default')
  if (!entry.example) missing.push('@example')
  return missing
}

/** Runs a sample as the page prints it, with `corsDevProxy` resolving the configuration. */
function runSample(code: string): void {
  const corsDevProxy = (first: unknown, second?: unknown) => {
    // biome-ignore lint/suspicious/noExplicitAny: the sample's arguments, as written on the page.
    const [routes, options] = splitConfig(first as any, second as any)
    return resolveOptions(routes, options)
  }
  // The page imports what an example needs (`node:http` for an agent); here it is passed in.
  const body = code.replace(/^import .*$/gm, '').trim()
  new Function('corsDevProxy', 'http', 'https', `"use strict"; return ${body}`)(corsDevProxy, http, https)
}

describe('the options page', () => {
  // Committed, so that a link to it works where the docs are read in the repository (GitHub, an
  // editor), not only on the built site.
  it("is in the repository, as the core's option interfaces render it (-u rewrites it)", async () => {
    const tracked = spawnSync('git', ['ls-files', '--error-unmatch', 'docs/reference/options.md'], {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
    })
    expect(tracked.status, 'docs/reference/options.md is not committed').toBe(0)
    await expect(renderOptionsPage()).toMatchFileSnapshot('../../docs/reference/options.md')
  })

  it('has a section for every list of keys the validator accepts', () => {
    expect(OPTION_SECTIONS.map((section) => section.name).sort()).toEqual(Object.keys(ACCEPTED).sort())
  })

  for (const section of OPTION_SECTIONS) {
    const entries = sectionEntries(section)

    it(`${section.title}: names every key the core accepts, and nothing else`, () => {
      expect(entries.map((entry) => entry.name).sort()).toEqual([...(ACCEPTED[section.name] ?? [])].sort())
      // The interface a user's editor checks declares the same keys as the table the core reads.
      const declared = extractOptions(section).map((entry) => entry.name)
      expect(declared.sort()).toEqual([...(ACCEPTED[section.name] ?? [])].sort())
    })

    it(`${section.title}: every option has a description, a default and an example`, () => {
      const undocumented = entries
        .map((entry) => ({ option: entry.name, missing: missingParts(entry) }))
        .filter((entry) => entry.missing.length > 0)
      expect(undocumented).toEqual([])
    })

    it(`${section.title}: every example is a configuration the core accepts`, () => {
      const refused: string[] = []
      for (const entry of entries) {
        const code = section.sample(entry.name, entry.example ?? 'undefined')
        try {
          runSample(code)
        } catch (error) {
          refused.push(`${code}: ${(error as Error).message}`)
        }
      }
      expect(refused).toEqual([])
    })
  }

  // GitHub resolves a link `/reference/options` against the repository's root, where no such
  // file is; a relative link to the markdown file opens it there, and VitePress makes it the page.
  it('is linked from the other pages by a relative link to its file, which opens in the repository too', () => {
    const docs = fileURLToPath(new URL('../../docs/', import.meta.url))
    const links: string[] = []
    const wrong: string[] = []
    for (const page of docPages(docs)) {
      const text = readFileSync(join(docs, page), 'utf8')
      for (const match of text.matchAll(/\]\(([^)\s]*reference\/options[^)\s]*)\)/g)) {
        const target = match[1] as string
        links.push(`${page}: ${target}`)
        const file = resolve(docs, dirname(page), target.replace(/#.*$/, ''))
        if (target.startsWith('/') || file !== join(docs, 'reference/options.md'))
          wrong.push(`${page}: ${target}`)
      }
    }
    expect(links.length).toBeGreaterThanOrEqual(10)
    expect(wrong).toEqual([])
  })

  it('gives every option a heading with its own anchor, and a row in its table', () => {
    const page = renderOptionsPage()
    for (const section of OPTION_SECTIONS) {
      for (const entry of sectionEntries(section)) {
        const anchor = optionAnchor(section, entry.name)
        expect(page).toContain(`### \`${entry.name}\` {#${anchor}}`)
        expect(page).toContain(`| [\`${entry.name}\`](#${anchor}) |`)
      }
    }
  })

  it('flags an option documented without a description or an example', () => {
    const bare: OptionEntry = {
      name: 'newOption',
      type: 'boolean',
      description: '',
      defaultValue: 'false',
      example: undefined,
      routeDefault: false,
      signature: undefined,
    }
    expect(missingParts(bare)).toEqual(['a description', '@example'])
  })
})

/** The cells' text of each row of an HTML table, header row first. */
function tableRows(table: string): string[][] {
  return [...table.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? '').matchAll(/<t[hd]\b[^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) => cell[1] ?? ''),
  )
}

describe('the built options page (docs/.vitepress/dist)', () => {
  it('shows every section summary as a table: a row per option, three cells, a link to its entry', () => {
    assertDocsBuilt()
    const html = readFileSync(join(DIST, 'reference/options.html'), 'utf8')
    const tables = [...html.matchAll(/<table\b[\s\S]*?<\/table>/g)].map((match) => match[0])
    expect(tables).toHaveLength(OPTION_SECTIONS.length)
    OPTION_SECTIONS.forEach((section, i) => {
      const [header, ...rows] = tableRows(tables[i] ?? '')
      expect(header).toEqual(['option', 'type', 'default'])
      expect(rows.map((cells) => cells.length)).toEqual(rows.map(() => 3))
      expect(rows.map((cells) => /href="([^"]*)"/.exec(cells[0] ?? '')?.[1])).toEqual(
        sectionEntries(section).map((entry) => `#${optionAnchor(section, entry.name)}`),
      )
    })
    // No row left as a paragraph of pipes, as a blank line between rows made them.
    expect(readBuiltPage(html).texts.filter((text) => /^\s*\|/m.test(text))).toEqual([])
  })
})

/**
 * The parameter lists a text shows for the option `name`: code spans that are one
 * (`` `(path, req) => string` ``) or a call of the option (`` `bypass(req, res, options)` ``).
 */
function shownSignatures(text: string, name: string): string[] {
  const shown: string[] = []
  for (const match of text.matchAll(/`(\w+)?(\([\w, ]*\))/g)) {
    if (match[1] === undefined || match[1] === name) shown.push(match[2] as string)
  }
  return shown
}

/** The "here" cell of each row of the Migrating page's option table, by option name. */
function migrationRows(): Map<string, string> {
  const page = readFileSync(new URL('../../docs/migrating.md', import.meta.url), 'utf8')
  const rows = new Map<string, string>()
  for (const match of page.matchAll(/^\| `(\w+)` \| [^|]+ \| (.+) \|$/gm)) {
    rows.set(match[1] as string, match[2] as string)
  }
  return rows
}

// A function option's arguments are written once, in its TypeScript type: the Options page
// prints them from there, and what the JSDoc and the Migrating page say must agree with it.
describe('the arguments of function options', () => {
  const functions = OPTION_SECTIONS.flatMap((section) =>
    sectionEntries(section)
      .filter((entry) => entry.signature !== undefined)
      .map((entry) => ({ section, entry })),
  )

  it('are read from the types, pathRewrite and router as our code calls them', () => {
    const route = new Map(
      functions
        .filter(({ section }) => section.name === 'RouteOptions')
        .map(({ entry }) => [entry.name, entry.signature]),
    )
    expect(route.get('pathRewrite')).toBe('(path, req, res, options)')
    expect(route.get('router')).toBe('(req, res, options)')
    expect(route.get('bypass')).toBe('(req, res, options)')
  })

  it('are printed on the Options page', () => {
    const page = renderOptionsPage()
    for (const { section, entry } of functions) {
      const heading = `### \`${entry.name}\` {#${optionAnchor(section, entry.name)}}`
      const block = page.slice(page.indexOf(heading), page.indexOf('\n### ', page.indexOf(heading) + 1))
      expect(block).toContain(`- **A function is called with:** \`${entry.signature}\``)
    }
  })

  it('are the same wherever the JSDoc and the Migrating page show them', () => {
    const rows = migrationRows()
    const disagree: string[] = []
    for (const { section, entry } of functions) {
      const texts: Array<[string, string]> = [[`${section.name}.${entry.name} JSDoc`, entry.description]]
      const row = section.name === 'RouteOptions' ? rows.get(entry.name) : undefined
      if (row !== undefined) texts.push([`migrating.md row ${entry.name}`, row])
      for (const [where, text] of texts) {
        for (const shown of shownSignatures(text, entry.name)) {
          if (shown !== entry.signature) disagree.push(`${where}: ${shown}, the type says ${entry.signature}`)
        }
      }
    }
    expect(disagree).toEqual([])
  })

  it('are shown by the Migrating page for the functions it says take hpm’s arguments', () => {
    const rows = migrationRows()
    for (const name of ['pathRewrite', 'router']) {
      const entry = functions.find(({ entry }) => entry.name === name)?.entry
      expect(shownSignatures(rows.get(name) ?? '', name)).toEqual([entry?.signature])
    }
  })

  it('flags a parameter list that disagrees', () => {
    expect(shownSignatures('a function `(path, req) => string` may be async', 'pathRewrite')).toEqual([
      '(path, req)',
    ])
    expect(shownSignatures("Vite's `bypass(req, res, options)`, not `other(x)`", 'bypass')).toEqual([
      '(req, res, options)',
    ])
  })
})
