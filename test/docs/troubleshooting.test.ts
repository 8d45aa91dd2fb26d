import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import {
  type CorsErrorKind,
  type CorsInitiator,
  chromiumCorsMessage,
} from '../../packages/core/src/browser/chromium-messages.js'
import { predictLocalNetworkAccess } from '../../packages/core/src/browser/local-network-access.js'
import {
  describeRequirement,
  findLogSites,
  type LogSite,
  literalTexts,
  MIN_TEXT_LENGTH,
  normalise,
  pageShows,
  type Requirement,
  returnedTexts,
  texts,
  unionMembers,
} from './log-sites.js'

// The troubleshooting page promises "every line we log": these tests read the sources and fail
// when a logged line, a failure cause or a browser message is missing from the page.

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PAGE = readFileSync(new URL('../../docs/troubleshooting.md', import.meta.url), 'utf8')

/**
 * Calls that log a line written elsewhere, or only values: nothing of their own to look for.
 * Matched by file and by a piece of the call as written; each must still match a call (see below).
 */
const EXCLUSIONS: ReadonlyArray<{ files: readonly string[]; call: string; reason: string }> = [
  {
    files: [
      'core/src/log/logger.ts',
      'core/src/config/defaults.ts',
      'vite/src/vite-log-sink.ts',
      'webpack/src/dev-server-log-sink.ts',
      'rsbuild/src/rsbuild-log-sink.ts',
      'nuxt/src/nuxt-log-sink.ts',
      'cli/src/serve/start-serve.ts',
    ],
    call: '',
    reason: "log sinks: they pass on the lines of every other call to the console or the dev server's logger",
  },
  {
    files: ['nuxt/src/runtime/missed-fetch-plugin.ts'],
    call: 'console.warn(line)',
    reason: 'passes on the line of missed-fetch-hint.ts',
  },
  {
    files: ['core/src/proxy/create-cors-dev-proxy.ts'],
    call: 'logger.warn(warning)',
    reason: 'passes on the resolution warnings, found at their warn() calls',
  },
  {
    files: ['core/src/forward/create-forwarder.ts'],
    call: 'proxyReq body`, () => message)',
    reason: "passes on hooked-body.ts's warn() lines",
  },
  {
    files: ['core/src/forward/forward-failures.ts'],
    call: 'prefix} internal`',
    reason: 'the same shape, for an internal failure (#step-error)',
  },
  {
    files: ['cli/src/cli.ts'],
    call: 'io.err(',
    reason:
      'prints thrown errors: configuration and usage errors, and the CLI errors found as new Error() calls',
  },
  {
    files: ['core/src/fetch/fetch-response.ts'],
    call: 'controller?.error(reason)',
    reason: "fails the Fetch handler's response body (a stream controller's error()), not a log line",
  },
  {
    files: ['core/src/fetch/fetch-response.ts'],
    call: 'controller.error(reason)',
    reason: "fails the body of a Fetch response destroyed before its head (a stream controller's error())",
  },
  {
    files: ['cli/src/bin.ts'],
    call: 'console.error(error)',
    reason: 'a crash of the CLI itself: a bug, not a message',
  },
]

function matches(exclusion: (typeof EXCLUSIONS)[number], site: LogSite): boolean {
  return (
    exclusion.files.some((file) => site.where.startsWith(`packages/${file}:`)) &&
    site.call.includes(exclusion.call)
  )
}

function excluded(site: LogSite): boolean {
  return EXCLUSIONS.some((exclusion) => matches(exclusion, site))
}

const sites = findLogSites(ROOT)

/** The requirements a page lacks, as readable lines. */
function missing(requirements: readonly Requirement[]): string[] {
  return requirements.filter((requirement) => !pageShows(PAGE, requirement)).map(describeRequirement)
}

describe('docs/troubleshooting.md documents every line cors-dev-proxy logs', () => {
  test('the sources have logging calls to check (the scan works)', () => {
    expect(sites.length).toBeGreaterThan(80)
  })

  test('every exclusion still matches a call', () => {
    const stale = EXCLUSIONS.flatMap((exclusion) =>
      exclusion.files
        .filter((file) => !sites.some((site) => matches({ ...exclusion, files: [file] }, site)))
        .map((file) => `${file} ${exclusion.call}`),
    )
    expect(stale).toEqual([])
  })

  test('every logging call has text to look for, or an exclusion', () => {
    const silent = sites.filter((site) => site.requirements.length === 0 && !excluded(site))
    expect(silent.map((site) => `${site.where} ${site.call}`)).toEqual([])
  })

  test('the page quotes every logged line', () => {
    const undocumented = sites
      .filter((site) => !excluded(site))
      .flatMap((site) => missing(site.requirements).map((text) => `${site.where}: ${text}`))
    expect(undocumented).toEqual([])
  })

  test('the page names every cause of an upstream failure (502/504)', () => {
    const file = 'packages/core/src/forward/proxy-error.ts'
    const causes = [
      ...texts(ROOT, file, { call: 'failure', argument: 1 }),
      ...texts(ROOT, file, { property: 'cause' }),
    ]
    expect(causes.length).toBeGreaterThan(15)
    expect(missing(causes)).toEqual([])
  })
})

