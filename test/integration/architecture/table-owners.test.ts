// Each table is owned once: the module whose state lists it (its StateOwner) is the only folder whose
// SQL names it (FROM, JOIN, INTO, UPDATE); other areas read it through that module's service. This
// reads the owners from a running emulator's modules and every string of src/emulator (comments left
// out), so a new read of another area's table fails here, naming the file.
import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MODULES } from '../../../src/emulator/modules/index.ts'
import { createEmulator, type Emulator } from '../../../src/emulator/emulator.ts'
import { moduleFolders, sourceFiles, stringsOf, SRC } from '../../helpers/sources.ts'

/** Statements that name one of these tables are left to the work that moves it (none now). */
const MOVING: readonly string[] = []

/** Tables no module lists: the clock's position, kept by the kernel in store/ across resets. */
const KERNEL_TABLES: Readonly<Record<string, string>> = { clock_position: 'store' }

let emu: Emulator
beforeAll(async () => {
  emu = await createEmulator()
})
afterAll(async () => {
  await emu?.close()
})

/** The folder of the module that owns each table. */
function owners(): Map<string, string> {
  const folders = moduleFolders()
  const out = new Map<string, string>(Object.entries(KERNEL_TABLES).map(([table, module]) => [table, folders.get(module)!]))
  for (const module of MODULES) for (const owner of module.state?.(emu.ctx) ?? []) for (const table of owner.tables) out.set(table, folders.get(module.name)!)
  return out
}

describe('each table is owned once', () => {
  it('every table of the schema has an owner', () => {
    const tables = emu.ctx.db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all()
      .map((row) => row.name)
    const owned = owners()
    expect(tables.filter((table) => !owned.has(table))).toEqual([])
  })

  it("names a table in SQL only in its owner's folder", () => {
    const owned = owners()
    const tables = [...owned.keys()]
    const pattern = new RegExp(`\\b(?:from|join|into|update)\\s+(${tables.join('|')})\\b`, 'gi')
    const strays: string[] = []
    for (const file of sourceFiles()) {
      if (file.includes('/store/migrations/')) continue // the schema's history: every table, by design
      const source = readFileSync(file, 'utf8')
      pattern.lastIndex = 0
      if (!pattern.test(source)) continue // no SQL at all: not worth parsing
      for (const text of stringsOf(source)) {
        const named = [...text.matchAll(pattern)].map((match) => match[1]!.toLowerCase())
        if (named.some((table) => MOVING.includes(table))) continue
        for (const table of new Set(named)) {
          const folder = owned.get(table)!
          if (!file.startsWith(`${folder}/`)) strays.push(`${relative(SRC, file)}: ${table} (owned by ${relative(SRC, folder)})`)
        }
      }
    }
    expect(strays).toEqual([])
  })

  it('finds SQL in template literals and multi-line strings', () => {
    const strings = stringsOf('const a = `SELECT *\n  FROM\n usage u ${x} JOIN api_keys k`; // FROM accounts\nconst b = "UPDATE members SET x = 1"')
    expect(strings.join(' | ')).toMatch(/FROM\s+usage/)
    expect(strings.join(' | ')).toContain('JOIN api_keys')
    expect(strings.join(' | ')).toContain('UPDATE members')
    expect(strings.join(' | ')).not.toContain('FROM accounts')
  })
})
