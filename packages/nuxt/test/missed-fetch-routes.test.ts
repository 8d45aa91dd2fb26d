import { existsSync } from 'node:fs'
import { resolveOptions } from '@cors-dev-proxy/core/adapter'
import { runWithNuxtContext } from '@nuxt/kit'
import type { Nuxt } from '@nuxt/schema'
import { describe, expect, it } from 'vitest'
import { addMissedFetchHint, missedFetchRoutes } from '../src/missed-fetch-routes.js'

describe('missedFetchRoutes', () => {
  it('gives each route its prefix and its target as the terminal shows it, longest prefix first', () => {
    const { routes } = resolveOptions({
      '/api': 'http://localhost:8080/',
      '/api/v2': 'https://api.example.com/v2/',
      '/fake': { mock: true },
    })
    expect(missedFetchRoutes(routes)).toEqual([
      { prefix: '/api/v2', target: 'https://api.example.com/v2/' },
      { prefix: '/fake', target: 'its mock backend' },
      { prefix: '/api', target: 'http://localhost:8080' },
    ])
  })
})

describe('addMissedFetchHint', () => {
  it("adds the plugin, a file of the package, and the routes' template as a module of plain data", async () => {
    const nuxt = { options: { nitro: {} as { plugins?: string[]; virtual?: Record<string, () => string> } } }
    runWithNuxtContext(nuxt as unknown as Nuxt, () =>
      addMissedFetchHint(resolveOptions({ '/api': 'http://localhost:8080' }).routes),
    )
    const [plugin] = nuxt.options.nitro.plugins ?? []
    // From the sources here (`.ts`); from dist in the package, which pack.test.ts checks is packed.
    expect(existsSync(`${plugin}.ts`)).toBe(true)
    const template = nuxt.options.nitro.virtual?.['#cors-dev-proxy/missed-fetch-routes']?.() ?? ''
    const { routes } = await import(`data:text/javascript,${encodeURIComponent(template)}`)
    expect(routes).toEqual([{ prefix: '/api', target: 'http://localhost:8080' }])
  })
})
