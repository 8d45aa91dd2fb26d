/** ANSI colour escapes, to strip from what the CLI prints. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour escapes are what is stripped here.
export const ANSI = /\u001b\[[0-9;]*m/g

/** What a server printed so far, and waiting for a text in it until the server ends. */
export interface OutputWatch {
  output(): string
  /** Adds printed text (colours stripped) and wakes the waiters. */
  add(text: string): void
  /** Wakes the waiters once the server ended, so that they fail at once. */
  ended(): void
  waitFor(text: string | RegExp, timeout?: number): Promise<void>
}

/** Watches a server's output; `exit()` says how it ended, or `undefined` while it runs. */
export function watchOutput(args: readonly string[], exit: () => string | undefined): OutputWatch {
  let output = ''
  const waiters = new Set<() => void>()
  const wake = () => {
    for (const waiter of waiters) waiter()
  }
  function waitFor(text: string | RegExp, timeout = 10_000): Promise<void> {
    const found = () => (typeof text === 'string' ? output.includes(text) : text.test(output))
    return new Promise((resolve, reject) => {
      const check = () => {
        const ended = exit()
        if (found()) done(resolve)
        else if (ended !== undefined) {
          done(() =>
            reject(
              new Error(
                `cors-dev-proxy ${args.join(' ')} exited (${ended}) before printing ${text}:\n${output}`,
              ),
            ),
          )
        }
      }
      const timer = setTimeout(
        () => done(() => reject(new Error(`no ${text} within ${timeout} ms:\n${output}`))),
        timeout,
      )
      const done = (settle: () => void) => {
        clearTimeout(timer)
        waiters.delete(check)
        settle()
      }
      waiters.add(check)
      check()
    })
  }
  return {
    output: () => output,
    add(text) {
      output += text.replace(ANSI, '')
      wake()
    },
    ended: wake,
    waitFor,
  }
}

/** Waits for the URL a server prints once it listens, and reads it. */
export async function printedUrl(
  watch: OutputWatch,
  timeout = 15_000,
): Promise<{ url: string; origin: string }> {
  await watch.waitFor(/Local: +\S+|Network: +https?:\S+/, timeout)
  const url = /(?:Local|Network): +(https?:\/\/\S+)/.exec(watch.output())?.[1] as string
  return { url, origin: url.replace(/\/$/, '') }
}
