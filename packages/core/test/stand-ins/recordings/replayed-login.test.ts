import { createHash, randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../../test/support/proxy-server.js'
import { refusedUrl } from '../../../../../test/support/refused-port.js'
import { collectBody, listen, sendRequest, type TestResponse } from '../../../../../test/support/servers.js'

/*
 * A login recorded once with a wrong and once with the right password, through a real proxy
 * (`record: true`) in front of a real login backend, then replayed by a fresh proxy (another
 * process, another machine: nothing remembered) with the backend stopped (`replay: 'fallback'`).
 * Each password gets its own answer, every time; the files hold no password, nothing it can be
 * cheaply recovered from, and no session cookie; the replayed session opens the replayed `/me`.
 */

const USER = 'ada'
const RIGHT = `right-${randomBytes(6).toString('hex')}`
const WRONG = `wrong-${randomBytes(6).toString('hex')}`
/** Never recorded: its replay must find nothing rather than another password's answer. */
const OTHER = `other-${randomBytes(6).toString('hex')}`
/** The login's answer as the backend writes it: keys in no sorted order. */
const LOGIN_ANSWER = `{"user":"${USER}","role":"admin","id":7,"avatar":"/a.png"}`

const basic = (password: string) => `Basic ${Buffer.from(`${USER}:${password}`).toString('base64')}`
const jsonLogin = (password: string) => JSON.stringify({ user: USER, password })
const formLogin = (password: string) => `user=${USER}&password=${encodeURIComponent(password)}`

/** Every session cookie value the backend issued. */
const issued = new Set<string>()

/** A login backend: 401 for a wrong password, 200 and a new session cookie for the right one; `/me` needs the cookie. */
function loginBackend() {
  return createServer(async (req, res) => {
    const text = (await collectBody(req)).toString()
    const url = new URL(req.url ?? '/', 'http://x')
    const type = req.headers['content-type'] ?? ''
    const deny = (): void => {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Basic realm="x"' })
      res.end('{"error":"wrong user or password"}')
    }
    const grant = (): void => {
      const session = randomBytes(18).toString('base64url')
      issued.add(session)
      res.writeHead(200, {
        'content-type': 'application/json',
        'set-cookie': `session=${session}; HttpOnly; Path=/`,
      })
      res.end(LOGIN_ANSWER)
    }
    if (url.pathname === '/login') {
      const given = type.includes('json')
        ? (JSON.parse(text) as { user: string; password: string })
        : Object.fromEntries(new URLSearchParams(text))
      if (given.user === USER && given.password === RIGHT) grant()
      else deny()
    } else if (url.pathname === '/basic') {
      if (req.headers.authorization === basic(RIGHT)) grant()
      else deny()
    } else if (url.pathname === '/me') {
      const session = /(?:^|;\s*)session=([^;]*)/.exec(req.headers.cookie ?? '')?.[1]
      if (session === undefined || !issued.has(session)) {
        res.writeHead(401, { 'content-type': 'application/json' })
        res.end('{"error":"no session"}')
      } else {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(`{"user":"${USER}"}`)
      }
    } else if (url.pathname === '/items') {
      // Answers any Bearer token: a rotating credential the recording must not depend on.
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"items":[1,2]}')
    } else {
      res.writeHead(404)
      res.end()
    }
  })
}

const post = (body: string, type = 'application/json') => ({
  method: 'POST',
  headers: { 'content-type': type },
  body,
})

/** The cookie a client keeps from an answer: `name=value` of its Set-Cookie. */
function cookieOf(answer: TestResponse): string {
  const header = answer.headers['set-cookie']
  const first = (Array.isArray(header) ? header[0] : header) ?? ''
  return first.split(';')[0] ?? ''
}

