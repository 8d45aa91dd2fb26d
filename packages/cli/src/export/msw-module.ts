import type { ExportedReplayData } from '@cors-dev-proxy/core/adapter'

/*
 * The TypeScript module `cors-dev-proxy export-msw` writes: a route's recordings and mocks
 * inlined as data, and MSW v2 handlers answering from them through the core's in-memory replay
 * (`@cors-dev-proxy/core/replay-session`, no Node import), so the same module runs under
 * msw/node in Vitest and in the browser with msw-storybook-addon (msw 2.11 or later: its handler
 * takes a predicate function). Nothing in it depends on the
 * time or the machine: the same files give the same bytes.
 */

/** Where the module's comments say it came from: paths relative to the working directory. */
export interface MswModuleSource {
  readonly prefix: string
  readonly recordings: string
  readonly mocks: string | undefined
}

/** The core's in-memory replay, which the module imports (the CLI itself does not). */
const RUNTIME = '@cors-dev-proxy/core/replay-session'

const quoted = (specifier: string) => `'${specifier}'`

function comment(lines: readonly string[]): string[] {
  return lines.map((line) => (line === '' ? '//' : `// ${line.replace(/\r?\n/g, ' ')}`))
}

/**
 * The module's text for `exported` (from `exportReplayData`).
 *
 * @example
 * await writeFile(out, mswModule(exported, { prefix: '/api', recordings: 'cors-dev-proxy/recordings/api', mocks: undefined }))
 */
export function mswModule(exported: ExportedReplayData, source: MswModuleSource): string {
  const { data, notes } = exported
  const from = [
    `${source.recordings} (${data.recordings.length} recording ${data.recordings.length === 1 ? 'file' : 'files'})`,
    ...(source.mocks === undefined ? [] : [`${source.mocks} and the config's mocks (${data.mocks.length})`]),
  ]
  const header = comment([
    `Written by \`cors-dev-proxy export-msw --route ${source.prefix}\` from ${from.join(', ')}.`,
    'Do not edit: record again, then run the command again. Secrets stay masked as in the files.',
    '',
    `The handlers answer requests under ${source.prefix} (any origin) as the proxy's replay: 'only' does:`,
    'a mock first, else the recorded answer the recorded session calls for (after a replayed',
    'POST/PUT/PATCH/DELETE, reads give what was recorded after it). A request nothing matches is',
    "left to MSW: its onUnhandledRequest option ('warn' by default, 'error' to fail the test) decides.",
    ...(notes.length === 0 ? [] : ['', 'Left out:', ...notes.map((note) => `- ${note}`)]),
  ])
  return `${[
    ...header,
    `import { createReplaySession, type ReplayData, type ReplayOptions, type ReplaySession } from ${quoted(RUNTIME)}`,
    `import { http, type RequestHandler } from ${quoted('msw')}`,
    '',
    // A prefix is a path, where `*/` is legal: it must not close the comment early.
    `/** The recordings and mocks of route '${source.prefix.replaceAll('*/', '*\\/')}', as the files hold them. */`,
    `export const replayData: ReplayData = ${JSON.stringify(data, null, 2)}`,
    '',
    '/** Handlers over one replay session: its state is theirs. */',
    'function handlersOf(session: ReplaySession): RequestHandler[] {',
    "  // Answered in the handler's predicate, so a request nothing matches is one MSW calls unhandled",
    '  // (onUnhandledRequest); a resolver that returned nothing would let it on to the network unannounced.',
    '  const answers = new WeakMap<Request, Response>()',
    '  const answered = async ({ request }: { request: Request }): Promise<boolean> => {',
    '    const answer = await session.answer(request)',
    '    if (answer !== undefined) answers.set(request, answer)',
    '    return answer !== undefined',
    '  }',
    '  return [http.all(answered, ({ request }) => answers.get(request))]',
    '}',
    '',
    'const session = createReplaySession(replayData)',
    '',
    '/** The handlers, one session for the whole test file: `setupServer(...handlers)`, `setupWorker(...handlers)`. */',
    'export const handlers: RequestHandler[] = handlersOf(session)',
    '',
    '/** Starts the session of `handlers` over, as a restart of the proxy does (call it in `beforeEach`). */',
    'export function resetReplay(): void {',
    '  session.reset()',
    '}',
    '',
    "/** Handlers over a session of their own; `match`: the route's match function, when its config has one. */",
    'export function createHandlers(options: ReplayOptions = {}): RequestHandler[] {',
    '  return handlersOf(createReplaySession(replayData, options))',
    '}',
  ].join('\n')}\n`
}
