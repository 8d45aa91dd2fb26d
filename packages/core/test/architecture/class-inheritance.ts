import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

/** One class declared in a folder of sources: where, its name, and the class it extends, if any. */
export interface ClassDeclaration {
  readonly file: string
  readonly name: string
  readonly parent: string | undefined
}

/**
 * `class Name`, generics allowed (`class A<T extends B>`), then `extends Parent` if any: the parent
 * is its last name before any `<` or `(` (`undici.Dispatcher` is `Dispatcher`). Anonymous classes
 * (`class extends X`) are left out: nothing can extend them in turn, by name.
 */
const CLASS = /\bclass\s+(\w+)\s*(?:<[^{]*?>)?\s*(?:extends\s+(?:\w+\.)*(\w+))?[^{;]*\{/g

/** The source without its comments (an example in JSDoc is not a declaration). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
}

/** Every named class of a folder of TypeScript sources, paths relative to the folder. */
export function readClassDeclarations(root: string): ClassDeclaration[] {
  const found: ClassDeclaration[] = []
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name)
      if (statSync(full).isDirectory()) walk(full)
      else if (name.endsWith('.ts')) {
        const file = relative(root, full).split('\\').join('/')
        for (const match of withoutComments(readFileSync(full, 'utf8')).matchAll(CLASS)) {
          found.push({ file, name: match[1] as string, parent: match[2] })
        }
      }
    }
  }
  walk(root)
  return found
}

/**
 * The classes that extend a class declared among `declarations`, each with its chain of
 * ancestors (the parent first, up to the first one declared elsewhere, such as `Error`), except
 * those `allowed` lets through.
 */
export function coreSubclasses(
  declarations: readonly ClassDeclaration[],
  allowed: (chain: readonly string[]) => boolean,
): { readonly declaration: ClassDeclaration; readonly chain: readonly string[] }[] {
  const parentOf = new Map(declarations.map((declaration) => [declaration.name, declaration.parent]))
  return declarations
    .filter((declaration) => declaration.parent !== undefined && parentOf.has(declaration.parent))
    .map((declaration) => {
      const chain = [declaration.parent as string]
      let parent = parentOf.get(declaration.parent as string)
      while (parent !== undefined && chain.length < 32) {
        chain.push(parent)
        parent = parentOf.get(parent)
      }
      return { declaration, chain }
    })
    .filter(({ chain }) => !allowed(chain))
}
