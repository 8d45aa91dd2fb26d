import { X509Certificate } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { connect } from 'node:http2'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendRequest } from '../../../../test/support/servers.js'
import { type CliServer, startCliServer } from '../support/cli-process.js'

/**
 * `serve --https`: HTTP/2 over TLS with a certificate generated on this machine and cached in the
 * project's node_modules/.cache, spoken to by a real `node:http2` client that trusts exactly that
 * certificate.
 */

let project: string
let serve: CliServer
const certDir = () => join(project, 'node_modules', '.cache', 'cors-dev-proxy')

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'cdp-https-'))
  mkdirSync(join(project, 'node_modules'))
  serve = await startCliServer(['serve', '--port', '0', '--https', '--mock', '/api'], { cwd: project })
}, 30_000)

afterAll(async () => {
  await serve?.stop()
  rmSync(project, { recursive: true, force: true })
})

describe('serve --https', () => {
  it('prints an https URL and where the generated certificate is cached', () => {
    expect(serve.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/)
    expect(serve.output()).toContain('serve, HTTP/2 over TLS, HTTP/1.1 accepted')
    expect(serve.output()).toContain(
      'TLS:     self-signed certificate generated, cached in node_modules/.cache/cors-dev-proxy',
    )
  })

  it('caches a certificate for localhost, 127.0.0.1 and ::1, with a key only its owner reads', () => {
    const cert = new X509Certificate(readFileSync(join(certDir(), 'localhost-cert.pem')))
    expect(cert.subjectAltName).toContain('DNS:localhost')
    expect(cert.subjectAltName).toContain('IP Address:127.0.0.1')
    expect(statSync(join(certDir(), 'localhost-key.pem')).mode & 0o077).toBe(0)
  })

  it('speaks HTTP/2 (negotiated h2) to a node:http2 client that trusts that certificate', async () => {
    const ca = readFileSync(join(certDir(), 'localhost-cert.pem'), 'utf8')
    const session = connect(serve.origin, { ca })
    try {
      const stream = session.request({ ':path': '/api/items?cors=off' })
      const [headers, body] = await Promise.all([
        new Promise<Record<string, unknown>>((resolve, reject) => {
          stream.once('response', resolve)
          stream.once('error', reject)
        }),
        (async () => {
          let text = ''
          for await (const chunk of stream) text += chunk
          return text
        })(),
      ])
      expect(session.alpnProtocol).toBe('h2')
      expect(headers[':status']).toBe(200)
      expect(JSON.parse(body)).toMatchObject({ method: 'GET', path: '/items', protocol: 'h2' })
    } finally {
      session.close()
    }
  })

  it('answers 403 to an HTTP/2 request whose :authority is not allowed', async () => {
    const ca = readFileSync(join(certDir(), 'localhost-cert.pem'), 'utf8')
    const session = connect(serve.origin, { ca })
    try {
      const stream = session.request({ ':path': '/api/items', ':authority': 'evil.example' })
      const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
        stream.once('response', resolve)
        stream.once('error', reject)
      })
      stream.resume()
      expect(headers[':status']).toBe(403)
    } finally {
      session.close()
    }
  })

  it('still accepts HTTP/1.1 over TLS, host check included', async () => {
    const ok = await sendRequest(`${serve.origin}/api/items`)
    expect(ok.status).toBe(200)
    const evil = await sendRequest(`${serve.origin}/api/items`, { headers: { host: 'evil.example' } })
    expect(evil.status).toBe(403)
  })

  it('reuses the cached certificate on the next start', async () => {
    const before = readFileSync(join(certDir(), 'localhost-cert.pem'), 'utf8')
    const again = await startCliServer(['serve', '--port', '0', '--https', '--mock', '/api'], {
      cwd: project,
    })
    try {
      expect(again.output()).toContain('self-signed certificate reused')
      expect(readFileSync(join(certDir(), 'localhost-cert.pem'), 'utf8')).toBe(before)
    } finally {
      expect((await again.stop()).code).toBe(0)
    }
  })
})
