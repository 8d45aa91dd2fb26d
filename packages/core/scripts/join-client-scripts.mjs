#!/usr/bin/env node
/*
 * Joins the browser scripts of `packages/core/src/client/` and of the stand-ins' panels
 * (`src/stand-ins/<name>/panel/`) into the one script each the browser gets, written to
 * `src/client/client-scripts.generated.ts` (committed, so that `pnpm build` stays
 * `tsc -b` and the published `dist` holds the joined text; a test fails when it is stale).
 *
 * A browser script is an entry file (`overlay-client.ts`) and the client files it imports, each a
 * set of small top-level functions: every file is compiled alone (types erased), its imports and
 * `export` keywords dropped, and the files are put side by side in the body of one function that
 * ends by calling the entry's function with its own arguments. The text is that function's source,
 * as `overlayClient.toString()` gave when the script was one function: the server calls it at once,
 * `(${OVERLAY_CLIENT})()`. The names meet in that one scope, as the imports said they would; two
 * files declaring the same top-level name fail here. A browser file imports only
 * browser files (and types), those of `client/` and of the panels: the page has nothing else.
 * Files are named by their path under `src/` (`client/overlay-client.ts`).
 *
 * Run it after changing a browser file: `node packages/core/scripts/join-client-scripts.mjs`.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const src = fileURLToPath(new URL('../src/', import.meta.url))

/** Where the joined scripts are written. */
export const GENERATED_FILE = join(src, 'client', 'client-scripts.generated.ts')

/** The folders of browser code, under `src/`: the client's, and each stand-in's panel. */
const BROWSER_FILE = /^(client|stand-ins\/[a-z0-9-]+\/panel)\/[a-z0-9-]+\.ts$/

/** The scripts: the constant's name, the entry file, the function it calls, and what the constant is. */
const SCRIPTS = [
  ['OVERLAY_CLIENT', 'client/overlay-client.ts', 'overlayClient', "The overlay's client"],
  [
    'FAULT_BADGE',
    'stand-ins/control/panel/fault-badge.ts',
    'faultBadge',
    'The "faults on" badge, served after the overlay',
  ],
  ['INSPECTOR_APP', 'client/inspector-app.ts', 'inspectorApp', "The inspector page's script"],
  [
    'CONTROL_PANEL',
    'stand-ins/control/panel/control-panel.ts',
    'controlPanel',
    "The inspector page's live switches",
  ],
]

/** The browser files an entry needs, the ones it imports before it (its value imports, followed). */
function filesOf(entry, seen = new Set(), order = []) {
  if (seen.has(entry)) return order
  seen.add(entry)
  const source = parse(entry)
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || statement.importClause?.isTypeOnly) continue
    const from = statement.moduleSpecifier.text
    const file = posix.normalize(posix.join(posix.dirname(entry), from)).replace(/\.js$/, '.ts')
    if (!from.startsWith('.') || !from.endsWith('.js') || !BROWSER_FILE.test(file)) {
      throw new Error(
        `src/${entry} imports ${from}: a browser script imports only browser files (client/, stand-ins/<name>/panel/)`,
      )
    }
    filesOf(file, seen, order)
  }
  order.push(entry)
  return order
}

function parse(file) {
  return ts.createSourceFile(file, readFileSync(join(src, file), 'utf8'), ts.ScriptTarget.ES2022, true)
}

/**
 * One file as the browser runs it: imports and `export` keywords dropped, types erased, comments
 * removed (the JSDoc is for readers of the source; every page with the overlay downloads the text).
 */
function compiled(file) {
  const source = parse(file)
  const cuts = []
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) cuts.push([statement.getFullStart(), statement.getEnd()])
    for (const modifier of ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : []) {
      if (modifier.kind === ts.SyntaxKind.ExportKeyword)
        cuts.push([modifier.getStart(), modifier.getEnd() + 1])
    }
  }
  let text = source.text
  for (const [start, end] of cuts.sort((a, b) => b[0] - a[0])) text = text.slice(0, start) + text.slice(end)
  const { outputText } = ts.transpileModule(text, {
    fileName: file,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      sourceMap: false,
      removeComments: true,
    },
  })
  return outputText.replace(/^export \{\};\n?/m, '').trim()
}

/** The top-level names a compiled file declares. */
function declaredNames(file, text) {
  const names = []
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022)
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement))
      names.push(statement.name.text)
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations)
        names.push(declaration.name.getText(source))
    }
  }
  return names
}

/** One browser script: the source of one function holding its files, that calls `main` with its arguments. */
export function joinScript(entry, main) {
  const owner = new Map()
  const parts = filesOf(entry).map((file) => {
    const text = compiled(file)
    for (const name of declaredNames(file, text)) {
      if (owner.has(name)) throw new Error(`src/${file} and ${owner.get(name)} both declare ${name}`)
      owner.set(name, file)
    }
    return `// ${file}\n${text}`
  })
  return `function ${main}Joined(...args) {\n${parts.join('\n')}\nreturn ${main}(...args);\n}`
}

/** The text of `client-scripts.generated.ts`, from today's client files. */
export function generatedFile() {
  const constants = SCRIPTS.map(
    ([constant, entry, main, what]) =>
      `/** ${what}: \`${entry}\` and the browser files it imports, joined into the source of one function. */\nexport const ${constant} = ${JSON.stringify(joinScript(entry, main))}\n`,
  )
  return `// Written by packages/core/scripts/join-client-scripts.mjs from the browser files of src/: do not edit.\n\n${constants.join('\n')}`
}

/** Each script's size as served, in kB: what every page with the overlay or the inspector downloads. */
function sizes() {
  return SCRIPTS.map(
    ([constant, entry, main]) =>
      `${constant} ${(Buffer.byteLength(joinScript(entry, main)) / 1000).toFixed(1)} kB`,
  )
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(GENERATED_FILE, generatedFile())
  console.log(sizes().join(', '))
  console.log(`wrote ${GENERATED_FILE.slice(dirname(dirname(dirname(src))).length + 1)}`)
}
