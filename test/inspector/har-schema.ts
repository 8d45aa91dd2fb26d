import { readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

/** The part of Ajv 8 used here (it is CommonJS; its `default` export is the class). */
interface AjvLike {
  addSchema(schema: object, key: string): unknown
  getSchema(
    key: string,
  ): ((data: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null }
}
const Ajv = (require('ajv') as { default: new (options: object) => AjvLike }).default
const addFormats = (require('ajv-formats') as { default: (ajv: AjvLike) => AjvLike }).default

/**
 * Validates a HAR file against the HAR 1.2 JSON schema of `har-schema` (what `har-validator`
 * uses), with Ajv and its formats (`date-time`, `uri`...); returns the errors, empty when valid.
 */
export function harErrors(har: unknown): string[] {
  const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false })
  addFormats(ajv)
  const directory = join(dirname(require.resolve('har-schema/package.json')), 'lib')
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.json'))) {
    const schema = require(join(directory, file)) as { $id?: string }
    ajv.addSchema({ ...schema, $schema: undefined }, schema.$id ?? file)
  }
  const validate = ajv.getSchema('har.json#')
  return validate(har) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`)
}
