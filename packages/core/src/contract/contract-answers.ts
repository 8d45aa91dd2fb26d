import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import type { Exchange, ExchangeViolation } from '../pipeline/exchange.js'
import type { ContractOperation } from './contract-types.js'
import { type DocumentMockAnswer, loadDocumentMockAnswer } from './mock-from-document.js'
import { shouldMockMissing } from './should-mock-missing.js'

/*
 * The two answers a route's `openapi` makes itself: the 400 `application/problem+json` (RFC
 * 9457) for a request that breaks the document under `enforce: 'request'`, and the document's
 * own answer under `mock: 'missing'`, marked `X-Cors-Dev-Proxy-Mocked: openapi <operation>` as
 * the route mocks mark theirs (stand-ins/route-mocks/mock-answer-writer.ts).
 */

/** The header that marks an answer a stand-in made (the route mocks' own name). */
const MOCKED_HEADER = 'x-cors-dev-proxy-mocked'

/** Where a violation is, in words: the body's pointer, or the parameter, header or status it names. */
function fieldOf(violation: ExchangeViolation): string {
  if (violation.pointer === '') return 'the body'
  return violation.pointer.startsWith('/') ? `the body at ${violation.pointer}` : violation.pointer
}

/**
 * Answers a request that breaks the document: 400, `application/problem+json`, the first
 * violation's field named in `detail`, every violation listed.
 *
 * @example
 * answerRefused(res, check.violations, '/api')
 */
export function answerRefused(
  res: ProxyResponse,
  violations: readonly ExchangeViolation[],
  route: string,
): void {
  const first = violations[0] as ExchangeViolation
  const problem = {
    type: 'https://cors-dev-proxy.dev/guide/openapi#enforce',
    title: 'The request breaks the OpenAPI document',
    status: 400,
    detail: `${first.operation}: ${fieldOf(first)}: ${first.message} (refused by routes['${route}'].openapi.enforce before it reached the target)`,
    violations,
  }
  const body = JSON.stringify(problem)
  res.writeHead(400, {
    'content-type': 'application/problem+json',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
  })
  res.end(body)
}

/**
 * The document's answer for an operation the target does not implement (`mock: 'missing'`):
 * the target could not be reached, or answered `upstream` (an undeclared 404 or 501); the
 * request's `Prefer` header chooses the example. `undefined` when the target's answer stands
 * (a declared status) or the operation has no 2xx answer to give.
 *
 * @example
 * const answer = await documentAnswerFor(req, { operation, version: '3.0' }, 404)
 */
export async function documentAnswerFor(
  req: ProxyRequest,
  from: { readonly operation: ContractOperation; readonly version: '3.0' | '3.1' },
  upstream: number | 'unreachable',
): Promise<DocumentMockAnswer | undefined> {
  const { operation, version } = from
  if (!shouldMockMissing(operation.statuses, upstream)) return undefined
  const prefer = req.headers.prefer
  return loadDocumentMockAnswer(
    { definition: operation.definition, version },
    Array.isArray(prefer) ? prefer.join(', ') : prefer,
  )
}

/**
 * Sends the document's answer, marked `X-Cors-Dev-Proxy-Mocked: openapi <operation>` (and the
 * example's name), and notes in the exchange that a stand-in answered.
 *
 * @example
 * sendDocumentAnswer(req, res, answer, operation, exchange)
 */
export function sendDocumentAnswer(
  req: ProxyRequest,
  res: Pick<ProxyResponse, 'writeHead' | 'end'>,
  answer: DocumentMockAnswer,
  operation: ContractOperation,
  exchange: Exchange,
): void {
  const headers: Record<string, string> = {
    [MOCKED_HEADER]: `openapi ${operation.id}${answer.example === undefined ? '' : ` (example ${answer.example})`}`,
    'content-length': String(Buffer.byteLength(answer.body)),
  }
  if (answer.contentType !== '') headers['content-type'] = answer.contentType
  exchange.hop = `mocked by openapi ${operation.id}`
  exchange.notFromTarget = true
  res.writeHead(answer.status, headers)
  if (req.method === 'HEAD') res.end()
  else res.end(answer.body)
}
