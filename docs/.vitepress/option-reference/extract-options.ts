import { readFileSync } from 'node:fs'
import ts from 'typescript'

/** One option as the core's interfaces document it. */
export interface OptionEntry {
  /** The key as written in a configuration. */
  readonly name: string
  /** The TypeScript type as written in the interface. */
  readonly type: string
  /** The JSDoc text: what the option does (markdown). */
  readonly description: string
  /** The `@default` tag, as written. */
  readonly defaultValue: string | undefined
  /** The `@example` tag: the option's value as a user writes it (a TypeScript expression). */
  readonly example: string | undefined
  /** For a shared option that is a route option's default: the route option it defaults. */
  readonly routeDefault: boolean
}

/** Where one interface lives, and what to read from it. */
export interface InterfaceSource {
  /** Path of the `.ts` file, relative to the repository root. */
  readonly file: string
  /** Name of the exported interface. */
  readonly name: string
}

const repositoryRoot = new URL('../../../', import.meta.url)

function parse(file: string): ts.SourceFile {
  const text = readFileSync(new URL(file, repositoryRoot), 'utf8')
  return ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true)
}

function findInterface(source: ts.SourceFile, name: string): ts.InterfaceDeclaration {
  for (const statement of source.statements) {
    if (ts.isInterfaceDeclaration(statement) && statement.name.text === name) return statement
  }
  throw new Error(`no interface ${name} in ${source.fileName}`)
}

/** JSDoc text with `{@link X}` written as `X`, and lines joined as markdown paragraphs keep them. */
function commentText(comment: string | ts.NodeArray<ts.JSDocComment> | undefined): string {
  const text = typeof comment === 'string' ? comment : (ts.getTextOfJSDocComment(comment) ?? '')
  return text.replace(/\{@link\s+([^}\s]+)\s*\}/g, '`$1`').trim()
}

function memberName(member: ts.TypeElement): string | undefined {
  if (!member.name) return undefined
  if (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)) return member.name.text
  return undefined
}

function entryOf(member: ts.PropertySignature, source: ts.SourceFile, routeDefault = false): OptionEntry {
  const docs = ts.getJSDocCommentsAndTags(member).filter(ts.isJSDoc)
  const doc = docs.at(-1)
  const tag = (tagName: string) => {
    const found = doc?.tags?.find((t) => t.tagName.text === tagName)
    return found ? commentText(found.comment) : undefined
  }
  return {
    name: memberName(member) ?? '',
    type: member.type ? member.type.getText(source).replace(/\s+/g, ' ') : 'unknown',
    description: commentText(doc?.comment),
    defaultValue: tag('default'),
    example: tag('example'),
    routeDefault,
  }
}

/**
 * The options an interface declares, in declaration order, with their JSDoc. Keys inherited
 * through `extends Pick<Other, 'a' | 'b'>` from an interface of the same file are listed too,
 * after the interface's own, documented by `Other` and marked `routeDefault`.
 */
export function extractOptions(source: InterfaceSource): OptionEntry[] {
  const file = parse(source.file)
  const declaration = findInterface(file, source.name)
  const own = declaration.members.filter(ts.isPropertySignature).map((member) => entryOf(member, file))
  const inherited: OptionEntry[] = []
  for (const clause of declaration.heritageClauses ?? []) {
    for (const type of clause.types) {
      const [from, keys] = type.typeArguments ?? []
      if (type.expression.getText(file) !== 'Pick' || !from || !keys) continue
      const parent = findInterface(file, from.getText(file))
      const members: readonly ts.TypeNode[] = ts.isUnionTypeNode(keys) ? keys.types : [keys]
      const names = members
        .filter(ts.isLiteralTypeNode)
        .map((literal) => (ts.isStringLiteral(literal.literal) ? literal.literal.text : ''))
      for (const name of names) {
        const member = parent.members.find(
          (m): m is ts.PropertySignature => ts.isPropertySignature(m) && memberName(m) === name,
        )
        if (!member)
          throw new Error(`${source.name} picks ${name}, which ${from.getText(file)} does not declare`)
        inherited.push(entryOf(member, file, true))
      }
    }
  }
  return [...own, ...inherited]
}
