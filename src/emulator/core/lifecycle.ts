// One lifecycle for the state. Each module declares, in one place, the tables it owns, the run-time
// settings it keeps in memory (with their defaults), what it rebuilds after the tables change under it,
// and how one account's part of it is deleted. Reset, export, import and account reset walk this
// registry instead of keeping lists of their own, so a new table or setting cannot be forgotten by one
// of them (a test walks the registry and checks every one round-trips). What an imported row of a
// table must be, and which ids its sequences mint, are declared by the owner of that table too.
import type { TSchema } from 'typebox'
import { ApiError } from './errors.ts'
import type { Ids } from './ids.ts'

/** A run-time setting (held in memory, changed over the admin API), as the state lifecycle sees it. */
export interface SettingsLifecycle<T = unknown> {
  /** Its value now. */
  current(): T
  /** Its value on a fresh start (from the configuration), which reset returns to. */
  defaults(): T
  /**
   * Takes `value` (from an imported document) after checking it: throws the client's error (a 400
   * naming the field) without changing anything when it does not fit. `check` runs it without applying.
   */
  restore(value: unknown): void
  check(value: unknown): void
}

export type StateChange = 'reset' | 'import'

/** What an imported row of one table must be beyond its column types, so every later read can use it. */
export interface RowRules {
  /** Text columns that hold JSON, with the schema of what they hold (the live API's own, where it has one). */
  readonly json?: Readonly<Record<string, TSchema>>
  /** Amounts that never go negative, whatever path they come by. */
  readonly nonNegative?: readonly string[]
  /** Anything else a row must be (its JSON columns already checked); throws importRowError. */
  check?(row: Readonly<Record<string, unknown>>, index: number): void
  /**
   * What the table's rows must be together (after each passed `check`): the bounds the live API keeps
   * on what is stored (so many per account, in all), with every table of the document to read a row's
   * account from. Throws importRowError naming the first row past a bound (checkBounds does).
   */
  checkAll?(rows: readonly Readonly<Record<string, unknown>>[], tables: Readonly<Record<string, unknown>>): void
}

/** A bound on what a table holds together: rows, or the sum of what each weighs, in each group or in all. */
export interface RowBound {
  /** The most a group holds. */
  readonly most: number
  /** Whether a row counts at all (every row does when left out). */
  counts?(row: Readonly<Record<string, unknown>>): boolean
  /** The group a row counts in (its account); left out, every row counts in one. */
  groupOf?(row: Readonly<Record<string, unknown>>): unknown
  /** What a row weighs (its bytes); 1 when left out. */
  weightOf?(row: Readonly<Record<string, unknown>>): number
  /** The column the refusal names (null: the row), and what it says. */
  readonly column: string | null
  readonly issue: string
}

/** Refuses, naming it, the first row of `table` that takes its group past a bound. */
export function checkBounds(table: string, rows: readonly Readonly<Record<string, unknown>>[], bounds: readonly RowBound[]): void {
  for (const bound of bounds) {
    const totals = new Map<unknown, number>()
    rows.forEach((row, i) => {
      if (bound.counts && !bound.counts(row)) return
      const group = bound.groupOf?.(row)
      const total = (totals.get(group) ?? 0) + (bound.weightOf?.(row) ?? 1)
      if (total > bound.most) throw importRowError(table, i, bound.column, bound.issue)
      totals.set(group, total)
    })
  }
}

/** The bytes of a text column as the database keeps it (UTF-8); 0 for anything else. */
export const textBytes = (value: unknown): number => (typeof value === 'string' ? Buffer.byteLength(value) : 0)

/**
 * Ids a sequence mints into a table (`kind` #n makes `idOf(ids, "kind#n")`): an imported document must
 * leave the sequence ahead of every id the table holds, or the next create would collide.
 */
export interface MintedIds {
  readonly kind: string
  readonly table: string
  readonly column: string
  idOf(ids: Ids, label: string): string
}

/** Ids minted as uuids from their label (most tables' `id`). */
export const uuidIds = (kind: string, table: string): MintedIds => ({ kind, table, column: 'id', idOf: (ids, label) => ids.uuid(label) })

/** A 400 about one value of one imported row: the path names table, row and column, and so does the metadata. */
export function importRowError(table: string, row: number, column: string | null, issue: string): ApiError {
  const field = `tables.${table}[${row}]${column === null ? '' : `.${column}`}`
  return new ApiError(400, `Field \`${field}\` ${issue}`, { metadata: { field, location: 'body', issue, table, row, column } })
}

export interface StateOwner {
  /** The module's name: the key of its settings in an exported document. */
  readonly name: string
  /** The tables it owns (created by its migrations): reset empties them, export and import carry them. */
  readonly tables: readonly string[]
  readonly settings?: SettingsLifecycle
  /** After reset or import rewrote the tables: rebuild what lives in memory (caches, counts) from them. */
  afterStateChange?(change: StateChange): void
  /**
   * Deletes this module's rows of one account (an account reset), inside the caller's transaction
   * (foreign keys are checked at its end, so owners may run in any order).
   */
  resetAccount?(accountId: string): void
  /** What an imported row of each of its tables must be. */
  readonly imports?: Readonly<Record<string, RowRules>>
  /**
   * The rows of its tables an export carries, by table, as an SQL condition (the rest are left out):
   * for rows of a write still under way, which no reader of the state finds yet and an import would
   * refuse (a file's parts before its row), so a write is wholly in a document or wholly out.
   */
  readonly exportsOnly?: Readonly<Record<string, string>>
  /**
   * Reads a document exported before a migration that changed its tables (its `schema_version` is
   * `from`): given every table of the document, answers them in today's shape, before anything is
   * checked (a table it moved rows into included). Throws importRowError for a row it cannot read.
   */
  upgradeTables?(tables: Readonly<Record<string, unknown>>, from: number): Record<string, unknown>
  /** The ids its sequences mint into its tables. */
  readonly mints?: readonly MintedIds[]
}

export class StateRegistry {
  readonly #owners: StateOwner[] = []

  add(owner: StateOwner): void {
    const taken = new Map(this.#owners.flatMap((o) => o.tables.map((t) => [t, o.name] as const)))
    for (const table of owner.tables) {
      const other = taken.get(table)
      if (other !== undefined) throw new Error(`table ${table} is owned by both ${other} and ${owner.name}`)
    }
    if (this.#owners.some((o) => o.name === owner.name)) throw new Error(`two state owners are named ${owner.name}`)
    this.#owners.push(owner)
  }

  get owners(): readonly StateOwner[] {
    return this.#owners
  }

  /** Every owned table, in registration order. */
  tables(): string[] {
    return this.#owners.flatMap((o) => o.tables)
  }

  /** The owners that keep run-time settings, by name. */
  settings(): Array<[name: string, settings: SettingsLifecycle]> {
    return this.#owners.flatMap((o) => (o.settings ? [[o.name, o.settings] as [string, SettingsLifecycle]] : []))
  }

  changed(change: StateChange): void {
    for (const owner of this.#owners) owner.afterStateChange?.(change)
  }
}
