// The suite backend's resource, as json-server serves a db.json: `/todos` (a list of tens of kB)
// and `/todos/:id` (an item of about 4 kB), pretty-printed JSON with a weak `ETag` (Express's
// kind) and `304 Not Modified` for a GET whose If-None-Match names it. Their text is built here
// from the id alone, so the checks compare what the page read with `todoText(id)` byte for byte.
import { createHash } from 'node:crypto'

/** How many todos the list holds (12 of about 4 kB: about 50 kB). */
export const TODO_COUNT = 12

const WORDS = [
  'proxy',
  'naïve',
  'café',
  'Zürich',
  'façade',
  'über',
  'déjà vu',
  '✓ done',
  '→ next',
  '日本語',
  '🚀',
]

/**
 * Todo `id`: fields as a real API's, and notes long enough for ~4 kB, with non-ASCII text and
 * numbers drawn from a generator seeded by the id (as varied as real data, so it compresses
 * about as much: 3 to 4 times, not 10).
 */
function todo(id) {
  let seed = id * 2654435761
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
    return seed
  }
  const notes = Array.from({ length: 40 }, (_, line) => {
    const words = Array.from({ length: 6 }, () => `${WORDS[next() % WORDS.length]} ${next().toString(36)}`)
    return `${line + 1}. ${words.join(' ')}`
  })
  return { id, userId: (id % 3) + 1, title: `Todo ${id}: ship the release`, completed: id % 2 === 0, notes }
}

/**
 * The exact text the backend sends for `/todos/<id>` (`id` undefined: the list), as json-server
 * writes it (two-space indents).
 * @param {number} [id]
 * @returns {string}
 */
export function todoText(id) {
  const value = id === undefined ? Array.from({ length: TODO_COUNT }, (_, n) => todo(n + 1)) : todo(id)
  return JSON.stringify(value, null, 2)
}

/** A weak ETag of `text`, as Express's `etag` writes it: length and SHA-1, base64. */
function etagOf(text) {
  const hash = createHash('sha1').update(text).digest('base64').slice(0, 27)
  return `W/"${Buffer.byteLength(text).toString(16)}-${hash}"`
}

/** Whether If-None-Match `header` names `etag` (weak comparison, RFC 9110 §13.1.2), or is `*`. */
function matches(header, etag) {
  if (header === undefined) return false
  const opaque = etag.replace(/^W\//, '')
  return header
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag.replace(/^W\//, '') === opaque)
}

/**
 * Answers `/todos` and `/todos/<id>` (GET and HEAD; 404 for an unknown id, 405 for another
 * method), with the ETag and 304 above; returns false for any other path.
 * @param {import('node:http').IncomingMessage} req
 * @param {ReturnType<typeof import('./compress-answer.mjs').compressingResponse>} res
 * @param {URL} url
 */
export function answerTodos(req, res, url) {
  const match = /^\/todos(?:\/(\d+))?\/?$/.exec(url.pathname)
  if (match === null) return false
  const send = (status, text) => {
    res.statusCode = status
    res.setHeader('content-type', 'application/json; charset=utf-8')
    res.setHeader('content-length', Buffer.byteLength(text))
    res.end(text)
  }
  const id = match[1] === undefined ? undefined : Number(match[1])
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD')
    send(405, JSON.stringify({ error: 'the todos are read-only here', example: 'GET /todos/3' }))
  } else if (id !== undefined && (id < 1 || id > TODO_COUNT)) {
    send(404, JSON.stringify({ error: `no todo ${id}`, example: `GET /todos/${TODO_COUNT}` }))
  } else {
    const text = todoText(id)
    const etag = etagOf(text)
    res.setHeader('etag', etag)
    if (matches(req.headers['if-none-match'], etag)) {
      res.statusCode = 304
      res.end()
    } else send(200, text)
  }
  return true
}
