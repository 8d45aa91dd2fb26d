import { readFileSync } from 'node:fs'
import { defineConfig } from '@cors-dev-proxy/core'
import { resolveOptions } from '@cors-dev-proxy/core/adapter'
import { describe, expect, it } from 'vitest'
import { validateCaddy, validateNginx } from '../../../../test/support/reverse-proxy.js'
import { renderCaddy } from '../../src/export/caddy.js'
import { renderNginx } from '../../src/export/nginx.js'

const page = readFileSync(new URL('../../../../docs/guide/exports.md', import.meta.url), 'utf8')
const section = page.slice(0, page.indexOf('## What still differs'))

/** The first fenced block of `language` on the docs' exports page (docs/guide/exports.md). */
function block(language: string): string {
  const match = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(section)
  if (!match?.[1]) throw new Error(`no \`\`\`${language} block on the docs' exports page`)
  return match[1]
}

// The configuration the page shows, as written there.
const ROUTES =
  "routes: { '/api': { target: 'http://localhost:3000', cors: { origin: 'http://localhost:5173', credentials: true } } },"
const config = defineConfig({
  routes: {
    '/api': { target: 'http://localhost:3000', cors: { origin: 'http://localhost:5173', credentials: true } },
  },
})
const options = { listen: '8080', serverName: undefined }

describe("the docs' exports page", () => {
  it('shows the configuration the examples come from', () => {
    expect(block('ts')).toContain(ROUTES)
  })

  it('shows what renderNginx prints for it, and nginx accepts it', async () => {
    const output = renderNginx(resolveOptions(config), options)
    expect(block('nginx')).toBe(output)
    expect((await validateNginx(output)).ok).toBe(true)
  })

  it('shows what renderCaddy prints for it, and Caddy accepts it', async () => {
    const output = renderCaddy(resolveOptions(config), options)
    expect(block('txt')).toBe(output)
    expect((await validateCaddy(output)).ok).toBe(true)
  })
})
