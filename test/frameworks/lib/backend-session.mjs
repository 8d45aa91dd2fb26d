// The suite backend's login, as an API with sessions has one: `POST /login` with a JSON
// `{ user, password }` answers 401 for a wrong password and 200 with a `sid` cookie (a new
// random value each time) for the right one, and `GET /me` answers who the session is, or 401.
// And `/cookie-variants`, which sets cookies with the attributes real backends send (a
// `Domain` of the backend's host, `Secure`, `SameSite` Strict, Lax and None) for the checks to
// see which of them the page can use through the dev server.
import { randomBytes } from 'node:crypto'

/** The one account: the right password, and a wrong one the checks try first. */
export const ACCOUNT = Object.freeze({
  user: 'ada',
  password: 'correct horse battery staple',
  wrong: 'tr0ub4dor&3',
})

/**
 * What `/cookie-variants` sets: each cookie's name and its attributes as the backend writes them.
 * With the proxy's default `cookieDomainRewrite` the Domain is removed, so all of them are
 * host-only cookies of the dev server; `Secure` ones are kept by Chromium on http://localhost
 * (a potentially trustworthy origin).
 */
export const COOKIE_VARIANTS = Object.freeze({
  v_domain: 'Domain=api.backend.example; Path=/',
  v_secure: 'Path=/; Secure',
  v_strict: 'Path=/; SameSite=Strict',
  v_lax: 'Path=/; SameSite=Lax; HttpOnly',
  v_none: 'Path=/; SameSite=None; Secure',
  v_all: 'Domain=api.backend.example; Path=/; Secure; HttpOnly; SameSite=None',
})

/** A session cookie's value → its user. */
const sessions = new Map()

/** The `sid` cookie of the request, if any. */
function sessionOf(req) {
  const pair = String(req.headers.cookie ?? '')
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith('sid='))
  return pair?.slice('sid='.length)
}

/** The request's body as text (a login body is small; anything over 64 kB is cut). */
async function readText(req) {
  let text = ''
  for await (const chunk of req) if (text.length < 65_536) text += chunk
  return text
}

/**
 * Answers `/login`, `/me` and `/cookie-variants`; returns false for any other path.
 * @param {import('node:http').IncomingMessage} req
 * @param {ReturnType<typeof import('./compress-answer.mjs').compressingResponse>} res
 * @param {URL} url
 */
export function answerSession(req, res, url) {
  const send = (status, value) => {
    const text = JSON.stringify(value)
    res.statusCode = status
    res.setHeader('content-type', 'application/json; charset=utf-8')
    res.setHeader('content-length', Buffer.byteLength(text))
    res.end(text)
  }
  if (url.pathname === '/login') {
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST')
      send(405, { error: 'log in with POST', example: 'POST /login {"user":"ada","password":"…"}' })
      return true
    }
    void readText(req).then((text) => {
      let body
      try {
        body = JSON.parse(text)
      } catch {
        send(400, { error: 'the body must be JSON', example: '{"user":"ada","password":"…"}' })
        return
      }
      if (body?.user !== ACCOUNT.user || body?.password !== ACCOUNT.password) {
        send(401, { error: 'wrong user or password' })
        return
      }
      const session = randomBytes(16).toString('hex')
      sessions.set(session, ACCOUNT.user)
      res.setHeader('set-cookie', `sid=${session}; Path=/; HttpOnly; SameSite=Lax`)
      send(200, { user: ACCOUNT.user })
    })
    return true
  }
  if (url.pathname === '/me') {
    const user = sessions.get(sessionOf(req))
    if (user === undefined) send(401, { error: 'not logged in', example: 'POST /login first' })
    else send(200, { user })
    return true
  }
  if (url.pathname === '/cookie-variants') {
    res.setHeader(
      'set-cookie',
      Object.entries(COOKIE_VARIANTS).map(([name, attributes]) => `${name}=1; ${attributes}`),
    )
    send(200, { set: Object.keys(COOKIE_VARIANTS) })
    return true
  }
  return false
}
