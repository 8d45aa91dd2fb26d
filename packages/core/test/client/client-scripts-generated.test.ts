import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { GENERATED_FILE, generatedFile, joinScript } from '../../scripts/join-client-scripts.mjs'

describe('the joined browser scripts (src/client/client-scripts.generated.ts)', () => {
  it('are the client files as they are now (run node packages/core/scripts/join-client-scripts.mjs)', () => {
    expect(readFileSync(GENERATED_FILE, 'utf8')).toBe(generatedFile())
  })

  it('are each one immediately invoked function, valid JavaScript, calling its entry last', () => {
    const script = joinScript('overlay-client.ts', 'overlayClient')
    expect(script.startsWith('(function () {\n')).toBe(true)
    expect(script.endsWith('\noverlayClient();\n})();\n')).toBe(true)
    expect(script).not.toMatch(/^\s*(import|export) /m)
    expect(() => new Function(script)).not.toThrow()
  })
})
