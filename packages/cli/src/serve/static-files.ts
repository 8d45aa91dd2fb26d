import { createReadStream, realpathSync } from 'node:fs'
import { realpath, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2'
import { extname, join, sep } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { contentTypeOf } from './content-types.js'

type Request = IncomingMessage | Http2ServerRequest
type Response = ServerResponse | Http2ServerResponse

/** Options of {@link createStaticFiles}. */
export interface StaticFilesOptions {
  /** The folder to serve (`--static`), absolute. */
  readonly root: string
  /**
   * Answer navigations to paths without a file (`/users/42`) with `index.html`, so a
   * single-page app's client-side router gets its deep links.
   * @default true
   */
  readonly spaFallback?: boolean
}

/** Headers on every file: no sniffing, and no reads by other origins' pages (they would be cross-origin no-cors loads). */
const FILE_HEADERS = Object.freeze({
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
  // A dev server's files change all the time: revalidate on every use (the ETag makes that cheap).
  'cache-control': 'no-cache',
})

/**
 * The path segments of a request target, decoded, or `undefined` when the path could name
 * something outside the folder or hidden in it: a `.`/`..` segment or a dotfile (`.env`,
 * `.git`), an encoded `/` or `\` (`%2f`, `%5c`) that would become a separator once decoded, a
 * raw `\` (a separator on Windows), a NUL byte, or malformed percent-encoding. Checked on the
 * decoded segments, so `%2e%2e` is caught like `..`.
 */
export function safeSegments(target: string): string[] | undefined {
  const path = target.split(/[?#]/, 1)[0] ?? ''
  if (!path.startsWith('/') || path.includes('\\') || /%(2f|5c|00)/i.test(path)) return undefined
  const segments: string[] = []
  for (const raw of path.split('/')) {
    if (raw === '') continue
    let segment: string
    try {
      segment = decodeURIComponent(raw)
    } catch {
      return undefined
    }
    if (segment.startsWith('.') || segment.includes('\0')) return undefined
    segments.push(segment)
  }
  return segments
}

/** A navigation: what a browser sends when the user opens a URL (not a script's fetch of a file). */
function isNavigation(req: Request, segments: readonly string[]): boolean {
  const last = segments[segments.length - 1] ?? ''
  return (req.headers.accept ?? '').includes('text/html') && extname(last) === ''
}

/**
 * Serves the files of a folder, safely: only GET and HEAD, no path outside the folder (encoded or
 * not, symbolic links included), no dotfiles, correct content types, `nosniff` and
 * `Cross-Origin-Resource-Policy: same-origin`, an ETag for cheap revalidation, a folder's
 * `index.html` (after a redirect to the path with a trailing slash), and, for navigations to
 * paths without a file extension, the SPA fallback to the root `index.html`. Everything else
 * goes to `next()` (the 404 answer).
 *
 * @example
 * app.use(createStaticFiles({ root: resolve('dist') }))
 */
export function createStaticFiles(options: StaticFilesOptions) {
  const root = realpathSync(options.root)
  const spaFallback = options.spaFallback ?? true

  /** The real path of a file under the root, or `undefined` (missing, or a link that leads out). */
  async function fileUnderRoot(
    path: string,
  ): Promise<{ path: string; size: number; mtimeMs: number; dir: boolean } | undefined> {
    try {
      const real = await realpath(path)
      if (real !== root && !real.startsWith(root + sep)) return undefined
      const info = await stat(real)
      if (!info.isFile() && !info.isDirectory()) return undefined
      return { path: real, size: info.size, mtimeMs: info.mtimeMs, dir: info.isDirectory() }
    } catch {
      return undefined
    }
  }

  async function send(req: Request, res: Response, file: { path: string; size: number; mtimeMs: number }) {
    const etag = `W/"${file.size.toString(16)}-${Math.floor(file.mtimeMs).toString(16)}"`
    const headers = {
      ...FILE_HEADERS,
      'content-type': contentTypeOf(extname(file.path)),
      etag,
      'last-modified': new Date(file.mtimeMs).toUTCString(),
    }
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers)
      res.end()
      return
    }
    res.writeHead(200, { ...headers, 'content-length': file.size })
    if (req.method === 'HEAD') {
      res.end()
      return
    }
    // A client that goes away ends the pipeline with an error; nothing is left to answer then.
    await pipeline(createReadStream(file.path), res as NodeJS.WritableStream).catch(() => res.destroy())
  }

  async function serveStatic(req: Request, res: Response, next: () => void): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next()
    const segments = safeSegments(req.url ?? '/')
    if (segments === undefined) return next()
    const found = await fileUnderRoot(join(root, ...segments))
    if (found?.dir) {
      const rawPath = (req.url ?? '/').split('?', 1)[0] ?? '/'
      if (!rawPath.endsWith('/')) {
        // Rebuilt from the checked segments, so the redirect always stays on this server.
        const query = (req.url ?? '').slice(rawPath.length)
        const location = `/${segments.map(encodeURIComponent).join('/')}/${query}`
        res.writeHead(301, { location, 'content-length': 0 })
        res.end()
        return
      }
      const index = await fileUnderRoot(join(found.path, 'index.html'))
      if (index !== undefined && !index.dir) return send(req, res, index)
    } else if (found !== undefined) return send(req, res, found)
    if (spaFallback && isNavigation(req, segments)) {
      const index = await fileUnderRoot(join(root, 'index.html'))
      if (index !== undefined && !index.dir) return send(req, res, index)
    }
    next()
  }

  return function corsDevProxyStatic(req: Request, res: Response, next: () => void): void {
    serveStatic(req, res, next).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
      res.end()
    })
  }
}
