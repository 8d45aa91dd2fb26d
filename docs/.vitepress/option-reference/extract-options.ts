import { readFileSync } from 'node:fs'
import { posix } from 'node:path'
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
  /**
   * For an option that is (or may be) a function: the arguments it is called with, read from its
   * TypeScript type (`(path, req, res, options)`), the one place other pages are checked against.
   */
  readonly signature: string | undefined
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

/** The type aliases a file declares, and those of the files it imports by a relative path. */
function typeAliases(source: ts.SourceFile): Map<string, ts.TypeNode> {
  const aliases = new Map<string, ts.TypeNode>()
  const files = [source]
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue
    const specifier = statement.moduleSpecifier.text
    if (!specifier.startsWith('.')) continue
    files.push(parse(posix.join(posix.dirname(source.fileName), specifier.replace(/\.js$/, '.ts'))))
  }
  for (const file of files) {
    for (const statement of file.statements) {
      if (ts.isTypeAliasDeclaration(statement)) aliases.set(statement.name.text, statement.type)
    }
  }
  return aliases
}

/**
 * The parameter list of the function a type is, or holds (in a union, an array, or through a
 * type alias): `(path, req, res, options)`; `undefined` for a type that is no function.
 */
function signatureOf(type: ts.TypeNode | undefined, aliases: Map<string, ts.TypeNode>): string | undefined {
  if (type === undefined) return undefined
  if (ts.isFunctionTypeNode(type)) {
    return `(${type.parameters.map((parameter) => parameter.name.getText()).join(', ')})`
  }
  if (ts.isParenthesizedTypeNode(type)) return signatureOf(type.type, aliases)
  if (ts.isArrayTypeNode(type)) return signatureOf(type.elementType, aliases)
  if (ts.isUnionTypeNode(type)) {
    for (const member of type.types) {
      const found = signatureOf(member, aliases)
      if (found !== undefined) return found
    }
    return undefined
  }
  if (ts.isTypeReferenceNode(type)) {
    const name = type.typeName.getText()
    if (name === 'Array') return signatureOf(type.typeArguments?.[0], aliases)
    const alias = aliases.get(name)
    // An alias is read once: a recursive one would otherwise never end.
    if (alias === undefined) return undefined
    aliases.delete(name)
    const found = signatureOf(alias, aliases)
    aliases.set(name, alias)
    return found
  }
  return undefined
}

function entryOf(
  member: ts.PropertySignature,
  source: ts.SourceFile,
  aliases: Map<string, ts.TypeNode>,
  routeDefault = false,
): OptionEntry {
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
    signature: signatureOf(member.type, aliases),
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
  const aliases = typeAliases(file)
  const own = declaration.members
    .filter(ts.isPropertySignature)
    .map((member) => entryOf(member, file, aliases))
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
        inherited.push(entryOf(member, file, aliases, true))
      }
    }
  }
  return [...own, ...inherited]
}
