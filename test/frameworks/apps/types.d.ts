/** What each app's `app.mjs` tells run-frameworks.mjs. */
export interface FrameworkApp {
  /** The result line's name: 'Nuxt', 'SvelteKit', ... */
  name: string
  /**
   * The command its users run, with the app's folder as cwd: the first word is a binary of
   * the install's node_modules/.bin, or 'node' (Node 24); `{port}` is replaced by a free port.
   */
  command: string[]
  /**
   * The page the checks drive, when it is not '/' (Storybook: the story's iframe, not the
   * manager page that frames it).
   * @default '/'
   */
  pagePath?: string
  /**
   * A file of the app whose text holds HMR-MARK-1, shown in the page's text. None: the app
   * has no HMR (a server without a bundler), and the HMR check is printed as not applicable.
   */
  hmrFile?: string
  /**
   * `false` when the app serves no overlay client and no inspector (a Fetch handler on Bun,
   * Deno or Hono): the overlay check is printed as not applicable.
   * @default true
   */
  overlay?: false
  /**
   * `false` when the app's proxy is handed no WebSocket upgrade (Next's `proxy.ts`): the
   * WebSocket check is printed as not applicable.
   * @default true
   */
  websocket?: false
  /**
   * `true` in one app of each front end (the Vite plugin, webpack, Angular, Next's custom server,
   * Next's `proxy.ts`, the Fetch handler): it runs the 40 s answer, beside its other checks.
   * Elsewhere that check is printed as not applicable.
   */
  slowAnswer?: true
  /** A server-rendered page whose HTML holds SSR-OK and what serverFetch('/api/ssr-probe') returned. */
  ssrPath?: string
  /** A server-rendered page whose server-side code calls fetch('/api/missed'), which misses the proxy. */
  missedPath?: string
  /**
   * The framework's own way to make that call, which the hint names beside serverFetch, and
   * which the page at `missedPath` uses next (it shows `ALT-OK missed` and the echoed path).
   * None: the hint names serverFetch only.
   */
  missedAlternative?: string
  /**
   * The dependency set it runs on, a folder of test/frameworks/sets/ with its package.json and
   * lockfile (an older major: 'previous'). None: the suite's own, test/frameworks/package.json.
   */
  set?: string
  /**
   * The folder of apps/ whose files it runs, with its own files over them: a variant (an older
   * major) holds only its app.mjs and the files that differ.
   */
  base?: string
  /** Checks of the app's own, run after the shared ones, in the shape of lib/checks.mjs's (Next: checks.mjs). */
  checks?: Array<{ name: string; run(ctx: unknown): Promise<string | undefined> }>
}
