/*
 * Names users bring from Prism (`prism mock|proxy` flags) and express-openapi-validator to the
 * object form of `openapi`, and what to write instead: the unknown-key check reads it for the
 * `openapi` level (config/unknown-options.ts). Imports only a type, so config can import it.
 */
import type { Advice } from '../../config/foreign-options.js'

const DOCUMENT = "document: './openapi.yaml'"

/** One route's `openapi` with `fields` after its document, as a fix shows it. */
const withDocument = (fields: string): string => `{ openapi: { ${DOCUMENT}${fields} } }`

const ENFORCE: Advice = {
  problem:
    "is Prism's `--errors` (refuse what breaks the document): here it is `enforce: 'request'`, which answers a request that breaks the document with a 400 before it reaches the target; answers are checked and reported, never changed",
  example: withDocument(", enforce: 'request'"),
}
const DOCUMENT_ADVICE: Advice = {
  problem: 'is called `document` here: a path, a URL or the document as an object',
  example: withDocument(''),
}
const ALWAYS_CHECKED: Advice = {
  problem:
    "is not needed: with `openapi`, every request and answer is checked and its violations shown; `enforce: 'request'` also refuses requests that break the document",
  example: withDocument(''),
}
const MOCK: Advice = {
  problem:
    "is `mock: 'missing'` here: the operations the target does not answer yet (unreachable, or an undeclared 404 or 501) are answered from the document's examples, else from its schemas",
  example: withDocument(", mock: 'missing'"),
}

/** The advice per name, read with `openApiForeignAdvice` (a plain lookup would find `constructor`). */
const OPENAPI_FOREIGN_NAMES: Readonly<Record<string, Advice>> = Object.freeze({
  errors: ENFORCE,
  validateRequests: ENFORCE,
  validateRequest: ENFORCE,
  validateResponses: ALWAYS_CHECKED,
  validateResponse: ALWAYS_CHECKED,
  apiSpec: DOCUMENT_ADVICE,
  spec: DOCUMENT_ADVICE,
  path: DOCUMENT_ADVICE,
  url: DOCUMENT_ADVICE,
  file: DOCUMENT_ADVICE,
  dynamic: MOCK,
  mocks: MOCK,
})

/**
 * The advice for a key of `openapi` that another tool uses, or `undefined`.
 *
 * @example
 * openApiForeignAdvice('errors')?.example // "{ openapi: { document: './openapi.yaml', enforce: 'request' } }"
 */
export function openApiForeignAdvice(key: string): Advice | undefined {
  return Object.hasOwn(OPENAPI_FOREIGN_NAMES, key) ? OPENAPI_FOREIGN_NAMES[key] : undefined
}
