import { type AddressSpace, parseOrigin } from '@cors-dev-proxy/core'
import type { CommandSpec } from '../args/command-spec.js'
import { CONFIG_FLAG } from '../args/config-flags.js'
import { readMilliseconds } from '../args/flag-values.js'
import { formatHelp } from '../args/format-help.js'
import { invalidFlagValue, type ParsedFlags, parseFlags } from '../args/parse-flags.js'
import { UsageError } from '../args/usage-error.js'
import { bodyOfType } from '../check/body-type.js'
import { formatCheckReport } from '../check/format-report.js'
import { type CheckInput, runCheckCall } from '../check/run-check.js'
import type { CommandContext } from '../io.js'
import { OPENAPI_EXAMPLES, refuseMixedChecks, runOpenapiCheck } from './check-openapi.js'

/** `cors-dev-proxy check`: its flags, for the parser and `--help`. */
export const checkSpec: CommandSpec = Object.freeze<CommandSpec>({
  name: 'check',
  summary:
    "Sends the preflight and the request a browser would send, and prints the verdict in Chromium's words, with the fix; with --openapi, checks recorded exchanges against an OpenAPI document.",
  usage:
    'cors-dev-proxy check <url> --origin ORIGIN [flags]\n       cors-dev-proxy check --openapi DOCUMENT [--recordings DIR [--route PREFIX]] [--json]',
  positionals: [{ name: '<url>', description: 'the URL the page calls (http: or https:)' }],
  flags: {
    origin: {
      type: 'string',
      value: 'ORIGIN',
      description: "the page's origin (required), e.g. http://localhost:5173",
      example: 'http://127.0.0.1:3000/users --origin http://localhost:5173',
    },
    method: {
      type: 'string',
      value: 'METHOD',
      description: 'the method as the script writes it (patch stays lowercase, as in the browser)',
      default: 'GET',
      example: 'http://127.0.0.1:3000/items/1 --origin http://localhost:5173 --method PUT',
    },
    header: {
      type: 'string',
      multiple: true,
      value: "'NAME: VALUE'",
      description: 'a header the script sets',
      example: "http://127.0.0.1:3000/items --origin http://localhost:5173 --header 'X-Foo: bar'",
    },
    credentials: { type: 'boolean', description: "credentials: 'include' (XMLHttpRequest: withCredentials)" },
    'body-type': {
      type: 'string',
      value: 'TYPE',
      description:
        'send a body: text, form (URLSearchParams), multipart (FormData), json, or a MIME type (a Blob of it)',
      example: 'http://127.0.0.1:3000/items --origin http://localhost:5173 --method POST --body-type json',
    },
    xhr: { type: 'boolean', description: 'word the verdict as for XMLHttpRequest instead of fetch' },
    redirect: {
      type: 'string',
      value: 'MODE',
      description:
        "fetch's redirect option: follow (each hop checked and preflighted as Chromium does), manual or error",
      default: 'follow',
      example: 'http://127.0.0.1:3000/old --origin http://localhost:5173 --redirect manual',
    },
    'page-address-space': {
      type: 'string',
      value: 'SPACE',
      description:
        "the page's IP address space for Local Network Access (loopback, local or public), when its host is a name this machine cannot place",
      example: 'http://127.0.0.1:3000/users --origin https://app.example.com --page-address-space public',
    },
    json: { type: 'boolean', description: 'print one JSON object with the same facts' },
    timeout: {
      type: 'string',
      value: 'MS',
      description: 'milliseconds to wait for each answer',
      default: '10000',
      example: 'http://127.0.0.1:3000/users --origin http://localhost:5173 --timeout 5000',
    },
    insecure: {
      type: 'boolean',
      description: 'accept a self-signed certificate (a browser would ask you to accept it first)',
    },
    openapi: {
      type: 'string',
      value: 'DOCUMENT',
      description:
        'an OpenAPI 3.0 or 3.1 document (a path or URL): alone, say whether it can check exchanges (every $ref resolves, every schema compiles); with --recordings, check the recorded exchanges against it',
      example: '--openapi ./openapi.yaml',
    },
    recordings: {
      type: 'string',
      value: 'DIR',
      description:
        'with --openapi: the recordings folder (recordings.dir, one folder per route); every recorded request and answer is checked',
      example: '--openapi ./openapi.yaml --recordings cors-dev-proxy/recordings --route /api',
    },
    route: {
      type: 'string',
      multiple: true,
      value: 'PREFIX[=TARGET]',
      description:
        "with --recordings: the route whose recordings are checked, its paths mapped to the backend's as the proxy does (the config file's route, or PREFIX=TARGET); default: every route of the config file",
      example:
        '--openapi ./openapi.yaml --recordings cors-dev-proxy/recordings --route /api=http://127.0.0.1:3000/v1',
    },
    ...CONFIG_FLAG,
  },
  examples: [
    'cors-dev-proxy check http://127.0.0.1:3000/users --origin http://localhost:5173',
    "cors-dev-proxy check http://127.0.0.1:3000/items/1 --origin http://localhost:5173 --method PUT --header 'Content-Type: application/json'",
    'cors-dev-proxy check https://api.example.test/me --origin https://app.example.test --credentials --json',
    OPENAPI_EXAMPLES.document,
    OPENAPI_EXAMPLES.recordings,
  ],
  notes: [
    'Exit codes: 0 the script can read the response, 1 the browser blocks or fails it (CORS, a failed redirect, or Local Network Access whatever the user answers), 2 the server could not be reached or the arguments are wrong.',
    "With --openapi: 0 the document is usable (alone) or every recorded exchange keeps it, 1 violations (each listed: file, call, operation, request or response, JSON pointer, message), 2 the arguments are wrong, the document is unreadable or unusable for checking (a $ref that resolves to nothing, an invalid schema, Swagger 2.0), or a file in the folder is not a recording. A recorded path is mapped to the backend's as the proxy maps it: the route's prefix put back, its pathRewrite (by default the prefix removed), its target's path; the document's servers give its base path. A request header the file does not hold is not reported missing, a JSON or form body is checked with the media type the operation declares, and a value the recording masked ([masked]) is counted, not reported.",
  ],
})

