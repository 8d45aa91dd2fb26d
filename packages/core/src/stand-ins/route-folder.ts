/*
 * The names a stand-in gives its files and folders: a route's recordings
 * (`cors-dev-proxy/recordings/<folder>/`) and its mocks (`cors-dev-proxy/mocks/<folder>/`) live in
 * a folder named after its prefix the same way, and a recording's file name is a slug of its
 * request.
 */

/** Longest readable part of a file or folder name; a recording's hash makes its name unique. */
export const SLUG_LENGTH = 60

/**
 * `text` reduced to `[A-Za-z0-9_-]` (every other character, `.` and `/` included, becomes `-`),
 * without leading or trailing `-`, at most `max` characters: never a path separator, a
 * dot-segment or a NUL, whatever the request held.
 *
 * @example
 * slugOf('/users/../etc/passwd', 60) // 'users-etc-passwd'
 */
export function slugOf(text: string, max: number): string {
  return text
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .slice(0, max)
    .replace(/^-+|-+$/g, '')
}

/**
 * The folder of a route's files inside the recordings or mocks folder: its prefix as a slug
 * (`/api/v1` → `api-v1`, `/` → `root`).
 *
 * @example
 * routeFolderOf('/api') // 'api'
 */
export function routeFolderOf(prefix: string): string {
  return slugOf(prefix, SLUG_LENGTH) || 'root'
}