let dir: string
let target: Awaited<ReturnType<typeof listen>>

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cdp-replayed-login-'))
  target = await listen(loginBackend())
  const proxy = await serveProxy(
    { '/api': { target: target.url, record: true, replay: 'fallback' } },
    { log: 'silent', recordings: { dir } },
  )
  const call = (path: string, init = {}) => sendRequest(`${proxy.url}${path}`, init)
  expect((await call('/api/login', post(jsonLogin(WRONG)))).status).toBe(401)
  const login = await call('/api/login', post(jsonLogin(RIGHT)))
  expect(login.status).toBe(200)
  expect((await call('/api/me', { headers: { cookie: cookieOf(login) } })).status).toBe(200)
  const form = 'application/x-www-form-urlencoded'
  expect((await call('/api/login', post(formLogin(WRONG), form))).status).toBe(401)
  expect((await call('/api/login', post(formLogin(RIGHT), form))).status).toBe(200)
  expect((await call('/api/basic', { headers: { authorization: basic(WRONG) } })).status).toBe(401)
  expect((await call('/api/basic', { headers: { authorization: basic(RIGHT) } })).status).toBe(200)
  expect((await call('/api/items', { headers: { authorization: 'Bearer first-token' } })).status).toBe(200)
  // A recording is on disk when close() resolves; then the backend goes away.
  await proxy.close()
  await target.close()
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe("a replayed login, the backend stopped (replay: 'fallback')", () => {
  let proxy: Awaited<ReturnType<typeof serveProxy>>
  const call = (path: string, init = {}) => sendRequest(`${proxy.url}${path}`, init)
  beforeAll(async () => {
    // The backend stopped: port 2 refuses, where the recording backend's freed port could be taken again.
    proxy = await serveProxy(
      { '/api': { target: await refusedUrl(), replay: 'fallback' } },
      { log: 'silent', recordings: { dir } },
    )
  })
  afterAll(() => proxy.close())

  it('answers the right password 200 three times and the wrong one 401, in a JSON body', async () => {
    for (let time = 0; time < 3; time++) {
      const right = await call('/api/login', post(jsonLogin(RIGHT)))
      expect(right.status).toBe(200)
      expect(right.headers['x-cors-dev-proxy-replayed']).toBeDefined()
    }
    expect((await call('/api/login', post(jsonLogin(WRONG)))).status).toBe(401)
    expect((await call('/api/login', post(jsonLogin(WRONG)))).status).toBe(401)
    expect((await call('/api/login', post(jsonLogin(RIGHT)))).status).toBe(200)
    // A password never recorded gets no one else's answer.
    expect((await call('/api/login', post(jsonLogin(OTHER)))).status).toBe(504)
  })

  it('does the same for a form body and for Authorization: Basic', async () => {
    const form = 'application/x-www-form-urlencoded'
    for (let time = 0; time < 3; time++) {
      expect((await call('/api/login', post(formLogin(RIGHT), form))).status).toBe(200)
      expect((await call('/api/basic', { headers: { authorization: basic(RIGHT) } })).status).toBe(200)
    }
    expect((await call('/api/login', post(formLogin(WRONG), form))).status).toBe(401)
    expect((await call('/api/basic', { headers: { authorization: basic(WRONG) } })).status).toBe(401)
    expect((await call('/api/basic', { headers: { authorization: basic(OTHER) } })).status).toBe(504)
  })

  it('gives the JSON answer with its keys in the order the backend sent them', async () => {
    const right = await call('/api/login', post(jsonLogin(RIGHT)))
    expect(right.body.toString()).toBe(LOGIN_ANSWER)
  })

  it('hands out a usable session cookie, and the replayed session opens the next replayed call', async () => {
    const login = await call('/api/login', post(jsonLogin(RIGHT)))
    const setCookie = String(login.headers['set-cookie'])
    // A cookie-value as RFC 6265 §4.1.1 has it, not the mask, and not the recorded session.
    expect(setCookie).toMatch(/^session=[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]+; HttpOnly; Path=\/$/)
    expect(setCookie).not.toContain('[masked]')
    const value = cookieOf(login).slice('session='.length)
    expect(issued.has(value)).toBe(false)
    const me = await call('/api/me', { headers: { cookie: cookieOf(login) } })
    expect(me.status).toBe(200)
    expect(me.body.toString()).toBe(`{"user":"${USER}"}`)
    // Each replayed login opens a session of its own, as the backend's would.
    const again = await call('/api/login', post(jsonLogin(RIGHT)))
    expect(cookieOf(again)).not.toBe(cookieOf(login))
  })

  it('still finds a recording when only a rotating credential (a Bearer token) differs', async () => {
    const items = await call('/api/items', { headers: { authorization: 'Bearer another-token' } })
    expect(items.status).toBe(200)
    expect(items.body.toString()).toBe('{"items":[1,2]}')
  })
})

