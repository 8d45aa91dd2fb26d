import { type BrowserCorsCase, bothInitiators, JSON_TYPE, onPreflight, type Scenario } from './case-types.js'

/**
 * Access-Control-Allow-Origin values on a simple GET (and a few on a preflight): the exact
 * origin, `*`, `null`, wrong case, another origin, a trailing slash, several values in one line
 * or in two lines, and invalid values. `{origin}` is the page's origin, `{ORIGIN}` uppercased.
 */

const HINT = ' Have the server send the header with a valid value.'
const mismatch = (value: string) =>
  `The 'Access-Control-Allow-Origin' header has a value '${value}' that is not equal to the supplied origin.${HINT}`
const multiple = (value: string) =>
  `The 'Access-Control-Allow-Origin' header contains multiple values '${value}', but only one is allowed.${HINT}`
const invalid = (value: string) =>
  `The 'Access-Control-Allow-Origin' header contains the invalid value '${value}'.${HINT}`

function read(name: string, switches: string): Scenario {
  return { name, path: '/users', switches, method: 'GET', preflight: false, expected: { readable: true } }
}

function blocked(name: string, switches: string, text: string): Scenario {
  return {
    name,
    path: '/users',
    switches,
    method: 'GET',
    preflight: false,
    expected: { readable: false, text, stage: 'response' },
  }
}

/** The same value on a preflight answer: Chromium's preflight prefix, and the PUT is never sent. */
function blockedPreflight(name: string, switches: string, text: string): Scenario {
  return {
    name,
    path: '/items/1',
    switches,
    method: 'PUT',
    headers: JSON_TYPE,
    preflight: true,
    expected: { readable: false, text: onPreflight(text), stage: 'preflight' },
  }
}

const SCENARIOS: Scenario[] = [
  read('the page origin itself is readable', 'cors=reflect'),
  read('* is readable without credentials', 'cors=wildcard'),
  read(
    'the page origin between spaces is readable: Chromium trims the value',
    'cors=off&header=Access-Control-Allow-Origin:%20%20{origin}%20',
  ),
  read('* between spaces is readable', 'cors=off&header=Access-Control-Allow-Origin:%20*%20'),
  blocked(
    'another origin is refused',
    'cors=reflect&allowOrigin=http://example.com',
    mismatch('http://example.com'),
  ),
  blocked('the page origin uppercased is refused', 'cors=reflect&allowOrigin={ORIGIN}', mismatch('{ORIGIN}')),
  blocked(
    'the page origin with a trailing slash is refused',
    'cors=reflect&allowOrigin={origin}/',
    mismatch('{origin}/'),
  ),
  blocked(
    'the page origin with a path is refused',
    'cors=reflect&allowOrigin={origin}/app',
    mismatch('{origin}/app'),
  ),
  blocked(
    'the page host without its port is refused',
    'cors=reflect&allowOrigin=http://127.0.0.1',
    mismatch('http://127.0.0.1'),
  ),
  blocked(
    'https instead of http is refused',
    'cors=reflect&allowOrigin=https://127.0.0.1',
    mismatch('https://127.0.0.1'),
  ),
  blocked('null is a mismatch, not an invalid value', 'cors=reflect&allowOrigin=null', mismatch('null')),
  blocked(
    'NULL is an invalid value (only null is special)',
    'cors=reflect&allowOrigin=NULL',
    invalid('NULL'),
  ),
  blocked('foo is invalid', 'cors=reflect&allowOrigin=foo', invalid('foo')),
  blocked('*.example.com is invalid', 'cors=reflect&allowOrigin=*.example.com', invalid('*.example.com')),
  blocked('** is invalid', 'cors=reflect&allowOrigin=**', invalid('**')),
  blocked('an empty value is invalid', 'cors=off&header=Access-Control-Allow-Origin:', invalid('')),
  blocked('a: is a valid URL, so a mismatch', 'cors=reflect&allowOrigin=a:', mismatch('a:')),
  blocked(
    'two origins in one line are multiple values',
    'cors=reflect&allowOrigin=http://a.test,%20http://b.test',
    multiple('http://a.test, http://b.test'),
  ),
  blocked(
    'the page origin twice, comma without space, is multiple values',
    'cors=reflect&allowOrigin={origin},{origin}',
    multiple('{origin},{origin}'),
  ),
  blocked(
    '* and the origin are multiple values',
    'cors=reflect&allowOrigin=*,%20{origin}',
    multiple('*, {origin}'),
  ),
  blocked(
    'two header lines with the page origin arrive joined: multiple values',
    'cors=off&header=Access-Control-Allow-Origin:{origin}&header=Access-Control-Allow-Origin:{origin}',
    multiple('{origin}, {origin}'),
  ),
  blocked(
    'two header lines * and * arrive joined: multiple values',
    'cors=off&header=Access-Control-Allow-Origin:*&header=Access-Control-Allow-Origin:*',
    multiple('*, *'),
  ),
  blocked(
    'a space inside an origin reads as multiple values',
    'cors=reflect&allowOrigin=http://a%20b.test',
    multiple('http://a b.test'),
  ),
  blockedPreflight(
    'another origin on the preflight answer',
    'cors=reflect&allowOrigin=http://example.com',
    mismatch('http://example.com'),
  ),
  blockedPreflight('null on the preflight answer', 'cors=reflect&allowOrigin=null', mismatch('null')),
  blockedPreflight(
    'two lines on the preflight answer',
    'cors=reflect&header=Access-Control-Allow-Origin:{origin}&header=Access-Control-Allow-Origin:http://a.test',
    multiple('{origin}, http://a.test'),
  ),
]

/** Every Access-Control-Allow-Origin case, fetch and XMLHttpRequest. */
export const ALLOW_ORIGIN_CASES: readonly BrowserCorsCase[] = bothInitiators('allow-origin', SCENARIOS)
