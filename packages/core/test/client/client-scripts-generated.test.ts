import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { GENERATED_FILE, generatedFile, joinScript } from '../../scripts/join-client-scripts.mjs'

describe('the joined browser scripts (src/client/client-scripts.generated.ts)', () => {
  it('are the client files as they are now (run node packages/core/scripts/join-client-scripts.mjs)', () => {
    expect(readFileSync(GENERATED_FILE, 'utf8')).toBe(generatedFile())
  })

  it('are each the source of one function, valid JavaScript, that calls its entry with its arguments', () => {
    const script = joinScript('client/overlay-client.ts', 'overlayClient')
    expect(script.startsWith('function overlayClientJoined(...args) {\n')).toBe(true)
    expect(script.endsWith('\nreturn overlayClient(...args);\n}')).toBe(true)
    expect(script).not.toMatch(/^\s*(import|export) /m)
    expect(() => new Function(`(${script})`)).not.toThrow()
  })

  it("carry none of the sources' comments: every page with the overlay downloads the text", () => {
    const entries = [
      ['client/overlay-client.ts', 'overlayClient'],
      ['client/inspector-app.ts', 'inspectorApp'],
      ['stand-ins/control/panel/control-panel.ts', 'controlPanel'],
      ['stand-ins/control/panel/fault-badge.ts', 'faultBadge'],
    ] as const
    for (const [entry, main] of entries) {
      const script = joinScript(entry, main)
      expect(script).not.toContain('/*')
      expect(script).not.toContain('@example')
    }
  })

  it('pass what the server gives the script on to its entry', () => {
    const script = joinScript('stand-ins/control/panel/control-panel.ts', 'controlPanel')
    const asked: string[] = []
    const document = {
      querySelector: (selector: string) => {
        asked.push(selector)
        return null
      },
    }
    new Function('document', `(${script})({ control: true })`)(document)
    expect(asked).toEqual(['#control'])
  })
})
