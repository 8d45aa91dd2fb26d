import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'

/**
 * What the troubleshooting page must show for one logged line: a literal text it contains, or
 * (for a line that is mostly values, like the debug line) its shape as a one-line pattern.
 */
export type Requirement =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'shape'; readonly parts: readonly string[]; readonly shape: string }

/** One call that writes a line the user reads, and what the page must show for it. */
export interface LogSite {
  /** `packages/core/src/forward/failure-log.ts:52`, for the failure message. */
  readonly where: string
  /** The call as written, on one line and cut short: `logger.error(...)`. */
  readonly call: string
  /** One per message variant the call can print (its own text, and each helper branch it uses). */
  readonly requirements: readonly Requirement[]
}

/** Method names of the logger, of log sinks and of the CLI's `io`: `logger.warn(…)`, `io.err(…)`. */
const SINK_METHODS = new Set(['debug', 'info', 'warn', 'error', 'limited', 'err'])

/** Callbacks that receive a log line: resolution warnings (`warn(…)`) and path-rewrite problems (`onProblem(…)`). */
const SINK_FUNCTIONS = new Set(['warn', 'onProblem'])

/** Errors the CLI prints as `error <message>` (run-time failures such as a port in use, a config file that cannot load). */
const PRINTED_ERRORS = new Set(['Error', 'ConfigFileError'])

/**
 * Helpers that compute a value shown inside a line (a label, an option path), not a message:
 * following them would demand their incidental literals on the page.
 */
const VALUE_HELPERS = new Set([
  'targetLabel',
  'errorCode',
  'routeOption',
  'globalOption',
  'describeProtocol',
  'requestedOrigin',
  'splitPathAndQuery',
  'refusedHeaderList',
  'hmrPath',
  'received',
  'firstLine',
  'foldedNote',
])

/** A fragment shorter than this is not distinctive enough to search the page for. */
export const MIN_TEXT_LENGTH = 12

/** How deep helpers are followed (a line built by a helper that calls another one). */
const MAX_DEPTH = 3

/** Collapses whitespace, as the page (markdown, wrapped) and the source (concatenated strings) differ in it. */
export function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function sourceFiles(root: string): string[] {
  const files: string[] = []
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(path)
    }
  }
  for (const pkg of readdirSync(join(root, 'packages'))) {
    const src = join(root, 'packages', pkg, 'src')
    if (existsSync(src)) walk(src)
  }
  return files.sort()
}

/** Parses each file once; helpers in other files are parsed when first followed. */
function createParser(): (path: string) => ts.SourceFile {
  const cache = new Map<string, ts.SourceFile>()
  return (path) => {
    let file = cache.get(path)
    if (file === undefined) {
      file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true)
      cache.set(path, file)
    }
    return file
  }
}

/** The literal texts of a string, template or `+` concatenation, anywhere under `node`. */
function fragments(node: ts.Node): string[] {
  const found: string[] = []
  const visit = (current: ts.Node): void => {
    if (isKeyOrComparand(current)) return
    if (ts.isStringLiteral(current) || ts.isNoSubstitutionTemplateLiteral(current)) found.push(current.text)
    else if (ts.isTemplateExpression(current)) {
      found.push(current.head.text)
      for (const span of current.templateSpans) {
        visit(span.expression)
        found.push(span.literal.text)
      }
      return
    }
    ts.forEachChild(current, visit)
  }
  visit(node)
  return found.map(normalise).filter((text) => text !== '')
}

/** A literal that is never printed: a key (`headers['content-type']`) or a value compared against (`kind === 'mock'`). */
function isKeyOrComparand(node: ts.Node): boolean {
  const parent = node.parent
  if (parent === undefined) return false
  if (ts.isElementAccessExpression(parent) && parent.argumentExpression === node) return true
  if (ts.isCaseClause(parent)) return true
  if (!ts.isBinaryExpression(parent)) return false
  const operator = parent.operatorToken.kind
  return (
    operator === ts.SyntaxKind.EqualsEqualsEqualsToken ||
    operator === ts.SyntaxKind.ExclamationEqualsEqualsToken ||
    operator === ts.SyntaxKind.EqualsEqualsToken ||
    operator === ts.SyntaxKind.ExclamationEqualsToken
  )
}

/** A template's literal parts, in order, for a line that is mostly values. */
function shapeOf(node: ts.Node): Requirement | undefined {
  if (!ts.isTemplateExpression(node)) return undefined
  const parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)]
  if (parts.join('').replace(/\s/g, '').length < 3) return undefined
  return {
    kind: 'shape',
    shape: parts.join('…'),
    parts: parts.map(normalise).filter((part) => part !== ''),
  }
}

