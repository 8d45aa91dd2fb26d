import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/** A source file's imports of other source files, paths relative to the source root, `/`-separated. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>

/** Every `import … from`, `export … from` and side-effect `import '…'`, type-only ones included. */
const IMPORT = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?'([^']+)'/gm

/**
 * Reads the import graph of a folder of TypeScript sources: for each file, the files of the
 * same folder tree it imports by relative path (`./x.js` resolves to `x.ts`). Package imports
 * (`node:http`, `undici`) are not edges.
 */
export function readImportGraph(root: string): ImportGraph {
  const graph = new Map<string, string[]>()
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name)
      if (statSync(full).isDirectory()) walk(full)
      else if (name.endsWith('.ts')) {
        const text = readFileSync(full, 'utf8')
        const edges: string[] = []
        for (const match of text.matchAll(IMPORT)) {
          const spec = match[1] as string
          if (!spec.startsWith('.')) continue
          edges.push(
            relative(root, resolve(dirname(full), spec))
              .replace(/\.js$/, '.ts')
              .split('\\')
              .join('/'),
          )
        }
        graph.set(relative(root, full).split('\\').join('/'), edges)
      }
    }
  }
  walk(root)
  return graph
}

/**
 * Folders whose subfolders are layers of their own (`stand-ins/recordings`): the files directly
 * in such a folder are its shared part, the layer named after the folder itself.
 */
const NESTED = new Set(['stand-ins'])

/**
 * Sub-folders of a `NESTED` layer's sub-folder that are layers of their own
 * (`stand-ins/recordings/options`, `stand-ins/control/panel`), placed apart from the rest of that folder in `LAYERS`.
 */
const SUB_LAYERS = new Set(['options', 'panel'])

/**
 * Folders of a feature (not `NESTED`) whose `options/` sub-folder is a layer of its own, part of
 * the configuration as each stand-in's is (`contract/options`).
 */
const OPTIONS_OWNERS = new Set(['contract'])

/**
 * The layer of a file: its first folder (its first two in a `NESTED` one, its first three when
 * the third is a `SUB_LAYERS` one; `<first>/options` in an `OPTIONS_OWNERS` one), or `.` for a
 * file at the root.
 */
export function layerOf(file: string): string {
  const parts = file.split('/')
  if (parts.length === 1) return '.'
  const first = parts[0] as string
  if (OPTIONS_OWNERS.has(first) && parts.length > 2 && parts[1] === 'options') return `${first}/options`
  if (!NESTED.has(first) || parts.length <= 2) return first
  const nested = `${first}/${parts[1]}`
  return parts.length > 3 && SUB_LAYERS.has(parts[2] as string) ? `${nested}/${parts[2]}` : nested
}

/**
 * Imports that break the layer rule: a file may import its own folder and the layers its
 * folder lists in `allowed`; a folder missing from `allowed` is itself a violation, so a new
 * folder has to be placed deliberately. Returns one line per offending import.
 */
export function layerViolations(
  graph: ImportGraph,
  allowed: Readonly<Record<string, readonly string[]>>,
): string[] {
  const problems: string[] = []
  for (const [file, imports] of graph) {
    const from = layerOf(file)
    const may = allowed[from]
    if (may === undefined) {
      problems.push(`${file}: folder '${from}' is not a declared layer`)
      continue
    }
    for (const target of imports) {
      const to = layerOf(target)
      if (to !== from && !may.includes(to)) problems.push(`${file} imports ${target} (${from} → ${to})`)
    }
  }
  return problems
}

/** Every import cycle between files (type-only imports count), each as `a → b → a`. */
export function importCycles(graph: ImportGraph): string[] {
  const cycles: string[] = []
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (file: string): void => {
    state.set(file, 'open')
    stack.push(file)
    for (const target of graph.get(file) ?? []) {
      const seen = state.get(target)
      if (seen === 'open') cycles.push([...stack.slice(stack.indexOf(target)), target].join(' → '))
      else if (seen === undefined && graph.has(target)) visit(target)
    }
    stack.pop()
    state.set(file, 'done')
  }
  for (const file of graph.keys()) if (!state.has(file)) visit(file)
  return cycles
}
