import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'

/** A function (or method, constructor, accessor) and the lines its body spans. */
export interface FunctionSpan {
  /** `file:line name`, the name as a stack trace would show it (`<anonymous>` when it has none). */
  readonly where: string
  /**
   * The lines from the signature's first line (its first modifier or keyword, the JSDoc above it
   * not counted) to the body's closing `}`, both included; nested functions count in.
   */
  readonly lines: number
}

/** The name a function-like node shows: its own, or the variable or property it is assigned to. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  if (node.name !== undefined) return node.name.getText(source)
  const parent = node.parent
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name !== undefined) {
    return parent.name.getText(source)
  }
  return '<anonymous>'
}

/**
 * Every function-like node of one source text with a block body, and how many lines it spans from
 * its signature to its closing brace: the measure of "a function that needs more than a screen". A
 * long parameter list counts, as a reader has to read it too.
 *
 * @example
 * functionSpans('a.ts', 'function f() {\n  return 1\n}') // [{ where: 'a.ts:1 f', lines: 3 }]
 */
export function functionSpans(file: string, text: string): FunctionSpan[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const spans: FunctionSpan[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined && ts.isBlock(node.body)) {
      const fn = node as ts.FunctionLikeDeclaration & { body: ts.Block }
      const first = source.getLineAndCharacterOfPosition(fn.getStart(source)).line
      const last = source.getLineAndCharacterOfPosition(fn.body.getEnd()).line
      spans.push({ where: `${file}:${first + 1} ${nameOf(fn, source)}`, lines: last - first + 1 })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return spans
}

/** The function spans of every `.ts` file under `dir`, files named relative to `root`. */
export function folderSpans(root: string, dir: string): FunctionSpan[] {
  const spans: FunctionSpan[] = []
  for (const name of readdirSync(dir)) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) spans.push(...folderSpans(root, full))
    else if (name.endsWith('.ts')) {
      spans.push(...functionSpans(relative(root, full).split('\\').join('/'), readFileSync(full, 'utf8')))
    }
  }
  return spans
}
