import { CorsDevProxyError, type CorsDevProxyOptions, type Routes } from '@cors-dev-proxy/core'
import { type Plugin, resolveConfig } from 'vite'
import { describe, expect, it } from 'vitest'
import { NESTED_MISTAKES } from '../../../test/support/nested-mistakes.js'
import { corsDevProxy } from '../src/cors-dev-proxy-plugin.js'

function thrown(action: () => unknown): CorsDevProxyError {
  try {
    action()
  } catch (error) {
    if (error instanceof CorsDevProxyError) return error
    throw error
  }
  throw new Error('expected a CorsDevProxyError')
}

describe('corsDevProxy (Vite plugin)', () => {
  it.each<
    [title: string, routes: Routes, options: CorsDevProxyOptions | undefined, code: string, option: string]
  >([
    ['a target without scheme', { '/api': 'localhost:3000' }, undefined, 'INVALID_TARGET', "routes['/api']"],
    [
      'a key that is not a path',
      { api: 'http://localhost:3000' },
      undefined,
      'INVALID_PREFIX',
      "routes['api']",
    ],
    [
      'an unknown option',
      { '/api': 'http://localhost:3000' },
      { lgo: 'debug' } as CorsDevProxyOptions,
      'UNKNOWN_OPTION',
      'lgo',
    ],
  ])('throws where the config is written for %s', (_title, routes, options, code, option) => {
    const error = thrown(() => corsDevProxy(routes, options))
    expect(error.code).toBe(code)
    expect(error.option).toContain(option)
  })

  it.each(NESTED_MISTAKES.map((mistake) => [mistake.title, mistake] as const))(
    'throws a nested mistake where the config is written: %s',
    (_title, mistake) => {
      const error = thrown(() => corsDevProxy(mistake.routes, mistake.options))
      expect(error.code).toBe(mistake.code)
      expect(error.option).toBe(mistake.option)
      expect(error.message).toContain(`Fix it like this: ${mistake.fix}`)
    },
  )

  it('has no transformIndexHtml by the time SvelteKit looks for it (SvelteKit warns about it), and keeps it elsewhere', async () => {
    /** What a framework's `configResolved` sees: SvelteKit's own check, word for word. */
    async function pluginsWithHook(framework: string, command: 'serve' | 'build'): Promise<string[]> {
      let seen: string[] = []
      const looking: Plugin = {
        name: framework,
        configResolved(config) {
          seen = config.plugins.filter((plugin) => plugin.transformIndexHtml).map((plugin) => plugin.name)
        },
      }
      await resolveConfig(
        {
          configFile: false,
          logLevel: 'silent',
          plugins: [looking, corsDevProxy({ '/api': 'http://localhost:3000' })],
        },
        command,
      )
      return seen
    }
    expect(await pluginsWithHook('vite-plugin-sveltekit-setup', 'serve')).toEqual([])
    expect(await pluginsWithHook('vite-plugin-sveltekit-setup', 'build')).toEqual([])
    expect(await pluginsWithHook('astro:build', 'serve')).toEqual(['cors-dev-proxy'])
    // Each call of corsDevProxy() is a plugin of its own: one under SvelteKit changes no other.
    const plugin = corsDevProxy({ '/api': 'http://localhost:3000' })
    await resolveConfig({ configFile: false, logLevel: 'silent', plugins: [plugin] }, 'serve')
    expect(plugin.transformIndexHtml).toBeDefined()
  })

  it('takes the one-object config of cors-dev-proxy.config.* too', () => {
    expect(corsDevProxy({ routes: { '/api': 'http://localhost:3000' }, log: 'silent' }).name).toBe(
      'cors-dev-proxy',
    )
    const error = thrown(() => corsDevProxy({ routes: { '/api': 'localhost:3000' } }))
    expect(error.code).toBe('INVALID_TARGET')
  })

  it('is a plugin for the dev server and for vite preview, and leaves the caller’s objects alone', () => {
    const routes = Object.freeze({ '/api': Object.freeze({ target: 'http://localhost:3000', ws: true }) })
    const options = Object.freeze({ log: 'warn' as const })
    const plugin = corsDevProxy(routes, options)
    expect(plugin.name).toBe('cors-dev-proxy')
    expect(typeof plugin.configureServer).toBe('function')
    expect(typeof plugin.configurePreviewServer).toBe('function')
    expect(options).toEqual({ log: 'warn' })
  })
})
