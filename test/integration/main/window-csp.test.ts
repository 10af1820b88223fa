// The window's CSP against the policy the emulator serves for its UI: the window may add directives,
// never loosen one the emulator sets.
import { expect, it } from 'vitest'
import { WINDOW_CSP } from '../../../src/main/window-options.ts'
import { testEmulator } from '../../helpers/emulator.ts'

const directives = (csp: string): Map<string, string> =>
  new Map(
    csp
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name = '', ...values] = d.split(/\s+/)
        return [name, values.join(' ')] as const
      }),
  )

it('agrees with every directive of the policy the emulator serves for its UI', async () => {
  const emu = await testEmulator()
  const res = await emu.get('/_emulator/')
  const served = directives(String(res.headers['content-security-policy']))
  const window = directives(WINDOW_CSP)
  expect(served.size).toBeGreaterThan(0)
  for (const [name, value] of served) expect(window.get(name), name).toBe(value)
  // What the window adds on top (the emulator's UI policy lacks these today).
  expect([...window.keys()].filter((name) => !served.has(name))).toEqual(['base-uri', 'form-action'])
})
