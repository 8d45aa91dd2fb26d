import { readFileSync } from 'node:fs'
import type { ProxyResponse } from '../http/proxy-types.js'
import { sendJson } from './endpoint-answers.js'
import type { ExchangeRecord } from './exchange-ring.js'
import { harOf } from './har-export.js'

/** Our HAR files' `creator`: the core's package name and version (package.json is one level above `dist/` and `src/`). */
const CREATOR = Object.freeze({
  name: '@cors-dev-proxy/core',
  version: (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version,
})
const DOWNLOAD = [['content-disposition', 'attachment; filename="cors-dev-proxy.har"'] as const]

/**
 * `GET /__cors-dev-proxy/har`: the kept exchanges as HAR 1.2, as a download when the query
 * says `download`.
 *
 * @example
 * serveHar(res, recorder.ring.list(), url.includes('download'))
 */
export function serveHar(res: ProxyResponse, records: readonly ExchangeRecord[], download: boolean): void {
  sendJson(res, 200, harOf(records, CREATOR), download ? DOWNLOAD : [])
}
