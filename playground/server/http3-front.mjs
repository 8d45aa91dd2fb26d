// `pnpm playground --http3`: the HTTPS dev server with Caddy in front (as `serve --http3` does),
// so the playground page itself can be opened over HTTP/3 in a Chromium started with the
// printed flags. Uses the built CLI's front (packages/cli/dist/serve).
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The secret the front proves itself with; the dev server's restore step reads it (vite.config.ts). */
export const FRONT_TOKEN_ENV = 'PLAYGROUND_FRONT_TOKEN'

/**
 * Starts Caddy on a free TCP+UDP port in front of the HTTPS dev server on `innerPort`, with the
 * certificate `https` (PEM strings). Resolves to `undefined`, having said why, without Caddy.
 * @param {{ innerPort: number, https: { cert: string, key: string } }} options
 */
export async function startHttp3Front({ innerPort, https }) {
  const { findProgram } = await import('../../packages/cli/dist/serve/find-program.js')
  const caddy = findProgram('caddy')
  if (caddy === undefined) {
    console.warn(
      '  --http3 needs Caddy on PATH (Debian/Ubuntu: sudo apt-get install caddy; macOS: brew install caddy): HTTP/3 is off.',
    )
    return undefined
  }
  const { startCaddyFront } = await import('../../packages/cli/dist/serve/caddy-front.js')
  const { freeTcpAndUdpPort, hasIpv6Loopback } = await import('../../packages/cli/dist/serve/free-port.js')
  const { spkiSha256 } = await import('../../packages/cli/dist/serve/certificate.js')
  const dir = mkdtempSync(join(tmpdir(), 'cdp-playground-h3-'))
  const certFile = join(dir, 'cert.pem')
  const keyFile = join(dir, 'key.pem')
  writeFileSync(certFile, https.cert)
  writeFileSync(keyFile, https.key, { mode: 0o600 })
  const token = process.env[FRONT_TOKEN_ENV] ?? randomBytes(24).toString('hex')
  const ipv6Loopback = await hasIpv6Loopback()
  const port = await freeTcpAndUdpPort('127.0.0.1', ipv6Loopback)
  const log = {
    debug() {},
    warn: (line) => console.warn(`  ${line}`),
    error: (line) => console.error(`  ${line}`),
  }
  try {
    const front = await startCaddyFront({
      caddy,
      port,
      host: '127.0.0.1',
      innerPort,
      certFile,
      keyFile,
      cacheDir: dir,
      log,
      token,
      ipv6Loopback,
    })
    const spki = spkiSha256(https.cert)
    return {
      url: `https://localhost:${port}/`,
      chromium: `chromium --enable-quic --origin-to-force-quic-on=localhost:${port} --ignore-certificate-errors-spki-list=${spki} --user-data-dir=$(mktemp -d) https://localhost:${port}/`,
      async close() {
        await front.stop()
        rmSync(dir, { recursive: true, force: true })
      },
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
}