describe('the recordings folder', () => {
  /** Every file under `dir` with its name, as one text per file. */
  async function everyFile(): Promise<string[]> {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true })
    const texts: string[] = []
    for (const entry of entries) {
      const path = join(entry.parentPath, entry.name)
      texts.push(entry.isFile() ? `${path}\n${await readFile(path, 'utf8')}` : path)
    }
    return texts
  }

  const sha256 = (text: string, encoding: 'hex' | 'base64' | 'base64url') =>
    createHash('sha256').update(text).digest(encoding)
  const base64 = (text: string) => Buffer.from(text).toString('base64')

  it('holds neither password, nor its base64, nor its unsalted SHA-256, nor a session cookie', async () => {
    const secrets = [RIGHT, WRONG]
    const forbidden = [
      ...secrets,
      ...secrets.map(base64),
      ...secrets.map((password) => basic(password).slice('Basic '.length)),
      ...secrets.map((password) => base64(`${USER}:${password}`).replace(/=+$/, '')),
      ...secrets.flatMap((password) => [
        sha256(password, 'hex'),
        sha256(password, 'base64'),
        sha256(password, 'base64url'),
        sha256(`${USER}:${password}`, 'hex'),
        sha256(jsonLogin(password), 'hex'),
        sha256(formLogin(password), 'hex'),
      ]),
      ...[...issued],
    ]
    expect(issued.size).toBeGreaterThanOrEqual(3)
    const files = await everyFile()
    expect(files.some((text) => text.includes('"bySecret"'))).toBe(true)
    for (const text of files) {
      for (const secret of forbidden) {
        // Lower-case too: a hex digest is found whatever its case.
        expect(text.toLowerCase().includes(secret.toLowerCase()), `${secret} in ${text.split('\n')[0]}`).toBe(
          false,
        )
      }
    }
  })

  it('keeps a salted, slow verifier per password', async () => {
    const files = (await everyFile()).filter((text) => text.includes('"bySecret"'))
    const verifiers = files.flatMap((text) =>
      [...text.matchAll(/"verifier": "([^"]+)"/g)].map((match) => match[1]),
    )
    // Two passwords on two logins (JSON and form share a path but not a key) and on Basic.
    expect(verifiers).toHaveLength(6)
    for (const verifier of verifiers) expect(verifier).toMatch(/^scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/=]{24}\$/)
    expect(new Set(verifiers).size).toBe(6)
  })
})

describe('a recording file of the first format (version 1)', () => {
  it('still replays, and its login answers whatever the password, as it did', async () => {
    const old = await mkdtemp(join(tmpdir(), 'cdp-replayed-login-v1-'))
    try {
      await mkdir(join(old, 'api'))
      // As version 1 wrote them: sorted JSON keys, the password masked in the key, no verifier.
      const answer = (status: number, json: unknown) => ({
        status,
        headers: { 'content-type': 'application/json', 'set-cookie': 'session=[masked]; HttpOnly; Path=/' },
        body: { json },
        recordedAt: '2026-11-27T10:00:00.000Z',
      })
      await writeFile(
        join(old, 'api', 'GET-users.56f617b20b2377e0.json'),
        `${JSON.stringify({ version: 1, request: { method: 'GET', path: '/users?page=1' }, answers: [answer(200, { users: [{ id: 1, name: 'Ada' }] })] }, null, 2)}\n`,
      )
      const loginKey = 'json {"password":"[masked]","user":"ada"}'
      const hash = createHash('sha256').update(`POST\n/login\n\n${loginKey}`).digest('hex').slice(0, 16)
      await writeFile(
        join(old, 'api', `POST-login.${hash}.json`),
        JSON.stringify({
          version: 1,
          request: { method: 'POST', path: '/login', body: loginKey },
          answers: [answer(200, { id: 7, user: 'ada' })],
        }),
      )
      const proxy = await serveProxy(
        { '/api': { target: target.url, replay: 'only' } },
        { log: 'silent', recordings: { dir: old } },
      )
      try {
        const users = await sendRequest(`${proxy.url}/api/users?page=1`)
        expect(users.status).toBe(200)
        expect(JSON.parse(users.body.toString())).toEqual({ users: [{ id: 1, name: 'Ada' }] })
        const login = await sendRequest(`${proxy.url}/api/login`, post(jsonLogin(OTHER)))
        expect(login.status).toBe(200)
        expect(cookieOf(login)).toMatch(/^session=replayed-[0-9a-f]{32}$/)
      } finally {
        await proxy.close()
      }
    } finally {
      await rm(old, { recursive: true, force: true })
    }
  })
})
