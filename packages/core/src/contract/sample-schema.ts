/*
 * A body generated from a response schema, for an operation whose document gives no example.
 * `openapi-sampler` (Redocly's) is loaded on the first use only, so a route without
 * `openapi: { mock: 'missing' }`, or whose document has examples, never loads it.
 */

/** The sampler's `sample` function, once loaded. */
type Sample = (schema: object, options: object) => unknown

let loading: Promise<Sample> | undefined

/** Loads `openapi-sampler` once; its CommonJS build is the module's default export under Node. */
function loadSampler(): Promise<Sample> {
  loading ??= import('openapi-sampler').then((module) => {
    const loaded = module as unknown as { sample?: Sample; default?: { sample: Sample } }
    return (loaded.sample ?? loaded.default?.sample) as Sample
  })
  return loading
}

/**
 * A value valid against `schema` (an answer's: its `readOnly` fields included, its `writeOnly`
 * ones left out), `pattern`s honoured; the schema has its `$ref`s resolved already.
 *
 * @example
 * await sampleSchema({ type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }) // { id: 0 }
 */
export async function sampleSchema(schema: Readonly<Record<string, unknown>>): Promise<unknown> {
  const sample = await loadSampler()
  return sample(schema, { skipReadOnly: false, skipWriteOnly: true, enablePatterns: true, quiet: true })
}
