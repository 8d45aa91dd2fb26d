import { createMarkdownRenderer, disposeMdItInstance, type MarkdownRenderer } from 'vitepress'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  findPageProblems,
  findRenderingProblems,
  readBuiltSite,
} from '../../docs/scripts/check-rendering.mjs'
import { readSource } from '../../docs/scripts/markdown-source.mjs'
import { assertDocsBuilt, DIST, DOCS } from './built-docs.js'

// `pnpm docs:build` ends with docs/scripts/check-rendering.mjs over the built HTML and the
// markdown each page came from. The fixtures are rendered by VitePress's own markdown renderer
// (the one `vitepress build` uses, Shiki included), so each broken page is what a reader would see.

let md: MarkdownRenderer
const warnings: string[] = []

beforeAll(async () => {
  md = await createMarkdownRenderer(DOCS, {}, '/', { warn: (message: string) => warnings.push(message) })
})
afterAll(() => disposeMdItInstance())

/** The problems the check finds in `markdown` as VitePress renders it. */
function problemsOf(markdown: string): string[] {
  return findPageProblems(md.render(markdown, { path: '/page.md', relativePath: 'page.md' }), markdown)
}

const fence = (language: string, code: string) => `\`\`\`${language}\n${code}\n\`\`\``

describe('the docs rendering check, on pages VitePress renders', () => {
  it('passes tables, highlighted and plain-on-purpose code, heading anchors and literal code', () => {
    const page = [
      '---',
      'outline: [2, 2]',
      '---',
      '## Options {#the-options}',
      '',
      '| option | type |',
      '| :-- | --- |',
      '| [`target`](#target) | `string \\| URL` |',
      '| `timeout` |',
      '',
      fence('ts', "export const port: number = 3000 // '| --- |' and {#x} in code are literal"),
      '',
      fence('text', '[cors-dev-proxy] routes: /api → http://localhost:3000'),
      '',
      '::: code-group',
      fence('sh [pnpm]', 'pnpm add -D @cors-dev-proxy/vite'),
      fence('sh [npm]', 'npm i -D @cors-dev-proxy/vite'),
      ':::',
      '',
      'Write a row as `| a | b |` under `|---|---|`, and an anchor as `{#name}`.',
    ].join('\n')
    expect(problemsOf(page)).toEqual([])
  })

  it('fails table rows separated by blank lines (the Options page as it was)', () => {
    const page = [
      '| option | type | default |',
      '',
      '| --- | --- | --- |',
      '',
      '| [`target`](#target) | `string` | none |',
    ].join('\n')
    expect(problemsOf(page)).toEqual(['a raw table row shows as text: "| --- | --- | --- |"'])
  })

  it('fails a table whose header has more cells than its delimiter row', () => {
    const page = ['Intro.', '', '| a | b | c |', '|---|---|', '| 1 | 2 |'].join('\n')
    expect(problemsOf(page)).toEqual([
      'the table at line 3 is not a <table> (a blank line or a stray pipe in it?)',
      'a raw table row shows as text: "|---|---|"',
    ])
  })

  it('fails a row whose unescaped pipe pushes a cell out of the table', () => {
    const page = [
      '| option | type |',
      '| --- | --- |',
      '| ok | `a \\| b` |',
      '| `changeOrigin` | `a | b` |',
    ].join('\n')
    expect(problemsOf(page)).toEqual([
      'the row at line 4 has 3 cells for 2 columns: the last are not shown (write a pipe in a cell as \\|)',
    ])
  })

  it('fails a fence in a language Shiki does not know, and says which', () => {
    expect(problemsOf(fence('caddyfile', 'localhost:8443 {\n  reverse_proxy 127.0.0.1:3000\n}'))).toEqual([
      'the code block at line 1 ("localhost:8443 {") is not highlighted: Shiki does not know `caddyfile`',
    ])
    expect(warnings.join('\n')).toContain("The language 'caddyfile' is not loaded")
  })

  it('fails a fence without a language, and an indented code block', () => {
    const page = ['Before.', '', fence('', 'cors-dev-proxy v0.1.0'), '', '    const a = 1', ''].join('\n')
    expect(problemsOf(page)).toEqual([
      'the markdown has 1 code blocks, the page shows 2 (a fence not closed, or not at the start of its line?)',
      'the code block ("cors-dev-proxy v0.1.0") has no language: give its fence one (`text` for plain output)',
      'the code block ("const a = 1") is not a fenced code block: fence it',
    ])
  })

  it('fails a fence swallowed by an HTML block, which shows its backticks as text', () => {
    const page = ['<details>', fence('ts', 'const a = 1'), '</details>'].join('\n')
    expect(problemsOf(page)).toEqual([
      'the markdown has 1 code blocks, the page shows 0 (a fence not closed, or not at the start of its line?)',
    ])
  })

  it('fails an anchor written where VitePress does not read one', () => {
    expect(problemsOf('## `target` {#target} (required)')).toEqual([
      'an anchor shows as text: "{#target}" (only a heading takes {#id})',
    ])
    expect(problemsOf('See the part {#part} below.')).toEqual([
      'an anchor shows as text: "{#part}" (only a heading takes {#id})',
    ])
  })

  it('fails a table whose HTML has other columns than its delimiter row', () => {
    const markdown = '| a | b | c |\n| --- | --- | --- |\n| 1 | 2 | 3 |'
    const html = '<table><thead><tr><th>a</th><th>b</th></tr></thead></table>'
    expect(findPageProblems(html, markdown)).toEqual(['the table at line 1 has 2 columns, not 3'])
  })

  it('reads tables and code blocks of the markdown, not those inside fences or front matter', () => {
    const markdown = [
      '---',
      'title: | a | b |',
      '---',
      '````md',
      '| a | b |',
      '|---|---|',
      '```ts',
      '````',
      '   ```ts',
      '   | x | y |',
      '   |---|---|',
      '   ```',
      '| a | b |',
      '|---|---|',
      '<<< @/snippets/config.ts',
    ].join('\n')
    expect(readSource(markdown)).toEqual({
      tables: [{ line: 13, columns: 2, key: 'a', overfull: [] }],
      codeBlocks: [{ line: 4 }, { line: 9 }, { line: 15 }],
    })
  })
})

describe('the built docs site', () => {
  it('shows every table as a table and every code sample highlighted, on every page', () => {
    assertDocsBuilt()
    const pages = readBuiltSite(DIST, DOCS)
    expect(pages.size).toBeGreaterThan(30)
    expect(findRenderingProblems(pages)).toEqual([])
  })
})
