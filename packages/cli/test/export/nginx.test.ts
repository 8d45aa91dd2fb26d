import { type CorsDevProxyConfig, CorsDevProxyError } from '@cors-dev-proxy/core'
import { resolveOptions } from '@cors-dev-proxy/core/adapter'
import { describe, expect, it } from 'vitest'
import { validateNginx } from '../../../../test/support/reverse-proxy.js'
import { renderNginx } from '../../src/export/nginx.js'
import { DEV_ONLY_NOTES, EXPORT_CONFIGS, expectNeedsAttention } from './export-configs.js'

function render(config: CorsDevProxyConfig, listen = '127.0.0.1:8080', serverName?: string): string {
  return renderNginx(resolveOptions(config), { listen, serverName })
}

/** The lines of the `location` block that `header` (its comment line) opens. */
function locationOf(output: string, label: string): string {
  const start = output.indexOf(`# ${label} → `)
  expect(start, `no location for ${label}`).toBeGreaterThan(-1)
  return output.slice(start, output.indexOf('\n    }\n', start))
}

describe('renderNginx', () => {
  it.each(Object.entries(EXPORT_CONFIGS))('nginx -t accepts the export of %s', async (_name, config) => {
    const output = render(config)
    const result = await validateNginx(output)
    expect(result.ok, `${result.output}\n${output}`).toBe(true)
  })

  it.each([
    ['8080', undefined, ['listen 8080;'], ['server_name']],
    ['[::1]:8080', 'a.test, b.test', ['listen [::1]:8080;', 'server_name a.test b.test;'], []],
  ])('listens on %s with server names %s', async (listen, serverName, present, absent) => {
    const output = render(EXPORT_CONFIGS['one route']!, listen, serverName)
    for (const line of present) expect(output).toContain(line)
    for (const line of absent) expect(output).not.toContain(line)
    expect((await validateNginx(output)).ok).toBe(true)
  })

  it('refuses a bad listen address or server name, naming the flag', () => {
    expect(() => render(EXPORT_CONFIGS['one route']!, 'localhost')).toThrow(CorsDevProxyError)
    expect(() => render(EXPORT_CONFIGS['one route']!, '8080', 'a;b')).toThrow(/--server-name/)
  })

  it('writes one keep-alive upstream per target and a segment-safe location per route, longest first', () => {
    const output = render({
      routes: {
        '/api': 'http://127.0.0.1:3000',
        '/api/v2': 'http://127.0.0.1:3000/v2',
        '/other': 'http://127.0.0.1:4000',
      },
    })
    expect(
      output.match(/upstream cdp_127_0_0_1_3000 \{\n {4}server 127\.0\.0\.1:3000;\n {4}keepalive 16;\n\}/g),
    ).toHaveLength(1)
    expect(output).toContain('upstream cdp_127_0_0_1_4000 {')
    const order = ['"^/api/v2(?:/|$)"', '"^/other(?:/|$)"', '"^/api(?:/|$)"'].map((pattern) =>
      output.indexOf(`location ~ ${pattern}`),
    )
    expect(order.every((at, index) => at > -1 && (index === 0 || at > (order[index - 1] ?? 0)))).toBe(true)
    const api = locationOf(output, "routes['/api']")
    expect(api).toContain('rewrite "^/api/*(.*)$" "/$1" break;')
    expect(api).toContain('proxy_pass http://cdp_127_0_0_1_3000;')
    expect(api).toContain('proxy_set_header Connection "";')
    expect(api).toContain('proxy_http_version 1.1;')
    // No `timeout`: the dev proxy has no deadline on the answer; nginx's longest wait, not its 60 s.
    for (const line of ['proxy_connect_timeout 10s;', 'proxy_send_timeout 1d;', 'proxy_read_timeout 1d;'])
      expect(api).toContain(line)
    expect(locationOf(output, "routes['/api/v2']")).toContain('rewrite "^/api/v2/*(.*)$" "/v2/$1" break;')
  })

  it('carries every forwarding option', () => {
    const output = render(EXPORT_CONFIGS['every forwarding option']!)
    const api = locationOf(output, "routes['/api']")
    for (const line of [
      'proxy_set_header Host $http_host;',
      'proxy_set_header Upgrade $http_upgrade;',
      'proxy_set_header Connection $cdp_connection_upgrade;',
      'proxy_set_header Origin $cdp_ws_origin_r2;',
      `proxy_set_header x-token "a\${cdp_dollar}b{c}\\"d\\\\";`,
      'proxy_connect_timeout 1501ms;',
      'proxy_read_timeout 1501ms;',
      'proxy_buffering off;',
      'proxy_cookie_domain "~.+" "example.test";',
      'proxy_cookie_path "~(?-i)^/$" "/api/";',
      'proxy_cookie_path "~.*" "";',
    ]) {
      expect(api).toContain(line)
    }
    expect(api).not.toContain('X-Forwarded')
    expect(api).not.toContain('X-Real-IP')
    expect(output).toContain('geo $cdp_dollar {')
    const fixed = locationOf(output, "routes['/fixed-host']")
    expect(fixed).toContain('proxy_set_header host "fixed.example";')
    expect(fixed).not.toContain('proxy_set_header Host')
    expect(fixed).toContain('proxy_redirect off;')
  })

  it('verifies https targets unless secure is false', () => {
    const output = render(EXPORT_CONFIGS['https targets']!)
    const insecure = locationOf(output, "routes['/insecure']")
    expect(insecure).toContain('proxy_ssl_verify off;')
    // Its own upstream: kept-alive connections that were never verified must not serve /verified.
    expect(insecure).toContain('proxy_pass https://cdp_https_insecure_localhost_8443;')
    const verified = locationOf(output, "routes['/verified']")
    expect(verified).toContain('proxy_pass https://cdp_https_localhost_8443;')
    expect(verified).toContain('proxy_ssl_name "localhost";')
    expect(verified).toContain('proxy_ssl_verify on;')
    expect(verified).toContain('proxy_ssl_trusted_certificate /etc/ssl/certs/ca-certificates.crt;')
  })

  it('answers preflights and adds the CORS headers per policy', () => {
    const output = render(EXPORT_CONFIGS['CORS policies']!)
    const any = locationOf(output, "routes['/any']")
    expect(any).toContain('add_header Access-Control-Allow-Origin "*" always;')
    expect(any).not.toContain('add_header Vary "Origin"')
    const reflect = locationOf(output, "routes['/reflect']")
    expect(reflect).toContain('add_header Access-Control-Allow-Origin $http_origin always;')
    expect(reflect).not.toContain('if ($cdp_preflight)')
    expect(reflect).not.toContain('ws_forbidden')
    const listed = locationOf(output, "routes['/listed']")
    expect(listed).toContain('return 200 "";')
    expect(listed).not.toContain('add_header Access-Control-Allow-Headers')
    expect(output).toContain('"~^(?:http://a\\\\.test|null)$|(?i:\\\\.b\\\\.test$)" $http_origin;')
    expect(locationOf(output, "routes['/default']")).toContain('if ($cdp_r')
    // PCRE has lookahead: nothing to say about /lookahead.
    expect(output).not.toContain('Needs attention')
  })

  it('forwards a backend-controlled route to the target in use, naming each dev-time option it leaves out', () => {
    const output = render(EXPORT_CONFIGS['backend control and recordings']!)
    expectNeedsAttention(output, DEV_ONLY_NOTES)
    expect(output).toContain('127.0.0.1:3000')
    expect(output).not.toContain('127.0.0.1:4000')
  })

  it('names what it cannot export, route by route', () => {
    const output = render(EXPORT_CONFIGS['what cannot be exported']!)
    expectNeedsAttention(output, [
      "routes['/router'].router picks a target per request",
      "routes['/filter'].pathFilter: not exported",
      "routes['/hooks'].on.proxyReq run in Node",
      "routes['/hooks'].jsonp: not exported",
      "routes['/function'].pathRewrite is a function",
      "routes['/map'].pathRewrite is a RegExp map",
      "routes['/origin-function'].cors.origin is a function",
      "routes['/mock'] answers from the built-in mock backend",
    ])
    expect(locationOf(output, "routes['/origin-function']")).not.toContain('add_header')
    expect(locationOf(output, "routes['/cookies']")).toContain(
      'proxy_cookie_domain "~(?-i)^old\\\\.example$" "new.example";',
    )
  })
})
