// The self-signed certificate of every local TLS server of the repository: the tests (tls.ts),
// the benchmark (bench/tls.mjs) and the playground. Made on the machine, never committed.
import { generate } from 'selfsigned'

/**
 * A self-signed certificate and key for `localhost`, `127.0.0.1` and `::1`, valid for `days`.
 * @param {number} days
 * @returns {Promise<{ cert: string, key: string }>}
 * @example
 * const { cert, key } = await selfSignedLocalhost(1)
 */
export async function selfSignedLocalhost(days) {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    notAfterDate: new Date(Date.now() + days * 86_400_000),
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
  })
  return { cert: pems.cert, key: pems.private }
}
