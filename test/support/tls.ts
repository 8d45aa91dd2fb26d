import { selfSignedLocalhost } from './self-signed.mjs'

/** A self-signed certificate and key for `localhost`, `127.0.0.1` and `::1`. */
export interface TestCertificate {
  cert: string
  key: string
}

let cached: Promise<TestCertificate> | undefined

/** Generates (once per test file) a self-signed localhost certificate for TLS and HTTP/2 servers. */
export function localhostCertificate(): Promise<TestCertificate> {
  cached ??= selfSignedLocalhost(2)
  return cached
}
