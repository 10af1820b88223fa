// Writes the tables of docs/limits.md from the bounds the emulator declares (src/emulator/limits.ts:
// the kernel's, each module's `limits`, and every route's body limit, read from a built app), so each
// number is written once, in the code. A test (grep -rl "docs:limits rewrites" test/) fails when the
// page is stale.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { limitsMarkdown } from '../src/emulator/core/limits.ts'
import { createEmulator } from '../src/emulator/emulator.ts'
import { limitGroups } from '../src/emulator/limits.ts'

const PAGE = join(import.meta.dirname, '..', 'docs', 'limits.md')
const START = /<!-- limits-table:[^\n]*-->\n/
const END = '<!-- /limits-table -->'

/** The tables of every bound, from an emulator built in memory. */
export async function currentTables(): Promise<string> {
  const emulator = await createEmulator({ db: ':memory:', logLevel: 'silent', clock: 'manual' })
  try {
    return limitsMarkdown(limitGroups(emulator.app))
  } finally {
    await emulator.close()
  }
}

export function withLimitsTables(page: string, tables: string): string {
  const start = START.exec(page)
  const end = page.indexOf(END)
  if (!start || end < start.index) throw new Error('docs/limits.md lacks the limits-table markers')
  return `${page.slice(0, start.index + start[0].length)}${tables}\n${page.slice(end)}`
}

if (import.meta.main) {
  writeFileSync(PAGE, withLimitsTables(readFileSync(PAGE, 'utf8'), await currentTables()))
  console.log('docs/limits.md: tables written')
}