/** Where a name used at `use` is declared: the innermost declaration in scope, in this file or imported. */
type Declaration =
  | { readonly kind: 'value'; readonly node: ts.Expression; readonly file: ts.SourceFile }
  | { readonly kind: 'function'; readonly node: ts.SignatureDeclaration; readonly file: ts.SourceFile }

function declarationIn(
  statements: ts.NodeArray<ts.Statement> | readonly ts.Statement[],
  name: string,
  file: ts.SourceFile,
): Declaration | undefined {
  for (const statement of statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name?.text === name) {
      return { kind: 'function', node: statement, file }
    }
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name) || declaration.name.text !== name) continue
        const init = declaration.initializer
        if (init === undefined) return undefined
        if (ts.isArrowFunction(init) || ts.isFunctionExpression(init))
          return { kind: 'function', node: init, file }
        return { kind: 'value', node: init, file }
      }
    }
  }
  return undefined
}

function hasParameter(node: ts.Node, name: string): boolean {
  if (!ts.isFunctionLike(node)) return false
  return node.parameters.some((parameter) => parameterNames(parameter.name).includes(name))
}

function parameterNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text]
  return name.elements.flatMap((element) =>
    ts.isOmittedExpression(element) ? [] : parameterNames(element.name),
  )
}

function resolveName(use: ts.Identifier, parse: (path: string) => ts.SourceFile): Declaration | undefined {
  const name = use.text
  const file = use.getSourceFile()
  for (let scope: ts.Node | undefined = use.parent; scope !== undefined; scope = scope.parent) {
    // A parameter (a message passed in) cannot be followed: its callers are found as sites of their own.
    if (hasParameter(scope, name)) return undefined
    if (ts.isBlock(scope) || ts.isSourceFile(scope) || ts.isModuleBlock(scope)) {
      const found = declarationIn(scope.statements, name, file)
      if (found !== undefined) return found
    }
  }
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue
    const specifier = statement.moduleSpecifier.text
    const named = statement.importClause?.namedBindings
    if (!specifier.startsWith('.') || named === undefined || !ts.isNamedImports(named)) continue
    const element = named.elements.find((candidate) => candidate.name.text === name)
    if (element === undefined) continue
    const base = resolve(dirname(file.fileName), specifier.replace(/\.js$/, ''))
    const path = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate))
    if (path === undefined) return undefined
    const imported = parse(path)
    return declarationIn(imported.statements, (element.propertyName ?? element.name).text, imported)
  }
  return undefined
}

/** The expressions a function can return (not those of functions nested in it). */
function returnedExpressions(fn: ts.SignatureDeclaration): ts.Expression[] {
  if (ts.isArrowFunction(fn) && !ts.isBlock(fn.body)) return [fn.body]
  const found: ts.Expression[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isReturnStatement(node) && node.expression !== undefined) found.push(node.expression)
    if (!ts.isFunctionLike(node)) ts.forEachChild(node, visit)
  }
  const body = (fn as ts.FunctionLikeDeclarationBase).body
  if (body !== undefined) ts.forEachChild(body, visit)
  return found
}

/** The branches of a conditional, flattened: each is a variant of the message. */
function branches(node: ts.Expression): ts.Expression[] {
  const inner = ts.isParenthesizedExpression(node) ? node.expression : node
  return ts.isConditionalExpression(inner)
    ? [...branches(inner.whenTrue), ...branches(inner.whenFalse)]
    : [inner]
}

/**
 * The requirements of one message expression: its own longest fragment (or its shape), and
 * those of every helper and local value it uses, followed to {@link MAX_DEPTH}.
 */
function requirementsOf(
  expression: ts.Expression,
  parse: (path: string) => ts.SourceFile,
  depth = 0,
  seen = new Set<ts.Node>(),
): Requirement[] {
  if (seen.has(expression)) return []
  seen.add(expression)
  const own = fragments(expression).sort((a, b) => b.length - a.length)[0]
  const requirements: Requirement[] = []
  if (own !== undefined && own.length >= MIN_TEXT_LENGTH) requirements.push({ kind: 'text', text: own })
  else {
    const shape = shapeOf(expression)
    if (shape !== undefined) requirements.push(shape)
  }
  if (depth >= MAX_DEPTH) return requirements
  const follow = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && !VALUE_HELPERS.has(node.text) && isReference(node)) {
      const declaration = resolveName(node, parse)
      if (declaration?.kind === 'function') {
        for (const returned of returnedExpressions(declaration.node)) {
          requirements.push(...requirementsOf(returned, parse, depth + 1, seen))
        }
      } else if (declaration?.kind === 'value') {
        const property =
          ts.isPropertyAccessExpression(node.parent) && node.parent.expression === node
            ? node.parent.name.text
            : undefined
        for (const branch of branches(declaration.node)) {
          const value = property === undefined ? branch : propertyOf(branch, property)
          if (value !== undefined && isTextual(value)) {
            requirements.push(...requirementsOf(value, parse, depth + 1, seen))
          }
        }
      }
    }
    ts.forEachChild(node, follow)
  }
  follow(expression)
  return requirements
}

