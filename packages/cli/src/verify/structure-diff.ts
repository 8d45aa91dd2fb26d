/*
 * The JSON structure of an answer and how two of them differ: a field the recording has that the
 * live answer lacks, a field whose type changed, a field added. Values are not compared here
 * (see `valueChanges`). An array's structure is the union of its elements' (an element that has
 * a field gives the array that field), and an empty array has none, so it never differs. `null`
 * is compared with nothing: a nullable field holds `null` in one answer and a value in the next.
 */

/** The kinds of JSON value. */
type Kind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object'

/** The structure of one or more JSON values (the union, for an array's elements). */
interface Shape {
  readonly kinds: Set<Kind>
  /** The fields of the values that are objects, each with the union of its values' structures. */
  readonly fields: Map<string, Shape>
  /** The union of the elements of the values that are arrays; `undefined` while none had one. */
  items: Shape | undefined
}

/** One difference, as the report prints it: `body.age number → string`. */
export interface StructureChange {
  readonly kind: 'missing' | 'type' | 'added' | 'value'
  /** Where, from `body`: `body.items[].id`. */
  readonly path: string
  readonly text: string
}

function kindOf(value: unknown): Kind {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  const type = typeof value
  return type === 'boolean' || type === 'number' || type === 'string' ? type : 'object'
}

function emptyShape(): Shape {
  return { kinds: new Set(), fields: new Map(), items: undefined }
}

/** Adds `value`'s structure to `shape` (the union). */
function addValue(shape: Shape, value: unknown): Shape {
  const kind = kindOf(value)
  shape.kinds.add(kind)
  if (kind === 'object') {
    for (const [name, inner] of Object.entries(value as Record<string, unknown>)) {
      const field = shape.fields.get(name) ?? emptyShape()
      shape.fields.set(name, addValue(field, inner))
    }
  } else if (kind === 'array') {
    for (const element of value as unknown[]) shape.items = addValue(shape.items ?? emptyShape(), element)
  }
  return shape
}

/** A field's path: `body.name`, or `body["a b"]` for a name that is not an identifier. */
function fieldPath(path: string, name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`
}

function kindsText(kinds: ReadonlySet<Kind>): string {
  return [...kinds].sort().join(' | ')
}

function compareShapes(recorded: Shape, live: Shape, path: string, out: StructureChange[]): void {
  const before = new Set([...recorded.kinds].filter((kind) => kind !== 'null'))
  const after = new Set([...live.kinds].filter((kind) => kind !== 'null'))
  if (before.size > 0 && after.size > 0 && kindsText(before) !== kindsText(after)) {
    out.push({ kind: 'type', path, text: `${path} ${kindsText(before)} → ${kindsText(after)}` })
    return
  }
  if (before.has('object') && after.has('object')) {
    for (const [name, field] of recorded.fields) {
      const where = fieldPath(path, name)
      const other = live.fields.get(name)
      if (other === undefined) out.push({ kind: 'missing', path: where, text: `${where} missing` })
      else compareShapes(field, other, where, out)
    }
    for (const name of live.fields.keys()) {
      if (recorded.fields.has(name)) continue
      const where = fieldPath(path, name)
      out.push({ kind: 'added', path: where, text: `${where} added` })
    }
  }
  // An empty array on either side has no structure to compare.
  if (recorded.items !== undefined && live.items !== undefined) {
    compareShapes(recorded.items, live.items, `${path}[]`, out)
  }
}

/**
 * How the structure of `live` differs from that of `recorded`, both JSON data, from `path`.
 *
 * @example
 * structureChanges({ email: 'a@b', age: 3 }, { age: '3' })
 * // [{ kind: 'missing', path: 'body.email', … }, { kind: 'type', text: 'body.age number → string', … }]
 */
export function structureChanges(recorded: unknown, live: unknown, path = 'body'): StructureChange[] {
  const out: StructureChange[] = []
  compareShapes(addValue(emptyShape(), recorded), addValue(emptyShape(), live), path, out)
  return out
}

/** A value as the report shows it, cut at 40 characters. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined'
  return text.length > 40 ? `${text.slice(0, 39)}…` : text
}

function collectValues(recorded: unknown, live: unknown, path: string, out: StructureChange[]): void {
  const kind = kindOf(recorded)
  if (kind !== kindOf(live)) return
  if (kind === 'array') {
    const [before, after] = [recorded as unknown[], live as unknown[]]
    if (before.length !== after.length) {
      out.push({ kind: 'value', path, text: `${path} length ${before.length} → ${after.length}` })
    }
    const common = Math.min(before.length, after.length)
    for (let index = 0; index < common; index++)
      collectValues(before[index], after[index], `${path}[${index}]`, out)
    return
  }
  if (kind === 'object') {
    const after = live as Record<string, unknown>
    for (const [name, value] of Object.entries(recorded as Record<string, unknown>)) {
      if (Object.hasOwn(after, name)) collectValues(value, after[name], fieldPath(path, name), out)
    }
    return
  }
  if (recorded !== live)
    out.push({ kind: 'value', path, text: `${path} ${shown(recorded)} → ${shown(live)}` })
}

/**
 * The values of `live` that differ from `recorded` where both have a value of the same type
 * (`--values`): each scalar, and each array's length; the structure is `structureChanges`'.
 *
 * @example
 * valueChanges({ name: 'Ann' }, { name: 'Bob' }) // [{ kind: 'value', text: 'body.name "Ann" → "Bob"', … }]
 */
export function valueChanges(recorded: unknown, live: unknown, path = 'body'): StructureChange[] {
  const out: StructureChange[] = []
  collectValues(recorded, live, path, out)
  return out
}
