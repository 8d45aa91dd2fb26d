import { generate } from 'selfsigned'

/** A self-signed certificate and key for `localhost`, `127.0.0.1` and `::1`. */
export interface TestCertificate {
  cert: string
  key: string
}

let cached: Promise<TestCertificate> | undefined

/** Generates (once per test file) a self-signed localhost certificate for TLS and HTTP/2 servers. */
export function localhostCertificate(): Promise<TestCertificate> {
  cached ??= generate([{ name: 'commonName', value: 'localhost' }], {
    notAfterDate: new Date(Date.now() + 2 * 86_400_000),
    keySize: 2048,
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  }).then((pems) => ({ cert: pems.cert, key: pems.private }))
  return cached
}
