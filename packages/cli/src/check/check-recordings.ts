import { relative } from 'node:path'
import {
  type Contract,
  type ContractViolation,
  joinTargetPath,
  type RecordedAnswer,
  type RecordingFile,
  type ResolvedForwardRoute,
  type RouteRecordingFile,
} from '@cors-dev-proxy/core/adapter'
import { isAtMaskedValue } from './masked-values.js'
import { rebuildRequest, rebuildResponse } from './recorded-exchange.js'

/*
 * `check --openapi --recordings`: every recorded exchange of the routes checked against the
 * document. A recorded path is relative to the route's prefix; the backend path the document
 * describes is what the proxy sends: the prefix put back, the route's `pathRewrite` (by default
 * the prefix removed), joined to the target's path, as forward/prepare-request.ts does (a
 * `router` is not run: the route's own target is used). The contract then finds the operation
 * through its `servers` base paths. Each answer of a file (those without a secret and each
 * `bySecret` group's) is one exchange with the file's request.
 */

/** A route and its recordings, to check. */
export interface RecordingsRoute {
  readonly route: ResolvedForwardRoute
  /** The route's folder in the recordings folder. */
  readonly folder: string
  readonly files: readonly RouteRecordingFile[]
}

/** One violation of one recorded exchange, as `check --openapi` lists it. */
export interface RecordingViolation extends ContractViolation {
  /** The recording file, relative to the working directory. */
  readonly file: string
  readonly method: string
  /** The path the page called (the route's prefix and the recorded path, with its query). */
  readonly path: string
  /** The path the backend got, through the route's rewrite and target. */
  readonly backendPath: string
  /** The answers (1-based, in file order) that break it, when the file holds more than one. */
  readonly answers?: readonly number[]
}

/** Everything the check of a recordings folder found. */
export interface RecordingsCheck {
  readonly files: number
  readonly exchanges: number
  readonly violations: readonly RecordingViolation[]
  /** A body or a request that was not checked, and why (one per file and reason). */
  readonly notChecked: readonly { readonly file: string; readonly reason: string }[]
  /** Violations at a value the recording masked, not reported (see masked-values.ts). */
  readonly maskedValues: number
  /** Files that are not recordings (unreadable, or edited into something else). */
  readonly unreadable: readonly string[]
  /** Files whose request no operation of the document describes. */
  readonly unmatched: number
}

/** The operation a violation names when none describes the exchange. */
export const NO_OPERATION = '(no operation)'

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE']

type RewriteRequest = Parameters<ResolvedForwardRoute['rewritePath']>[1]

/** The page's path: the route's prefix and the recorded path (`/` alone is the prefix itself). */
export function pagePath(prefix: string, recorded: string): string {
  if (prefix === '/') return recorded
  return recorded === '/' || recorded.startsWith('/?')
    ? `${prefix}${recorded.slice(1)}`
    : `${prefix}${recorded}`
}

/**
 * The path and query the backend gets for the page's `path` on `route`: the route's rewrite,
 * then the target's path. A `pathRewrite` function is called with a request that holds the
 * method, the URL and the recorded headers only.
 *
 * @example
 * await backendPath(route, 'GET', '/api/pets?limit=2', {}) // '/v1/pets?limit=2' for a target http://host/v1
 */
export async function backendPath(
  route: ResolvedForwardRoute,
  method: string,
  path: string,
  headers: Readonly<Record<string, string>>,
): Promise<string> {
  const req = { method, url: path, headers: { ...headers } } as unknown as RewriteRequest
  const rewritten = await route.rewritePath(path, req, () => {})
  return joinTargetPath(route.target, rewritten)
}

function splitQuery(path: string): [pathname: string, search: string] {
  const question = path.indexOf('?')
  return question < 0 ? [path, ''] : [path.slice(0, question), path.slice(question)]
}

/** The violation of an exchange no operation describes, naming the methods the path has. */
function noOperation(contract: Contract, method: string, pathname: string): ContractViolation {
  const others = METHODS.filter((other) => contract.findOperation(other, pathname) !== undefined)
  const has = others.length === 0 ? 'no operation has this path' : `the path has ${others.join(', ')}`
  return {
    in: 'request',
    operation: NO_OPERATION,
    pointer: 'path',
    message: `no operation of the document matches ${method} ${pathname} (${has})`,
    actual: `${method} ${pathname}`,
  }
}

/** Every answer of the file, the ones to a secret included. */
function answersOf(recording: RecordingFile): RecordedAnswer[] {
  return [...recording.answers, ...(recording.bySecret ?? []).flatMap((group) => group.answers)]
}

