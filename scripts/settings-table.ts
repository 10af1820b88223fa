// Writes the README's configuration table from the settings table in src/emulator/config.ts, so the
// flags, keys, defaults and help are declared once. test/emulator/config.test.ts fails when it is stale.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { settingsMarkdown } from '../src/emulator/config.ts'

const README = join(import.meta.dirname, '..', 'README.md')
const START = /<!-- settings-table:[^\n]*-->\n/
const END = '<!-- /settings-table -->'

export function withSettingsTable(readme: string): string {
  const start = START.exec(readme)
  const end = readme.indexOf(END)
  if (!start || end < start.index) throw new Error('README.md lacks the settings-table markers')
  return `${readme.slice(0, start.index + start[0].length)}${settingsMarkdown()}\n${readme.slice(end)}`
}

if (import.meta.main) {
  writeFileSync(README, withSettingsTable(readFileSync(README, 'utf8')))
  console.log('README.md: configuration table written')
}