/**
 * Whether a value can be (part of) a message: a string, a template, a concatenation, or what a
 * helper returns. Other values (a flag spec, an options object) hold literals that are no message.
 */
function isTextual(node: ts.Expression): boolean {
  if (ts.isParenthesizedExpression(node)) return isTextual(node.expression)
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
    return true
  }
  if (ts.isBinaryExpression(node)) return node.operatorToken.kind === ts.SyntaxKind.PlusToken
  return ts.isCallExpression(node) && ts.isIdentifier(node.expression)
}

/** An identifier that names a value (not a property name, a parameter or a key being declared). */
function isReference(node: ts.Identifier): boolean {
  const parent = node.parent
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false
  if (ts.isPropertyAssignment(parent) && parent.name === node) return false
  if (ts.isParameter(parent) || ts.isBindingElement(parent)) return false
  return true
}

function propertyOf(node: ts.Expression, name: string): ts.Expression | undefined {
  if (!ts.isObjectLiteralExpression(node)) return undefined
  for (const property of node.properties) {
    if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.name) && property.name.text === name) {
      return property.initializer
    }
  }
  return undefined
}

/** The argument that holds the message, or `undefined` when the call is not a logging call. */
function messageOf(node: ts.Node, inCli: boolean): ts.Expression | undefined {
  if (ts.isNewExpression(node)) {
    const name = ts.isIdentifier(node.expression) ? node.expression.text : ''
    return inCli && PRINTED_ERRORS.has(name) ? node.arguments?.[0] : undefined
  }
  if (!ts.isCallExpression(node)) return undefined
  const callee = node.expression
  const name = ts.isPropertyAccessExpression(callee)
    ? SINK_METHODS.has(callee.name.text)
      ? callee.name.text
      : undefined
    : ts.isIdentifier(callee) && SINK_FUNCTIONS.has(callee.text)
      ? callee.text
      : undefined
  if (name === undefined) return undefined
  if (name !== 'limited') return node.arguments[0]
  // `logger.limited(severity, key, () => message)`: the line is what the function returns.
  const producer = node.arguments[2]
  if (producer === undefined || !ts.isArrowFunction(producer)) return producer
  return ts.isBlock(producer.body) ? returnedExpressions(producer)[0] : producer.body
}

/**
 * Every logging call in `packages/<name>/src`, with what the page must show for it: calls on a
 * logger or sink (`.debug/.info/.warn/.error/.limited`, the CLI's `io.err`), the warning
 * callbacks (`warn(…)`, `onProblem(…)`), and the errors the CLI prints (`new Error(…)`).
 *
 * @example
 * const sites = findLogSites(process.cwd())
 * // [{ where: 'packages/core/src/forward/failure-log.ts:52', call: 'logger.error(…)', requirements: [...] }, ...]
 */
export function findLogSites(root: string): LogSite[] {
  const parse = createParser()
  const sites: LogSite[] = []
  for (const path of sourceFiles(root)) {
    const file = parse(path)
    const where = relative(root, path).split('\\').join('/')
    const inCli = where.startsWith('packages/cli/')
    const visit = (node: ts.Node): void => {
      const message = messageOf(node, inCli)
      if (message !== undefined) {
        const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1
        const text = normalise(node.getText(file))
        sites.push({
          where: `${where}:${line}`,
          call: text.length > 80 ? `${text.slice(0, 77)}…` : text,
          requirements: dedupe(requirementsOf(message, parse)),
        })
      }
      ts.forEachChild(node, visit)
    }
    visit(file)
  }
  return sites
}

