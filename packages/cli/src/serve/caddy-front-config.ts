import { FRONT_CLIENT_HEADER, FRONT_RESTORED_HEADERS, FRONT_TOKEN_HEADER } from './front-request.js'

/** What the HTTP/3 front's configuration is made of. */
export interface CaddyFrontConfig {
  /** The public port, for TCP (HTTP/1.1, HTTP/2) and UDP (HTTP/3) alike. */
  readonly port: number
  /** The address to bind, as `serve --host` gave it (`0.0.0.0` and `::` bind every address). */
  readonly host: string
  /** Our own HTTPS server on loopback, which every request is forwarded to. */
  readonly innerPort: number
  /** The PEM files of `serve --https`'s certificate (covering localhost, 127.0.0.1 and ::1). */
  readonly certFile: string
  readonly keyFile: string
  /** Caddy's storage folder (its local CA and locks), in our cache folder. */
  readonly storageDir: string
  /** The secret Caddy sends in `cdp-front`, made for this run (see front-request.ts). */
  readonly token: string
  /** Whether this machine has ::1 (containers often have IPv4 loopback only). */
  readonly ipv6Loopback: boolean
}

/**
 * Caddy's listener addresses for `host` and `port`; a wildcard host listens on every address.
 * A loopback host gets both loopbacks: the banner's URL names `localhost` (what the certificate
 * and Chromium's QUIC flags are written for), which Chromium resolves to ::1 first, and a QUIC
 * handshake, unlike TCP, is not retried on the other address.
 */
export function frontListenAddresses(host: string, port: number, withIpv6Loopback: boolean): string[] {
  const bare = host.replace(/^\[|\]$/g, '')
  if (bare === '' || bare === '0.0.0.0' || bare === '::') return [`:${port}`]
  if (bare === 'localhost' || bare === '127.0.0.1' || bare === '::1') {
    return withIpv6Loopback ? [`127.0.0.1:${port}`, `[::1]:${port}`] : [`127.0.0.1:${port}`]
  }
  return [bare.includes(':') ? `[${bare}]:${port}` : `${bare}:${port}`]
}

/**
 * The configuration (Caddy's native JSON) of `serve --http3`'s front: Caddy terminates TLS (our
 * certificate) and QUIC on `port`, announces `Alt-Svc: h3` on its TCP answers (Caddy does so for
 * every server with h3), and forwards every request to our server on loopback over TLS, so our
 * server sees an `https` request with the browser's `Host`, exactly as under `serve --https`.
 *
 * JSON rather than a Caddyfile, so that what Caddy runs is exactly what is written here (the
 * Caddyfile adapter turns `header -Server` into a deferred delete, which would drop the target's
 * `Server` too). The causes of Caddy's start-up warnings are removed, not hidden: no OCSP stapling
 * (a self-signed certificate names no responder), no trust store installation, storage in our
 * cache folder. Two lines remain that only confirm what is asked here, and the front leaves them
 * out of our log (caddy-front.ts): the admin endpoint is off, and so is the HTTP→HTTPS redirect
 * server automatic HTTPS would otherwise start on port 80 for a TLS site.
 *
 * @example
 * JSON.parse(caddyConfigForFront({ port: 8443, host: '127.0.0.1', innerPort: 40123, certFile, keyFile, storageDir, token }))
 */
export function caddyConfigForFront(config: CaddyFrontConfig): string {
  const set: Record<string, string[]> = {
    [FRONT_TOKEN_HEADER]: [config.token],
    [FRONT_CLIENT_HEADER]: ['{http.request.remote.host}'],
  }
  // Caddy replaces the client's X-Forwarded-* with its own (it trusts no client): the client's go
  // up under the same names, with the browser's address and the token, and our server puts them
  // back (front-request.ts).
  for (const name of FRONT_RESTORED_HEADERS) set[name] = [`{http.request.header.${name}}`]
  const json = {
    admin: { disabled: true },
    logging: {
      logs: { default: { writer: { output: 'stderr' }, encoder: { format: 'json' }, level: 'INFO' } },
    },
    storage: { module: 'file_system', root: config.storageDir },
    apps: {
      http: {
        grace_period: 2_000_000_000,
        servers: {
          front: {
            listen: frontListenAddresses(config.host, config.port, config.ipv6Loopback),
            // No HTTP→HTTPS redirect server (it would take port 80): the browser is given https URLs.
            automatic_https: { disable_redirects: true },
            protocols: ['h1', 'h2', 'h3'],
            tls_connection_policies: [{ certificate_selection: { any_tag: ['cors-dev-proxy'] } }],
            routes: [
              {
                handle: [
                  {
                    handler: 'headers',
                    response: {
                      // Not deferred: Caddy's own `Server: Caddy` goes before the target's is copied in.
                      delete: ['Server'],
                      // Caddy writes one h3 entry per listener (two for both loopbacks): one is the truth.
                      set: { 'Alt-Svc': [`h3=":${config.port}"; ma=2592000`] },
                    },
                  },
                  {
                    handler: 'reverse_proxy',
                    // Every chunk as it arrives: server-sent events one by one.
                    flush_interval: -1,
                    headers: { request: { set } },
                    transport: {
                      protocol: 'http',
                      // No Accept-Encoding of Caddy's own (Go adds gzip): our server sees the browser's.
                      compression: false,
                      // Our server presents the same self-signed certificate: trusted as its own root.
                      tls: { root_ca_pem_files: [config.certFile], server_name: 'localhost' },
                    },
                    upstreams: [{ dial: `127.0.0.1:${config.innerPort}` }],
                  },
                ],
              },
            ],
          },
        },
      },
      pki: { certificate_authorities: { local: { install_trust: false } } },
      tls: {
        certificates: {
          load_files: [{ certificate: config.certFile, key: config.keyFile, tags: ['cors-dev-proxy'] }],
        },
        disable_ocsp_stapling: true,
        automation: { policies: [{ disable_ocsp_stapling: true }] },
      },
    },
  }
  return `${JSON.stringify(json, null, 2)}\n`
}
