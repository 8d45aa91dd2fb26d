// The key and certificate of the Vite contenders with `server.https`, made on this machine for
// the run and removed after it. (`cors-dev-proxy serve --https` makes and caches its own.)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { selfSignedLocalhost } from '../test/support/self-signed.mjs'

/** Writes `key.pem` and `cert.pem` for 127.0.0.1 and localhost into a temporary folder. */
export async function writeCertificate() {
  const { cert, key } = await selfSignedLocalhost(1)
  const dir = mkdtempSync(join(tmpdir(), 'cdp-bench-tls-'))
  writeFileSync(join(dir, 'key.pem'), key)
  writeFileSync(join(dir, 'cert.pem'), cert)
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}
