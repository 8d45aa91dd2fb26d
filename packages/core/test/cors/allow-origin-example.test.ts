import { describe, expect, it } from 'vitest'
import { resolveCorsOptions } from '../../src/config/resolve-cors-options.js'
import { allowOriginExample } from '../../src/cors/allow-origin-example.js'
import { isLoopbackOrigin } from '../../src/index.js'

const PAGE = 'https://app.example.com'

/** The policy a `cors` value resolves to. */
const policyOf = (cors: unknown) => {
  const resolved = resolveCorsOptions(cors as never, { option: "routes['/api'].cors" })
  if (resolved === undefined) throw new Error('no policy')
  return resolved.origin
}

/** Runs the `cors: { … }` of an example as code and says whether its policy allows `origin`. */
function allows(example: string, origin: string): boolean {
  const code = /^cors: (\{.*\})(?: \(|$)/.exec(example)?.[1]
  if (code === undefined) throw new Error(`not a cors value: ${example}`)
  const cors = new Function('isLoopbackOrigin', `return (${code})`)(isLoopbackOrigin)
  const policy = policyOf(cors)
  if (policy.kind === 'match') return policy.test(origin)
  if (policy.kind === 'function') return policy.decide(origin, () => undefined) === true
  return true
}

describe('allowOriginExample', () => {
  it('keeps the default localhost origins allowed, and adds the page', () => {
    const example = allowOriginExample(policyOf(true), PAGE)
    expect(example).toContain('isLoopbackOrigin')
    expect(allows(example, PAGE)).toBe(true)
    expect(allows(example, 'http://localhost:5173')).toBe(true)
    expect(allows(example, 'https://evil.example')).toBe(false)
  })

  it('adds the page to a list, keeping its origins and patterns', () => {
    const example = allowOriginExample(policyOf({ origin: ['http://localhost:5173', /\.test$/] }), PAGE)
    expect(example).toBe(`cors: { origin: ['http://localhost:5173', /\\.test$/, '${PAGE}'] }`)
    expect(allows(example, PAGE)).toBe(true)
    expect(allows(example, 'http://localhost:5173')).toBe(true)
    expect(allows(example, 'http://a.test')).toBe(true)
  })

  it("says what an origin function must return, and quotes an origin's quote", () => {
    expect(allowOriginExample(policyOf({ origin: () => false }), PAGE)).toBe(
      `make the route's \`cors.origin\` function return true for '${PAGE}'`,
    )
    const odd = "http://it's.test"
    expect(allowOriginExample(policyOf({ origin: 'http://a.test' }), odd)).toContain("'http://it\\'s.test'")
  })
})
