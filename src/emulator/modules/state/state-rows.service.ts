// What an imported row must be beyond its column types, as the owner of each table declares it
// (StateOwner.imports: the JSON its text columns carry, checked with the live API's own schemas where
// there is one; the amounts that never go negative; anything else), and the id sequences that must be
// ahead of every id already minted (StateOwner.mints). A row that passes is one every later read can use.
import type { Ids } from '../../core/ids.ts'
import { importRowError, type StateOwner } from '../../core/lifecycle.ts'
import { compileCheck } from '../../http/validation.ts'
import type { Turns } from './state-turns.service.ts'
import { lacksSequence } from './state.errors.ts'

type Row = Record<string, unknown>
type Check = (value: unknown) => { field: string; issue: string } | null

/** Compiled checks of the owners' JSON columns, by owner list (one per emulator). */
const compiledChecks = new WeakMap<readonly StateOwner[], Map<string, Check>>()

function jsonChecks(owners: readonly StateOwner[]): Map<string, Check> {
  let checks = compiledChecks.get(owners)
  if (!checks) {
    checks = new Map()
    for (const owner of owners)
      for (const [table, rules] of Object.entries(owner.imports ?? {}))
        for (const [column, schema] of Object.entries(rules.json ?? {})) checks.set(`${table}.${column}`, compileCheck(schema))
    compiledChecks.set(owners, checks)
  }
  return checks
}

/** Checks every row of `tables` (already checked against the column types), a turn at a time. Throws the first problem. */
export async function checkRows(tables: Record<string, unknown>, owners: readonly StateOwner[], turns: Turns): Promise<void> {
  const checks = jsonChecks(owners)
  const rulesOf = new Map(owners.flatMap((owner) => Object.entries(owner.imports ?? {})))
  for (const [table, rows] of Object.entries(tables)) {
    const rules = rulesOf.get(table)
    if (!Array.isArray(rows) || !rules) continue
    const jsonColumns = Object.keys(rules.json ?? {})
    for (const [i, row] of (rows as Row[]).entries()) {
      if (turns.due()) await turns.next()
      for (const column of rules.nonNegative ?? []) {
        const value = row[column]
        if (typeof value === 'number' && value < 0) throw importRowError(table, i, column, `must be >= 0 (got ${value}): amounts never go negative`)
      }
      for (const column of jsonColumns) {
        const text = row[column]
        if (typeof text !== 'string') continue
        let value: unknown
        try {
          value = JSON.parse(text)
        } catch {
          throw importRowError(table, i, column, 'must be JSON text (the live API stores it as JSON)')
        }
        const problem = checks.get(`${table}.${column}`)!(value)
        if (problem) throw importRowError(table, i, column, `holds JSON whose ${problem.field ? `\`${problem.field}\`` : 'value'} ${problem.issue}`)
      }
      rules.check?.(row, i)
    }
    rules.checkAll?.(rows as Row[], tables)
  }
}

/**
 * Every sequence must be ahead of the ids its tables hold: the next ids it would mint (as many as the
 * table has rows) must not be there already. A document with `sequences: []` but rows created at run
 * time is refused here, rather than failing every later create with a 500.
 */
export function checkSequences(tables: Record<string, unknown>, ids: Ids, owners: readonly StateOwner[]): void {
  const sequenceRows = (tables['sequences'] ?? []) as Row[]
  const values = new Map(sequenceRows.map((row) => [row['kind'] as string, row['value'] as number]))
  sequenceRows.forEach((row, i) => {
    if (typeof row['value'] === 'number' && row['value'] < 0) throw importRowError('sequences', i, 'value', `must be >= 0 (got ${row['value']})`)
  })
  for (const { kind, table, column, idOf } of owners.flatMap((owner) => owner.mints ?? [])) {
    const value = values.get(kind) ?? 0
    const rows = (tables[table] ?? []) as Row[]
    if (rows.length === 0) continue
    const present = new Set(rows.map((row) => row[column]))
    for (let n = value + 1; n <= value + rows.length; n++) {
      if (!present.has(idOf(ids, `${kind}#${n}`))) continue
      const at = sequenceRows.findIndex((row) => row['kind'] === kind)
      const issue = `must count ${kind} ids up to at least ${n}: ${table} already holds the ${column} that ${kind} #${n} would mint, so the next create would collide`
      throw at === -1 ? lacksSequence(kind, table, column, n) : importRowError('sequences', at, 'value', issue)
    }
  }
}
