import type { RawDocument } from './read-document.js'

/** An OpenAPI Discriminator Object, as far as the rewrite reads it. */
interface Discriminator {
  readonly propertyName: string
  readonly mapping?: Readonly<Record<string, string>>
}

const COMPONENT_SCHEMA = '#/components/schemas/'

/**
 * Rewrites every `oneOf`/`anyOf` with a `discriminator` (OpenAPI 3.0.3 section 4.7.25) into
 * `if`/`then` branches that pick the one schema the discriminating property names, so a body is
 * checked against that schema only and its errors say what is wrong inside it, not "must match
 * exactly one schema in oneOf". Ajv's own `discriminator` option is not used: it ignores
 * `mapping` and wants the property as a `const` in every branch, which real documents rarely
 * write. Runs on the parsed document, before the dereference, while the branches are still
 * `$ref`s whose component names are the implicit mapping values. Changes `document` in place.
 *
 * @example
 * // { oneOf: [{ $ref: '#/components/schemas/Cat' }], discriminator: { propertyName: 'petType' } } becomes
 * // { allOf: [{ if: { properties: { petType: { const: 'Cat' } }, required: ['petType'] },
 * //             then: { $ref: '#/components/schemas/Cat' }, else: { … enum: ['Cat'] … } }] }
 */
export function rewriteDiscriminators(document: RawDocument): void {
  const seen = new Set<object>()
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return
    seen.add(node)
    for (const child of Object.values(node)) visit(child)
    if (!Array.isArray(node)) rewriteOne(node as Record<string, unknown>)
  }
  visit(document)
}

function rewriteOne(schema: Record<string, unknown>): void {
  const discriminator = schema.discriminator as Discriminator | undefined
  const list = schema.oneOf !== undefined ? 'oneOf' : 'anyOf'
  const branches = schema[list]
  if (typeof discriminator?.propertyName !== 'string' || !Array.isArray(branches)) return
  // An inline branch has no name to map a value to: such a list stays as written.
  if (!branches.every((branch) => typeof (branch as { $ref?: unknown } | null)?.$ref === 'string')) return
  const targets = discriminatorTargets(discriminator, branches)
  if (targets.length === 0) return
  const property = discriminator.propertyName
  const otherwise = {
    properties: { [property]: { enum: targets.map(([value]) => value) } },
    required: [property],
  }
  const chain = targets.reduceRight<Record<string, unknown>>(
    (next, [value, ref]) => ({
      if: { properties: { [property]: { const: value } }, required: [property] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `if`/`then` keyword in a schema, never awaited.
      then: { $ref: ref },
      else: next,
    }),
    otherwise,
  )
  delete schema[list]
  delete schema.discriminator
  schema.allOf = [...(Array.isArray(schema.allOf) ? schema.allOf : []), chain]
}

/**
 * The `[value, $ref]` pairs: the explicit `mapping` first (a value may be a bare schema name),
 * then each `$ref` branch by its component name where no mapping points to it.
 */
function discriminatorTargets(
  discriminator: Discriminator,
  branches: readonly unknown[],
): [string, string][] {
  const targets: [string, string][] = Object.entries(discriminator.mapping ?? {}).map(([value, ref]) => [
    value,
    ref.includes('/') ? ref : `${COMPONENT_SCHEMA}${ref}`,
  ])
  const mapped = new Set(targets.map(([, ref]) => ref))
  for (const branch of branches) {
    const ref = (branch as { $ref?: unknown } | null)?.$ref
    if (typeof ref !== 'string' || mapped.has(ref) || !ref.startsWith(COMPONENT_SCHEMA)) continue
    targets.push([decodeURIComponent(ref.slice(COMPONENT_SCHEMA.length)), ref])
  }
  return targets
}
