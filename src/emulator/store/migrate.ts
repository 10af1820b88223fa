// Numbered, append-only migrations tracked in PRAGMA user_version. A released migration is never
// edited: a change is a new file. Each step runs in its own immediate transaction.
import type { DB } from './db.ts'

export interface Migration {
  version: number
  name: string
  sql: string
}

export class MigrationError extends Error {
  override name = 'MigrationError'
}

export function migrate(db: DB, migrations: readonly Migration[]): number {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new MigrationError(`migration ${m.name} has version ${m.version}, expected ${i + 1}`)
  })
  const current = db.pragma('user_version', { simple: true }) as number
  if (current > migrations.length) {
    throw new MigrationError(
      `the database is at schema version ${current}, newer than this emulator knows (${migrations.length}); use a newer emulator or another --db`,
    )
  }
  for (const m of migrations.slice(current)) {
    db.transaction(() => {
      db.exec(m.sql)
      db.pragma(`user_version = ${m.version}`)
    }).immediate()
  }
  return migrations.length
}
