// The key and certificate of the Vite contenders with `server.https`, made on this machine for
// the run and removed after it. (`cors-dev-proxy serve --https` makes and caches its own.)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generate } from 'selfsigned'

/** Writes `key.pem` and `cert.pem` for 127.0.0.1 and localhost into a temporary folder. */
export async function writeCertificate() {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    notAfterDate: new Date(Date.now() + 86_400_000),
    keySize: 2048,
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  })
  const dir = mkdtempSync(join(tmpdir(), 'cdp-bench-tls-'))
  writeFileSync(join(dir, 'key.pem'), pems.private)
  writeFileSync(join(dir, 'cert.pem'), pems.cert)
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}
