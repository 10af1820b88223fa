// Statements are compiled at their first use (store/db.ts): every one a fresh emulator's modules
// prepared must still compile, as it did when they were compiled at start.
import { describe, expect, it } from 'vitest'
import { prepareAll } from '../../../src/emulator/store/db.ts'
import { testEmulator } from '../../helpers/emulator.ts'

describe('statements prepared on first use', () => {
  it('every statement of a fresh emulator compiles', async () => {
    const emu = await testEmulator()
    expect(prepareAll(emu.ctx.db)).toBeGreaterThan(150)
    // All compiled now: nothing is left waiting.
    expect(prepareAll(emu.ctx.db)).toBe(0)
  })

  it('a statement that does not compile fails at its first use, naming the error', async () => {
    const emu = await testEmulator()
    const statement = emu.ctx.db.prepare('SELECT no_such_column FROM accounts')
    expect(() => statement.all()).toThrow(/no such column: no_such_column/)
  })
})
