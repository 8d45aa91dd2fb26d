import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core'
import { CHROMIUM_ARGS, CHROMIUM_PATH, quicChromiumArgs } from './chromium-launch.mjs'

export { CHROMIUM_ARGS, CHROMIUM_PATH, quicChromiumArgs } from './chromium-launch.mjs'

/**
 * Launches headless Chromium; playwright gives every launch a fresh user-data-dir. `extraArgs`
 * come after {@link CHROMIUM_ARGS}, e.g. `--ip-address-space-overrides` for Local Network Access.
 */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    timeout: 60_000,
  })
}

/**
 * Launches headless Chromium able to speak HTTP/3 (see {@link quicChromiumArgs}), as
 * `executablePath` (a wrapper that runs it inside a lab namespace, for instance).
 */
export function launchQuicChromium(
  options: { readonly forceQuicOn: readonly string[]; readonly spki: string },
  executablePath: string = CHROMIUM_PATH,
): Promise<Browser> {
  return chromium.launch({ executablePath, args: quicChromiumArgs(options), timeout: 60_000 })
}

/** One console line of a page: `console.*` calls and the browser's own messages (CORS errors). */
export interface ConsoleEntry {
  /** `error`, `warning`, `log`... */
  readonly type: string
  readonly text: string
  /** Where it comes from: the resource's URL for a failed load ("Failed to load resource"), else the script's. */
  readonly url?: string
}

/** A page whose console lines are collected from the moment it was opened. */
export interface ConsolePage {
  readonly page: Page
  /** Every console line so far, in order. */
  readonly console: ConsoleEntry[]
  /**
   * Waits (at most `attempts` polls of 25 ms) for a console line that starts with `prefix`
   * and returns it, or `undefined`. The browser logs a CORS error asynchronously, after the
   * script already saw the failure, so a test must wait for it.
   */
  waitForConsole(prefix: string, attempts?: number): Promise<string | undefined>
  close(): Promise<void>
}

/**
 * Opens a page in a fresh context (with `contextOptions`, e.g. `permissions`), collecting its
 * console, and navigates to `url`.
 */
export async function openConsolePage(
  browser: Browser,
  url: string,
  contextOptions: BrowserContextOptions = {},
): Promise<ConsolePage> {
  const context = await browser.newContext(contextOptions)
  const page = await context.newPage()
  const entries: ConsoleEntry[] = []
  page.on('console', (message) =>
    entries.push({ type: message.type(), text: message.text(), url: message.location().url }),
  )
  await page.goto(url)
  return {
    page,
    console: entries,
    async waitForConsole(prefix, attempts = 200) {
      for (let i = 0; i < attempts; i++) {
        const found = entries.find((entry) => entry.text.startsWith(prefix))
        if (found) return found.text
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
      return undefined
    },
    close: () => context.close(),
  }
}
