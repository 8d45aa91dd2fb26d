import { type CorsDevProxyConfig, CorsDevProxyError } from '@cors-dev-proxy/core'
import { resolveOptions } from '@cors-dev-proxy/core/adapter'
import { describe, expect, it } from 'vitest'
import { validateCaddy } from '../../../../test/support/reverse-proxy.js'
import { renderCaddy } from '../../src/export/caddy.js'
import { DEV_ONLY_NOTES, EXPORT_CONFIGS, expectNeedsAttention } from './export-configs.js'

function render(config: CorsDevProxyConfig, listen = '127.0.0.1:8080', serverName?: string): string {
  return renderCaddy(resolveOptions(config), { listen, serverName })
}

/** The `handle` block of a route, from its comment line to its closing brace. */
function handleOf(output: string, label: string): string {
  const start = output.indexOf(`# ${label} → `)
  expect(start, `no handle block for ${label}`).toBeGreaterThan(-1)
  return output.slice(start, output.indexOf('\n\t}\n', start))
}

describe('renderCaddy', () => {
  it.each(Object.entries(EXPORT_CONFIGS))(
    'caddy validate accepts the export of %s, without a warning',
    async (_name, config) => {
      const output = render(config)
      const result = await validateCaddy(output)
      expect(result.ok, `${result.output}\n${output}`).toBe(true)
      // Caddy's own lint ("Unnecessary header_up X-Forwarded-…", "input is not formatted"…); the
      // test harness's global `auto_https off` brings the one warning that is not the export's.
      const warnings = result.output
        .split('\n')
        .filter(
          (line) =>
            line.includes('"level":"warn"') && !line.includes('automatic HTTPS is completely disabled'),
        )
      expect(warnings, output).toEqual([])
    },
  )

  it.each([
    ['8080', undefined, 'http://:8080 {', false],
    ['127.0.0.1:8080', undefined, 'http://:8080 {', '127.0.0.1'],
    ['[::1]:8080', 'a.test, b.test', 'http://a.test:8080, http://b.test:8080 {', '::1'],
  ])('listens on %s with server names %s', async (listen, serverName, address, bind) => {
    const output = render(EXPORT_CONFIGS['one route']!, listen, serverName)
    expect(output).toContain(`\n${address}\n`)
    if (bind) expect(output).toContain(`\tbind ${bind}\n`)
    else expect(output).not.toContain('bind')
    expect((await validateCaddy(output)).ok).toBe(true)
  })

  it('refuses a bad listen address or server name, naming the flag', () => {
    expect(() => render(EXPORT_CONFIGS['one route']!, '70000')).toThrow(CorsDevProxyError)
    expect(() => render(EXPORT_CONFIGS['one route']!, '8080', 'a{b')).toThrow(/--server-name/)
  })

  it('matches each prefix on segment boundaries, longest first, and strips it', () => {
    const output = render({
      routes: { '/api': 'http://127.0.0.1:3000', '/api/v2': 'http://127.0.0.1:3000/v2' },
    })
    expect(output.indexOf('@cdp_r1 path_regexp "^/api/v2(/|$)"')).toBeLessThan(
      output.indexOf('@cdp_r2 path_regexp "^/api(/|$)"'),
    )
    const api = handleOf(output, "routes['/api']")
    expect(api).toContain('uri path_regexp "^/api/*" "/"')
    expect(api).toContain('reverse_proxy http://127.0.0.1:3000 {')
    expect(api).toContain('flush_interval -1')
    // No `timeout`: no deadline on the answer (Caddy's default), the connection within 10 s.
    expect(api).toContain('dial_timeout 10s')
    expect(api).not.toContain('response_header_timeout')
    expect(api).toContain('request_header -Upgrade')
    expect(handleOf(output, "routes['/api/v2']")).toContain('uri path_regexp "^/api/v2/*" "/v2/"')
  })

  it('carries every forwarding option', () => {
    const output = render(EXPORT_CONFIGS['every forwarding option']!)
    const api = handleOf(output, "routes['/api']")
    for (const line of [
      'header_up x-token `a$b\\{c\\}"d\\`',
      'header_up -X-Forwarded-For',
      '@cdp_r2_ws_origin {',
      'request_header @cdp_r2_ws_origin Origin "http://localhost:3000"',
      'dial_timeout 1501ms',
      `header_down Set-Cookie "(;\\s*(?i:Domain)\\s*=)\\s*[^;\\s][^;]*" "\${1}example.test"`,
      `header_down Set-Cookie "(;\\s*(?i:Path)\\s*=)\\s*/\\s*(;|$)" "\${1}/api/\${2}"`,
    ]) {
      expect(api).toContain(line)
    }
    expect(api).not.toContain('header_up Host')
    expect(api).not.toContain('request_header -Upgrade')
    // A '*' fallback next to an exact value would rewrite what the exact rule wrote.
    expect(output).toContain("# Needs attention: routes['/api'].cookiePathRewrite['*'] next to exact values")
    const fixed = handleOf(output, "routes['/fixed-host']")
    expect(fixed).toContain('header_up host "fixed.example"')
    expect(fixed).not.toContain('header_up Host')
    expect(fixed).not.toContain('header_down Location')
  })

  it('verifies https targets unless secure is false', () => {
    const output = render(EXPORT_CONFIGS['https targets']!)
    expect(handleOf(output, "routes['/insecure']")).toContain('tls_insecure_skip_verify')
    const verified = handleOf(output, "routes['/verified']")
    expect(verified).toContain('reverse_proxy https://localhost:8443 {')
    expect(verified).toContain('tls_server_name "localhost"')
    expect(verified).not.toContain('tls_insecure_skip_verify')
    expect(handleOf(output, "routes['/ip']")).not.toContain('tls_server_name')
  })

  it('answers preflights and adds the CORS headers per policy', () => {
    const output = render(EXPORT_CONFIGS['CORS policies']!)
    const any = handleOf(output, "routes['/any']")
    expect(any).toContain('header Access-Control-Allow-Origin "*"')
    expect(any).not.toContain('+Vary "Origin"')
    expect(any).toContain('header_down -Access-Control-*')
    const reflect = handleOf(output, "routes['/reflect']")
    expect(reflect).toContain('@cdp_r3_allowed header_regexp Origin "."')
    expect(reflect).not.toContain('respond @cdp_r3_preflight')
    expect(reflect).not.toContain('ws_forbidden')
    const listed = handleOf(output, "routes['/listed']")
    expect(listed).toContain('respond @cdp_r4_preflight 200')
    expect(listed).toContain('header_regexp Origin "^(?:http://a\\.test|null)$|(?i:\\.b\\.test$)"')
    expect(handleOf(output, "routes['/default']")).toContain('respond @cdp_r2_ws_forbidden 403')
    // RE2 has no lookahead: the route is exported without CORS, and says so.
    expect(output).toContain("# Needs attention: routes['/lookahead'].cors: the origin pattern")
    expect(handleOf(output, "routes['/lookahead']")).not.toContain('Access-Control-Allow-Origin')
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
      "routes['/function'].pathRewrite is a function",
      "routes['/map'].pathRewrite is a RegExp map",
      "routes['/origin-function'].cors.origin is a function",
      "routes['/cookies'].cookieDomainRewrite['*'] next to exact values",
      "routes['/mock'] answers from the built-in mock backend",
    ])
    expect(handleOf(output, "routes['/origin-function']")).not.toContain('Access-Control')
  })
})
