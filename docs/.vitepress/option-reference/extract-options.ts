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

function memberName(member: ts.TypeElement | ts.ObjectLiteralElementLike): string | undefined {
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

/** An option's declaration: an interface's property, or a property of the option table built by `option<Written>()`. */
interface Declared {
  readonly node: ts.PropertySignature | ts.PropertyAssignment
  /** The type a user writes: the property's, or the entry's `Written` type argument. */
  readonly type: ts.TypeNode | undefined
}

function entryOf(
  { node, type }: Declared,
  aliases: Map<string, ts.TypeNode>,
  routeDefault = false,
): OptionEntry {
  const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc)
  const doc = docs.at(-1)
  const tag = (tagName: string) => {
    const found = doc?.tags?.find((t) => t.tagName.text === tagName)
    return found ? commentText(found.comment) : undefined
  }
  return {
    name: memberName(node) ?? '',
    type: type ? type.getText(node.getSourceFile()).replace(/\s+/g, ' ') : 'unknown',
    description: commentText(doc?.comment),
    defaultValue: tag('default'),
    example: tag('example'),
    routeDefault,
    signature: signatureOf(type, aliases),
  }
}

/** The file a relative import of `source` names, parsed. */
function importedFile(source: ts.SourceFile, specifier: string): ts.SourceFile {
  return parse(posix.join(posix.dirname(source.fileName), specifier.replace(/\.js$/, '.ts')))
}

/** The file `source` imports `name` from, parsed. */
function fileImporting(source: ts.SourceFile, name: string): ts.SourceFile {
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue
    const bindings = statement.importClause?.namedBindings
    if (bindings && ts.isNamedImports(bindings) && bindings.elements.some((e) => e.name.text === name)) {
      return importedFile(source, statement.moduleSpecifier.text)
    }
  }
  throw new Error(`${source.fileName} imports no ${name}`)
}

/** The string literals of a type (`'route' | 'both'`). */
function literals(type: ts.TypeNode | undefined): string[] {
  if (type === undefined) return []
  const members: readonly ts.TypeNode[] = ts.isUnionTypeNode(type) ? type.types : [type]
  return members.flatMap((member) =>
    ts.isLiteralTypeNode(member) && ts.isStringLiteral(member.literal) ? [member.literal.text] : [],
  )
}

/**
 * The simple options of the option table's part `part` (imported by `source`) written at one of
 * `levels`: its properties built by `option<Written>(...)`, typed by `Written`.
 */
function tablePartOptions(source: ts.SourceFile, part: string, levels: readonly string[]): Declared[] {
  const file = fileImporting(source, part)
  for (const statement of file.statements.filter(ts.isVariableStatement)) {
    const variable = statement.declarationList.declarations.find((d) => d.name.getText(file) === part)
    if (!variable?.initializer || !ts.isObjectLiteralExpression(variable.initializer)) continue
    return variable.initializer.properties.filter(ts.isPropertyAssignment).flatMap((property) => {
      const call = property.initializer
      if (!ts.isCallExpression(call) || call.expression.getText(file) !== 'option') return []
      const [entry] = call.arguments
      const level =
        entry && ts.isObjectLiteralExpression(entry)
          ? entry.properties
              .filter(ts.isPropertyAssignment)
              .find((p) => p.name.getText(file) === 'level')
              ?.initializer.getText(file)
              .slice(1, -1)
          : undefined
      return level !== undefined && levels.includes(level)
        ? [{ node: property, type: call.typeArguments?.[0] }]
        : []
    })
  }
  throw new Error(`no option table part ${part} in ${file.fileName}`)
}

/**
 * The simple options an `extends WrittenOptions<Parts, 'route' | 'both'>` clause brings in:
 * `Parts` is a type alias of the same file, `typeof A & typeof B`, naming parts of the option table.
 */
function writtenOptions(file: ts.SourceFile, clause: ts.ExpressionWithTypeArguments): Declared[] {
  const [parts, levels] = clause.typeArguments ?? []
  if (clause.expression.getText(file) !== 'WrittenOptions' || parts === undefined) return []
  const alias = file.statements.find(
    (statement): statement is ts.TypeAliasDeclaration =>
      ts.isTypeAliasDeclaration(statement) && statement.name.text === parts.getText(file),
  )
  const queries: readonly ts.TypeNode[] =
    alias === undefined ? [parts] : ts.isIntersectionTypeNode(alias.type) ? alias.type.types : [alias.type]
  return queries.flatMap((query) =>
    ts.isTypeQueryNode(query) ? tablePartOptions(file, query.exprName.getText(file), literals(levels)) : [],
  )
}

/** An interface's options: its own properties, then those of its `WrittenOptions<...>` clauses. */
function declaredOptions(file: ts.SourceFile, declaration: ts.InterfaceDeclaration): Declared[] {
  const own: Declared[] = declaration.members
    .filter(ts.isPropertySignature)
    .map((member) => ({ node: member, type: member.type }))
  const written = (declaration.heritageClauses ?? []).flatMap((clause) =>
    clause.types.flatMap((type) => writtenOptions(file, type)),
  )
  return [...own, ...written]
}

/**
 * The options an interface declares, in declaration order, with their JSDoc: its own, then the
 * simple options of its `extends WrittenOptions<Parts, Levels>` clauses (typed and documented by
 * their entries in the option table). Keys inherited through `extends Pick<Other, 'a' | 'b'>`
 * from an interface of the same file are listed too, after the others, documented by `Other`
 * and marked `routeDefault`.
 */
export function extractOptions(source: InterfaceSource): OptionEntry[] {
  const file = parse(source.file)
  const declaration = findInterface(file, source.name)
  const aliases = typeAliases(file)
  const own = declaredOptions(file, declaration).map((declared) => entryOf(declared, aliases))
  const inherited: OptionEntry[] = []
  for (const clause of declaration.heritageClauses ?? []) {
    for (const type of clause.types) {
      const [from, keys] = type.typeArguments ?? []
      if (type.expression.getText(file) !== 'Pick' || !from || !keys) continue
      const parent = declaredOptions(file, findInterface(file, from.getText(file)))
      for (const name of literals(keys)) {
        const member = parent.find(({ node }) => memberName(node) === name)
        if (!member)
          throw new Error(`${source.name} picks ${name}, which ${from.getText(file)} does not declare`)
        inherited.push(entryOf(member, aliases, true))
      }
    }
  }
  return [...own, ...inherited]
}