/** Methods fetch refuses before sending anything (Fetch standard §2.2.1 "forbidden method"). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK'])
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

function readUrl(value: string | undefined): string {
  if (value === undefined) throw new UsageError('check needs the URL the page calls', checkSpec.examples[0])
  if (!URL.canParse(value) || !['http:', 'https:'].includes(new URL(value).protocol)) {
    throw new UsageError(
      `the URL must be an http: or https: URL, got ${JSON.stringify(value)}`,
      checkSpec.examples[0],
    )
  }
  return value
}

function readOrigin(value: string | undefined): string {
  if (value === undefined) {
    throw new UsageError(
      '--origin is required: the origin of the page that makes the call',
      checkSpec.examples[0],
    )
  }
  const parsed = parseOrigin(value)
  if (parsed === null) {
    throw invalidFlagValue(
      checkSpec,
      'origin',
      value,
      'an origin, scheme://host[:port] without a path (or null)',
    )
  }
  return value
}

function readMethod(value: string): string {
  if (!TOKEN.test(value))
    throw invalidFlagValue(checkSpec, 'method', value, 'a method name such as GET, PUT or PATCH')
  if (FORBIDDEN_METHODS.has(value.toUpperCase())) {
    throw new UsageError(
      `fetch refuses ${value.toUpperCase()} before sending anything ("'${value.toUpperCase()}' HTTP method is unsupported."): there is nothing to check`,
      checkSpec.flags.method?.example === undefined
        ? undefined
        : `cors-dev-proxy check ${checkSpec.flags.method.example}`,
    )
  }
  return value
}

function readHeaders(values: readonly string[]): [string, string][] {
  return values.map((value) => {
    const colon = value.indexOf(':')
    const name = colon === -1 ? '' : value.slice(0, colon).trim()
    const headerValue = colon === -1 ? '' : value.slice(colon + 1).trim()
    // fetch refuses these before sending (a name that is not a token, a value with CR, LF or NUL,
    // or a character beyond Latin-1, which is no ByteString): there is nothing to check.
    if (!TOKEN.test(name) || /[\r\n\0]/.test(headerValue) || /[\u0100-\uffff]/.test(headerValue)) {
      throw invalidFlagValue(
        checkSpec,
        'header',
        value,
        "'Name: value', e.g. 'Content-Type: application/json'",
      )
    }
    return [name, headerValue]
  })
}

const ADDRESS_SPACES: readonly string[] = ['loopback', 'local', 'public']

function readAddressSpace(value: string | undefined): AddressSpace | undefined {
  if (value === undefined || ADDRESS_SPACES.includes(value)) return value as AddressSpace | undefined
  throw invalidFlagValue(checkSpec, 'page-address-space', value, 'loopback, local or public')
}

function readInput(flags: ParsedFlags): CheckInput {
  const url = readUrl(flags.positionals[0])
  const origin = readOrigin(flags.string('origin'))
  const method = readMethod(flags.string('method') ?? 'GET')
  const headers = readHeaders(flags.strings('header'))
  const bodyType = flags.string('body-type')
  let body: string | undefined
  if (bodyType !== undefined) {
    const kind = bodyOfType(bodyType)
    if (kind === undefined) {
      throw invalidFlagValue(
        checkSpec,
        'body-type',
        bodyType,
        'text, form, multipart, json or a MIME type such as application/xml',
      )
    }
    if (['GET', 'HEAD'].includes(method.toUpperCase())) {
      throw new UsageError(
        `fetch refuses a body on ${method.toUpperCase()} ("Request with GET/HEAD method cannot have body"): give a --method`,
        `cors-dev-proxy check ${checkSpec.flags['body-type']?.example ?? ''}`,
      )
    }
    body = kind.body
    // The body's type is only the default: a Content-Type the script sets wins (Fetch standard §5.4).
    if (!headers.some(([name]) => name.toLowerCase() === 'content-type'))
      headers.push(['content-type', kind.contentType])
  }
  const redirect = flags.string('redirect') ?? 'follow'
  if (redirect !== 'follow' && redirect !== 'manual' && redirect !== 'error') {
    throw invalidFlagValue(checkSpec, 'redirect', redirect, 'follow, manual or error')
  }
  if (redirect !== 'follow' && flags.boolean('xhr')) {
    throw new UsageError(
      'XMLHttpRequest always follows redirects: --redirect is for fetch only',
      `cors-dev-proxy check ${checkSpec.flags.redirect?.example ?? ''}`,
    )
  }
  return {
    url,
    origin,
    method,
    headers,
    redirect,
    credentials: flags.boolean('credentials'),
    body,
    initiator: flags.boolean('xhr') ? 'XMLHttpRequest' : 'fetch',
    timeout: readMilliseconds(checkSpec, 'timeout', flags.string('timeout') ?? '10000'),
    secure: !flags.boolean('insecure'),
    pageSpace: readAddressSpace(flags.string('page-address-space')),
  }
}

/**
 * Runs `check` and prints the report (or, with `--json`, one JSON object). Returns 0 when the
 * script could read the response, 1 when the browser blocks it, 2 when the server could not be
 * reached.
 *
 * @example
 * process.exitCode = await runCheck({ argv: ['http://127.0.0.1:3000/x', '--origin', 'http://localhost:5173'], cwd: process.cwd(), io: processIo })
 */
export async function runCheck({ argv, cwd, io }: CommandContext): Promise<number> {
  const flags = parseFlags(checkSpec, argv)
  if (flags.help) {
    io.out(formatHelp(checkSpec))
    return 0
  }
  refuseMixedChecks(flags)
  if (flags.has('openapi')) return runOpenapiCheck(flags, { argv, cwd, io })
  const report = await runCheckCall(readInput(flags))
  io.out(flags.boolean('json') ? JSON.stringify(report, null, 2) : formatCheckReport(report))
  return report.exitCode
}
