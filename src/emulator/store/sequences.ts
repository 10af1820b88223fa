// Persisted counters, so ids made after a restart never repeat earlier ones.
import type { DB } from './db.ts'
import type { StateOwner } from '../core/lifecycle.ts'

export function createSequences(db: DB): (kind: string) => number {
  const nextStmt = db.prepare<{ kind: string }, { value: number }>(
    `INSERT INTO sequences (kind, value) VALUES (@kind, 1)
     ON CONFLICT (kind) DO UPDATE SET value = value + 1
     RETURNING value`,
  )
  return (kind) => nextStmt.get({ kind })!.value
}

/** The store's own tables: facts about the state (the seed it was made with, the default account) and the id counters. */
export const storeState: StateOwner = { name: 'store', tables: ['meta', 'sequences'] }