function dedupe(requirements: Requirement[]): Requirement[] {
  const seen = new Set<string>()
  return requirements.filter((requirement) => {
    const key = requirement.kind === 'text' ? `t ${requirement.text}` : `s ${requirement.shape}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** Whether the page shows a requirement: the text anywhere (whitespace collapsed), a shape on one line. */
export function pageShows(page: string, requirement: Requirement): boolean {
  if (requirement.kind === 'text') return normalise(page).includes(requirement.text)
  // The parts in order on one line; found by `indexOf`, left to right, so no pattern can backtrack.
  return page.split('\n').some((line) => {
    const text = normalise(line)
    let from = 0
    for (const part of requirement.parts) {
      const at = text.indexOf(part, from)
      if (at === -1) return false
      from = at + part.length
    }
    return true
  })
}

/**
 * The texts a helper file gives as an argument or a property, wherever it does: e.g. every
 * `cause` of `forward/proxy-error.ts`, passed as `failure(502, 'connection refused', …)` or
 * written as `cause: \`TLS handshake failed (${code})\``. Each is one requirement (its longest
 * fragment, or its shape).
 *
 * @example
 * texts(root, 'packages/core/src/forward/proxy-error.ts', { call: 'failure', argument: 1, property: 'cause' })
 */
export function texts(
  root: string,
  file: string,
  where: { readonly call?: string; readonly argument?: number; readonly property?: string },
): Requirement[] {
  const parse = createParser()
  const source = parse(join(root, file))
  const found: Requirement[] = []
  const visit = (node: ts.Node): void => {
    if (
      where.call !== undefined &&
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === where.call
    ) {
      const argument = node.arguments[where.argument ?? 0]
      if (argument !== undefined) found.push(...requirementsOf(argument, parse, MAX_DEPTH))
    }
    if (
      where.property !== undefined &&
      ts.isPropertyAssignment(node) &&
      ts.isIdentifier(node.name) &&
      node.name.text === where.property
    ) {
      found.push(...requirementsOf(node.initializer, parse, MAX_DEPTH))
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return dedupe(found)
}

/**
 * What the named functions of a file can return: one requirement per `return`, with the helpers
 * they use followed (e.g. every exception `requestConstructorError` can give).
 *
 * @example
 * returnedTexts(root, 'packages/core/src/browser/request-constructor.ts', ['requestConstructorError'])
 */
export function returnedTexts(root: string, file: string, names: readonly string[]): Requirement[] {
  const parse = createParser()
  const source = parse(join(root, file))
  const found: Requirement[] = []
  for (const name of names) {
    const declaration = declarationIn(source.statements, name, source)
    if (declaration?.kind !== 'function') throw new Error(`${file} has no function ${name}`)
    for (const returned of returnedExpressions(declaration.node))
      found.push(...requirementsOf(returned, parse))
  }
  return dedupe(found)
}

/**
 * The members of a string-literal union type, read from the source (e.g. every `CorsErrorKind`),
 * so that a new member is found without a list to update.
 *
 * @example
 * unionMembers(root, 'packages/core/src/browser/chromium-messages.ts', 'CorsErrorKind') // ['missing-allow-origin', ...]
 */
export function unionMembers(root: string, file: string, name: string): string[] {
  const source = createParser()(join(root, file))
  for (const statement of source.statements) {
    if (!ts.isTypeAliasDeclaration(statement) || statement.name.text !== name) continue
    if (!ts.isUnionTypeNode(statement.type)) break
    return statement.type.types.flatMap((member) =>
      ts.isLiteralTypeNode(member) && ts.isStringLiteral(member.literal) ? [member.literal.text] : [],
    )
  }
  throw new Error(`${file} has no union type ${name}`)
}

/** A requirement as a message names it: the text, or the shape with `…` for the values. */
export function describeRequirement(requirement: Requirement): string {
  return requirement.kind === 'text'
    ? JSON.stringify(requirement.text)
    : `a line shaped ${JSON.stringify(requirement.shape)}`
}

/**
 * Every string or template literal of a file whose text matches `pattern`, each as a
 * requirement (its longest fragment): for texts built inside closures, such as the browser
 * model's console lines.
 *
 * @example
 * literalTexts(root, 'packages/core/src/browser/fetch-call.ts', /Fetch API cannot load/)
 */
export function literalTexts(root: string, file: string, pattern: RegExp): Requirement[] {
  const source = createParser()(join(root, file))
  const found: Requirement[] = []
  const visit = (node: ts.Node): void => {
    if (
      ts.isTemplateExpression(node) ||
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node)
    ) {
      const longest = fragments(node).sort((a, b) => b.length - a.length)[0]
      if (longest !== undefined && pattern.test(node.getText(source)))
        found.push({ kind: 'text', text: longest })
      return
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return dedupe(found)
}
