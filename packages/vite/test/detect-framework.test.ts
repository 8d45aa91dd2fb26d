import { describe, expect, it } from 'vitest'
import { frameworkOf, serverFetchAlternative } from '../src/detect-framework.js'

describe('frameworkOf', () => {
  it.each([
    [['vite:css', 'vite-plugin-svelte', 'vite-plugin-sveltekit-setup', 'cors-dev-proxy'], 'sveltekit'],
    [['astro:build', 'astro:scripts', 'cors-dev-proxy'], 'astro'],
    [['react-router', 'react-router:routes', 'cors-dev-proxy'], 'react-router'],
    [['react-router:validate-plugin-order'], 'react-router'],
    // Plain Vite, and look-alikes that are not those frameworks.
    [['vite:react-babel', 'cors-dev-proxy'], undefined],
    [['react-router-dom-shim', 'astronomy', 'vite-plugin-svelte'], undefined],
    [[], undefined],
  ])('%j → %s', (names, framework) => {
    expect(frameworkOf(names.map((name) => ({ name })))).toBe(framework)
  })
})

describe('serverFetchAlternative', () => {
  it("names each framework's own way, and none for plain Vite", () => {
    expect(serverFetchAlternative('sveltekit')?.('/api/items')).toBe("SvelteKit's event.fetch('/api/items')")
    expect(serverFetchAlternative('astro')?.('/api/items?q=1')).toBe(
      "fetch(new URL('/api/items?q=1', Astro.url))",
    )
    expect(serverFetchAlternative('react-router')?.('/api/items')).toBe(
      "fetch(new URL('/api/items', request.url)) in a loader",
    )
    expect(serverFetchAlternative(undefined)).toBeUndefined()
  })
})
