// Writes the configuration table of docs/configuration.md from the settings table in
// src/emulator/config.ts, so the flags, keys, defaults and help are declared once. A test
// (grep -rl "docs:settings rewrites" test/) fails when the table is stale.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { settingsMarkdown } from '../src/emulator/config.ts'

const CONFIGURATION = join(import.meta.dirname, '..', 'docs', 'configuration.md')
const START = /<!-- settings-table:[^\n]*-->\n/
const END = '<!-- /settings-table -->'

export function withSettingsTable(page: string): string {
  const start = START.exec(page)
  const end = page.indexOf(END)
  if (!start || end < start.index) throw new Error('docs/configuration.md lacks the settings-table markers')
  return `${page.slice(0, start.index + start[0].length)}${settingsMarkdown()}\n${page.slice(end)}`
}

if (import.meta.main) {
  writeFileSync(CONFIGURATION, withSettingsTable(readFileSync(CONFIGURATION, 'utf8')))
  console.log('docs/configuration.md: configuration table written')
}