interface FileOutcome {
  readonly exchanges: number
  readonly violations: RecordingViolation[]
  readonly notChecked: string[]
  readonly maskedValues: number
}

/** The file's request and each of its answers checked; identical violations of several answers listed once. */
async function checkFile(
  contract: Contract,
  route: ResolvedForwardRoute,
  file: string,
  recording: RecordingFile,
): Promise<FileOutcome> {
  const { method } = recording.request
  const path = pagePath(route.prefix, recording.request.path)
  let backend: string
  try {
    backend = await backendPath(route, method, path, recording.request.headers ?? {})
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return { exchanges: 0, violations: [], notChecked: [`not checked: ${message}`], maskedValues: 0 }
  }
  const [pathname, search] = splitQuery(backend)
  const answers = answersOf(recording)
  const exchanges = Math.max(1, answers.length)
  const place = { file, method, path, backendPath: backend }
  const operation = contract.findOperation(method, pathname)
  if (operation === undefined) {
    return {
      exchanges,
      violations: [{ ...place, ...noOperation(contract, method, pathname) }],
      notChecked: [],
      maskedValues: 0,
    }
  }
  const notChecked: string[] = []
  let maskedValues = 0
  const rebuilt = rebuildRequest(recording.request, operation, pathname, search)
  if (rebuilt.bodyNotChecked !== undefined) notChecked.push(`request body: ${rebuilt.bodyNotChecked}`)
  const kept = (violation: ContractViolation, side: Parameters<typeof isAtMaskedValue>[1]): boolean => {
    if (isAtMaskedValue(violation, side)) {
      maskedValues += 1
      return false
    }
    return true
  }
  const requestCheck = operation.checkRequest(rebuilt.request)
  const violations: RecordingViolation[] = requestCheck.violations
    // A header or cookie the file does not hold was not recorded, not missing.
    .filter((violation) => !isUnrecorded(violation.pointer, rebuilt.recordedHeaders))
    .filter((violation) => kept(violation, rebuilt.request))
    .map((violation) => ({ ...place, ...violation }))
  if (requestCheck.skipped !== undefined) notChecked.push(`request body: ${requestCheck.skipped}`)
  const byMessage = new Map<string, { violation: ContractViolation; answers: number[] }>()
  answers.forEach((answer, index) => {
    const response = rebuildResponse(answer)
    const check = operation.checkResponse(response)
    if (check.skipped !== undefined) notChecked.push(`response body: ${check.skipped}`)
    for (const violation of check.violations) {
      if (!kept(violation, response)) continue
      const key = `${violation.pointer}\n${violation.message}`
      const seen = byMessage.get(key) ?? { violation, answers: [] }
      seen.answers.push(index + 1)
      byMessage.set(key, seen)
    }
  })
  for (const { violation, answers: which } of byMessage.values()) {
    violations.push({ ...place, ...violation, ...(answers.length > 1 ? { answers: which } : {}) })
  }
  return { exchanges, violations, notChecked: [...new Set(notChecked)], maskedValues }
}

function isUnrecorded(pointer: string, recorded: ReadonlySet<string>): boolean {
  if (pointer.startsWith('cookie.')) return true
  if (!pointer.startsWith('header.')) return false
  return !recorded.has(pointer.slice('header.'.length).split('/')[0] ?? '')
}

/**
 * Checks every recording of `routes` against `contract`. File names in the result are relative
 * to `cwd`.
 *
 * @example
 * const result = await checkRecordings(contract, [{ route, folder, files }], process.cwd())
 * result.violations.length // 0 when every exchange keeps the document
 */
export async function checkRecordings(
  contract: Contract,
  routes: readonly RecordingsRoute[],
  cwd: string,
): Promise<RecordingsCheck> {
  const result = {
    files: 0,
    exchanges: 0,
    violations: [] as RecordingViolation[],
    notChecked: [] as { file: string; reason: string }[],
    maskedValues: 0,
    unreadable: [] as string[],
    unmatched: 0,
  }
  for (const { route, files } of routes) {
    for (const { file: absolute, recording } of files) {
      const file = relative(cwd, absolute) || absolute
      result.files += 1
      if (recording === undefined) {
        result.unreadable.push(file)
        continue
      }
      const outcome = await checkFile(contract, route, file, recording)
      result.exchanges += outcome.exchanges
      result.violations.push(...outcome.violations)
      result.notChecked.push(...outcome.notChecked.map((reason) => ({ file, reason })))
      result.maskedValues += outcome.maskedValues
      if (outcome.violations.some((violation) => violation.operation === NO_OPERATION)) result.unmatched += 1
    }
  }
  return result
}
