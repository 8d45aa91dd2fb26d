import { defineConfig } from 'vitepress'

// The options page (reference/options.md) is generated from the core's option interfaces and
// committed, so it reads on GitHub too; test/docs/options-page.test.ts fails when it is stale
// (`pnpm vitest run test/docs/options-page.test.ts -u` rewrites it).

const guide = [
  {
    text: 'Introduction',
    items: [
      { text: 'What it is', link: '/guide/what-is-it' },
      { text: 'Getting started', link: '/guide/getting-started' },
      { text: 'Supported versions', link: '/guide/versions' },
    ],
  },
  {
    text: 'Dev servers',
    items: [
      { text: 'Vite', link: '/guide/vite' },
      { text: 'webpack-dev-server', link: '/guide/webpack' },
      { text: 'Rspack', link: '/guide/rspack' },
      { text: 'The CLI', link: '/guide/cli' },
      { text: 'Server-side code (SSR)', link: '/guide/ssr' },
    ],
  },
  {
    text: 'Frameworks',
    items: [
      { text: 'Overview', link: '/frameworks/' },
      { text: 'Nuxt', link: '/frameworks/nuxt' },
      { text: 'Next.js', link: '/frameworks/next' },
      { text: 'SvelteKit', link: '/frameworks/sveltekit' },
      { text: 'Astro', link: '/frameworks/astro' },
      { text: 'React Router', link: '/frameworks/react-router' },
      { text: 'Vite middleware mode', link: '/frameworks/vite-middleware-mode' },
      { text: 'Angular', link: '/frameworks/angular' },
      { text: 'Rsbuild', link: '/frameworks/rsbuild' },
      { text: 'Storybook', link: '/frameworks/storybook' },
      { text: 'Bun, Deno and Hono', link: '/frameworks/fetch-handler' },
    ],
  },
  {
    text: 'How it works',
    items: [
      { text: 'Routes', link: '/guide/routes' },
      { text: 'Hooks', link: '/guide/hooks' },
      { text: 'Errors', link: '/guide/errors' },
      { text: 'CORS', link: '/guide/cors' },
      { text: 'The browser model', link: '/guide/browser-model' },
      { text: 'JSONP', link: '/guide/jsonp' },
      { text: 'Mock backend', link: '/guide/mock-backend' },
      { text: 'Backend control', link: '/guide/backend-control' },
      { text: 'Record and replay', link: '/guide/record-replay' },
      { text: 'Playwright', link: '/guide/playwright' },
      { text: 'From dev to CI', link: '/guide/dev-to-ci' },
      { text: 'Mocks beside real routes', link: '/guide/mocks' },
      { text: 'Check against your OpenAPI document', link: '/guide/openapi' },
      { text: 'nginx and Caddy exports', link: '/guide/exports' },
      { text: 'Security and reliability', link: '/guide/security' },
    ],
  },
  {
    text: 'In the browser',
    items: [
      { text: 'Overlay and inspector', link: '/guide/overlay-and-inspector' },
      { text: 'For coding agents (MCP)', link: '/guide/mcp' },
      { text: 'HTTP/3', link: '/guide/http3' },
      { text: 'The protocol lab', link: '/guide/protocol-lab' },
    ],
  },
  {
    text: 'More',
    items: [
      { text: 'Recipes', link: '/recipes' },
      { text: 'Migrating', link: '/migrating' },
      { text: 'Troubleshooting', link: '/troubleshooting' },
      { text: 'Benchmark', link: '/benchmark' },
      { text: 'The playground', link: '/guide/playground' },
      { text: 'Working on cors-dev-proxy', link: '/guide/contributing' },
    ],
  },
]

const reference = [
  {
    text: 'Reference',
    items: [
      { text: 'Options', link: '/reference/options' },
      { text: 'Core API', link: '/reference/api' },
    ],
  },
]

/** The docs site: guide, frameworks, options reference and API, recipes, troubleshooting. */
export default defineConfig({
  title: 'cors-dev-proxy',
  description:
    'Cross-origin calls that just work while a web app is being developed, and are explained when they don’t.',
  lang: 'en-US',
  cleanUrls: true,
  lastUpdated: false,
  // A link to a page that does not exist fails the build (VitePress's own check); anchors are
  // checked after the build by scripts/check-links.mjs, which VitePress does not do.
  ignoreDeadLinks: false,
  srcExclude: ['scripts/**', 'README.md'],
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/what-is-it' },
      { text: 'Frameworks', link: '/frameworks/' },
      { text: 'Options', link: '/reference/options' },
      { text: 'Recipes', link: '/recipes' },
      { text: 'Troubleshooting', link: '/troubleshooting' },
    ],
    sidebar: {
      '/reference/': [...reference, ...guide],
      '/': [...guide, ...reference],
    },
    outline: { level: [2, 3] },
    search: { provider: 'local' },
  },
})