/** Chromium's prefix of a preflight answer's failure, which the page quotes once per kind at most. */
const PREFLIGHT_PREFIX = "Response to preflight request doesn't pass access control check: "

/**
 * Chromium's fixed words of a message: what follows `has been blocked by CORS policy: ` (and the
 * preflight prefix), rendered with a marker for the quoted value and split on it.
 */
function fixedParts(message: string, marker: string): string[] {
  const policy = 'has been blocked by CORS policy: '
  return message
    .slice(message.indexOf(policy) + policy.length)
    .replace(PREFLIGHT_PREFIX, '')
    .split(marker)
    .map(normalise)
    .filter((part) => part.length >= MIN_TEXT_LENGTH)
}

describe("docs/troubleshooting.md quotes the browser's messages", () => {
  const kinds = unionMembers(
    ROOT,
    'packages/core/src/browser/chromium-messages.ts',
    'CorsErrorKind',
  ) as CorsErrorKind[]
  const marker = 'VALUE_MARKER'
  const cases = kinds.flatMap((kind) =>
    (['fetch', 'XMLHttpRequest'] as CorsInitiator[]).flatMap((initiator) =>
      [false, true].map((preflight) => ({ kind, initiator, preflight })),
    ),
  )

  test.each(cases)(
    "Chromium's $kind message ($initiator, preflight $preflight)",
    ({ kind, initiator, preflight }) => {
      const message = chromiumCorsMessage({
        url: 'http://localhost:3000/api/items',
        origin: 'http://localhost:5173',
        error: { kind, preflight, hint: marker },
        initiator,
      })
      const parts = fixedParts(message, marker)
      expect(parts.length).toBeGreaterThan(0)
      if (preflight) parts.push(normalise(PREFLIGHT_PREFIX))
      expect(parts.filter((part) => !normalise(PAGE).includes(part))).toEqual([])
    },
  )

  test('every exception fetch and XMLHttpRequest throw before sending', () => {
    const file = 'packages/core/src/browser/request-constructor.ts'
    const thrown = [
      ...returnedTexts(ROOT, file, ['requestConstructorError', 'xhrError']),
      ...returnedTexts(ROOT, 'packages/core/src/browser/chromium-messages.ts', ['forbiddenMethodError']),
    ]
    expect(missing(thrown)).toEqual([])
  })

  test('every Local Network Access and mixed-content outcome', () => {
    const calls = [
      { origin: 'https://app.example.com', pageSpace: 'public', url: 'http://localhost:3000/' },
      { origin: 'http://app.example.com', pageSpace: 'public', url: 'http://localhost:3000/' },
      {
        origin: 'https://app.example.com',
        pageSpace: 'public',
        url: 'http://api.internal/',
        targetSpace: 'local',
      },
      { origin: 'http://localhost:5173', url: 'http://localhost:3000/', targetAddressSpace: 'local' },
      { origin: 'http://localhost:5173', url: 'http://localhost:3000/', targetAddressSpace: 'lan' },
    ] as const
    const lines = calls.flatMap((call) => {
      const { message, scriptError } = predictLocalNetworkAccess(call)
      return [message, scriptError].filter((line) => line !== undefined)
    })
    // The values in them (origins, URLs, spaces) differ from the page's examples: look for the words between.
    const words = lines.flatMap((line) =>
      line
        .slice(line.includes(': ') ? line.indexOf('CORS policy: ') + 1 : 0)
        .split(/'[^']*'|`[^`]*`/)
        .map(normalise)
        .filter((part) => part.length >= MIN_TEXT_LENGTH),
    )
    expect(words.filter((part) => !normalise(PAGE).includes(part))).toEqual([])
  })

  test('every net::ERR_ code and console line the browser model gives', () => {
    const browser = 'packages/core/src/browser'
    const source = [
      'browser-model.ts',
      'fetch-call.ts',
      'answer-step.ts',
      'call-results.ts',
      'redirect-step.ts',
      'streaming-upload.ts',
    ]
      .map((name) => readFileSync(`${ROOT}/${browser}/${name}`, 'utf8'))
      .join('\n')
    const codes = [...new Set(source.match(/net::ERR_[A-Z_]+/g))]
    expect(codes.length).toBeGreaterThan(5)
    // Chromium's own lines for a mode the request cannot have, and the model's unreachable-server line.
    const lines = ['fetch-call.ts', 'call-results.ts'].flatMap((name) =>
      literalTexts(ROOT, `${browser}/${name}`, /cannot load|Unsafe attempt|could not be reached/),
    )
    expect(lines.length).toBeGreaterThan(0)
    expect([
      ...codes.filter((code) => !PAGE.includes(`${code} `) && !PAGE.includes(`${code}\n`)),
      ...missing(lines),
    ]).toEqual([])
  })
})
