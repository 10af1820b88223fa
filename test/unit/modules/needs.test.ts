// Each module declares the other modules it uses (`needs`): this reads every module's folder and
// checks the declaration against what its files use, both ways: each `ctx.services.<name>` and each
// runtime import of another area's files is declared, and each declared need is used. And the needs
// go one way: no module needs, through others, one that needs it.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MODULES } from '../../../src/emulator/modules/index.ts'
import { cyclesOf } from '../../helpers/cycles.ts'

const SRC = join(import.meta.dirname, '../../../src/emulator')
/** Where each module's files are (the cross-cutting ones beside modules/). */
const folderOf = (name: string): string => (['faults', 'journal', 'store'].includes(name) ? join(SRC, name) : join(SRC, 'modules', name))
const names = new Set(MODULES.map((m) => m.name))

/**
 * Modules whose needs of each other are still being untied (none now): a cycle among them alone is let pass.
 */
const UNTYING: readonly string[] = []

/** The modules a folder's files use: services by name, and areas whose files they import at run time (type imports do not count). */
function used(name: string): Set<string> {
  const out = new Set<string>()
  let files: string[]
  try {
    files = readdirSync(folderOf(name)).filter((f) => f.endsWith('.ts'))
  } catch {
    return out // a module without a folder of its own
  }
  for (const file of files) {
    const text = readFileSync(join(folderOf(name), file), 'utf8')
    for (const [, dotted, quoted] of text.matchAll(/\bservices(?:\.([a-z]+)\b|\['([a-z-]+)'\])/g)) {
      const service = dotted ?? quoted!
      if (names.has(service)) out.add(service)
    }
    // store/ is also the kernel's database (db.ts): importing it is no need of the store module.
    for (const [, area] of text.matchAll(/^import (?!type )[^']*? from '(?:\.\.\/)+(?:modules\/)?([a-z-]+)\//gm))
      if (names.has(area!) && area !== 'store') out.add(area!)
  }
  out.delete(name)
  return out
}

describe('each module declares the modules it uses', () => {
  it.each(MODULES.map((m) => [m.name, m] as const))('%s', (name, module) => {
    expect([...used(name)].sort()).toEqual([...(module.needs ?? [])].sort())
  })

  it('names only modules of the list', () => {
    for (const module of MODULES) for (const need of module.needs ?? []) expect(names, `${module.name} needs ${need}`).toContain(need)
  })

  it('in one direction: no cycle', () => {
    const graph = new Map(MODULES.map((m) => [m.name, new Set(m.needs ?? [])]))
    const cycles = cyclesOf(graph).filter((cycle) => !cycle.every((name) => UNTYING.includes(name)))
    expect(cycles).toEqual([])
  })
})
