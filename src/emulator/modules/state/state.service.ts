// The whole state as one versioned JSON document, and back. Export reads every table generically
// (table and column names come from the schema itself, so a new migration is covered without a
// change here); import checks the whole document first, then replaces the state in one transaction,
// or changes nothing. Also: putting one account back to how it was created.
import type { Statement } from 'better-sqlite3'
import { Type } from 'typebox'
import type { ClockState } from '../../core/clock.ts'
import { fieldError } from '../../core/errors.ts'
import type { StateOwner } from '../../core/lifecycle.ts'
import type { EmulatorContext } from '../module.ts'
import { compileCheck } from '../../http/validation.ts'
import { RUNTIME_TABLES } from '../../store/clock-position.ts'
import { commitBatch, type DB } from '../../store/db.ts'
import { validateCatalog } from '../catalog/catalog-index.service.ts'
import { checkRows, checkSequences } from './state-rows.service.ts'
import { Turns } from './state-turns.service.ts'
import { brokenForeignKey, notAStateDocument } from './state.errors.ts'

export const STATE_FORMAT = 'model-gateway-emulator/state'
/** The document's own format version (its envelope), independent of the database schema version. */
export const STATE_VERSION = 1

export type CellValue = string | number | null
export type StateRow = Record<string, CellValue>

export interface StateDocument {
  format: typeof STATE_FORMAT
  version: number
  /** Virtual time of the export. */
  exported_at: string
  /** PRAGMA user_version of the database it came from: which migrations its tables reflect. */
  schema_version: number
  clock: ClockState
  /** Every table, rows in primary-key (rowid) order, values as stored. */
  tables: Record<string, StateRow[]>
  /** The run-time settings of each module that keeps some (video engine, rate limits), by module. */
  settings: Record<string, unknown>
}

type Doc = Record<string, unknown>

/**
 * Upgrades of older envelopes, keyed by the version they upgrade from: UPGRADES.get(1) turns a
 * version 1 document into a version 2 one. Version 1 is the only version so far, so there are none.
 * Changes of the database schema need no step here: `schema_version` covers them (see importState).
 */
const UPGRADES: ReadonlyMap<number, (doc: Doc) => Doc> = new Map<number, (doc: Doc) => Doc>([])

// ---- The schema, read from the database ----------------------------------------------------------

type ColumnKind = 'integer' | 'real' | 'text' | 'blob' | 'any'

interface ColumnInfo {
  name: string
  declared: string
  /** What a value must be; 'any' for tables that are not STRICT (SQLite would store anything). */
  kind: ColumnKind
  notNull: boolean
  hasDefault: boolean
  /** INTEGER PRIMARY KEY: SQLite assigns it when absent. */
  rowidAlias: boolean
}

export interface TableInfo {
  name: string
  columns: ColumnInfo[]
  byName: Map<string, ColumnInfo>
  /** ORDER BY clause: rowid (insertion order, which listings use to break ties), or the primary key without rowid. */
  order: string
}

const q = (identifier: string): string => `"${identifier.replaceAll('"', '""')}"`

const STRICT_KINDS: Record<string, ColumnKind> = { INT: 'integer', INTEGER: 'integer', REAL: 'real', TEXT: 'text', BLOB: 'blob', ANY: 'any' }

/** Every table of the state (not SQLite's own, nor the runtime's), in creation order. */
function stateTables(db: DB): Array<{ name: string; wr: number; strict: number }> {
  return db
    .prepare<[], { name: string; wr: number; strict: number }>(
      `SELECT m.name AS name, t.wr AS wr, t."strict" AS "strict"
       FROM sqlite_master m JOIN pragma_table_list t ON t.schema = 'main' AND t.name = m.name
       WHERE m.type = 'table' AND t.type = 'table' AND m.name NOT LIKE 'sqlite_%'
       ORDER BY m.rowid`,
    )
    .all()
    .filter((t) => !RUNTIME_TABLES.has(t.name))
}

/** Every table of the state (not SQLite's own, nor the runtime's), in creation order, with its columns as PRAGMA table_info describes them. */
export function describeSchema(db: DB): TableInfo[] {
  const tables = stateTables(db)
  const infoStmt = db.prepare<[string], { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(
    'SELECT name, type, "notnull" AS "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid',
  )
  return tables.map((t) => {
    const info = infoStmt.all(t.name)
    const pk = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk)
    const columns = info.map((c): ColumnInfo => ({
      name: c.name,
      declared: c.type,
      kind: t.strict ? (STRICT_KINDS[c.type.toUpperCase()] ?? 'any') : 'any',
      notNull: c.notnull === 1,
      hasDefault: c.dflt_value !== null,
      rowidAlias: !t.wr && pk.length === 1 && c.pk === 1 && c.type.toUpperCase() === 'INTEGER',
    }))
    return {
      name: t.name,
      columns,
      byName: new Map(columns.map((c) => [c.name, c])),
      order: t.wr ? `ORDER BY ${pk.map((c) => q(c.name)).join(', ')}` : 'ORDER BY rowid',
    }
  })
}

export const schemaVersion = (db: DB): number => db.pragma('user_version', { simple: true }) as number

// ---- Reading the tables -------------------------------------------------------------------------

/**
 * Every row of `table` an export carries (its owner may leave out those of a write under way:
 * StateOwner.exportsOnly), in the document's order, its columns in the schema's. The table is scanned
 * in that order (NOT INDEXED): with a condition SQLite would rather search an index and sort every row
 * into a temporary tree before the first comes out, 130 MB of file parts at once.
 */
export function selectRows(db: DB, table: TableInfo, owners: readonly StateOwner[]): Statement {
  const only = owners.find((owner) => owner.tables.includes(table.name))?.exportsOnly?.[table.name]
  const columns = table.columns.map((c) => q(c.name)).join(', ')
  return db.prepare(`SELECT ${columns} FROM ${q(table.name)} NOT INDEXED ${only ? `WHERE ${only} ` : ''}${table.order}`)
}

/**
 * Every table of the database belongs to exactly one module of the lifecycle registry: a migration
 * that adds a table without an owner would be left out of reset (and account reset) silently.
 */
export function checkStateOwners(ctx: EmulatorContext): void {
  const owned = new Set(ctx.state.tables())
  // The names alone: their columns (a query per table) are not needed here, at every start.
  const tables = stateTables(ctx.db).map((t) => t.name)
  const orphans = tables.filter((t) => !owned.has(t))
  const missing = [...owned].filter((t) => !tables.includes(t))
  if (orphans.length > 0 || missing.length > 0) {
    throw new Error(
      `the state lifecycle registry and the schema disagree: no owner for ${orphans.join(', ') || '-'}; owned but absent: ${missing.join(', ') || '-'}`,
    )
  }
}

// ---- Import --------------------------------------------------------------------------------------

const isObject = (value: unknown): value is Doc => typeof value === 'object' && value !== null && !Array.isArray(value)

const describeValue = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'object'
        ? 'an object'
        : typeof value === 'string'
          ? `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)})`
          : `${typeof value === 'boolean' ? 'a boolean' : 'a number'} (${String(value)})`

/** Checks format and version, then brings an older envelope up to the current version. */
function upgrade(body: unknown): Doc {
  if (!isObject(body)) {
    throw notAStateDocument()
  }
  if (body.format !== STATE_FORMAT) throw fieldError('format', body.format === undefined ? 'is required' : `must be "${STATE_FORMAT}"`)
  const version = body.version
  if (version === undefined) throw fieldError('version', 'is required')
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) throw fieldError('version', 'must be an integer >= 1')
  if (version > STATE_VERSION) {
    throw fieldError('version', `is ${version}, newer than the state format this emulator knows (${STATE_VERSION}); import it with a newer emulator`)
  }
  let doc = body
  for (let from = version; from < STATE_VERSION; from++) {
    const step = UPGRADES.get(from)
    if (!step) throw new Error(`no upgrade for state documents of version ${from}`)
    doc = step(doc)
  }
  return doc
}

const Envelope = Type.Object({
  format: Type.Literal(STATE_FORMAT),
  version: Type.Literal(STATE_VERSION),
  exported_at: Type.Optional(Type.String()),
  schema_version: Type.Integer({ minimum: 0 }),
  clock: Type.Optional(Type.Object({ now: Type.String(), mode: Type.String() })),
  tables: Type.Record(Type.String(), Type.Unknown()),
  settings: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
})
let checkEnvelope: ReturnType<typeof compileCheck> | undefined

const KIND_CHECKS: Record<ColumnKind, { ok: (value: unknown) => boolean; must: string }> = {
  integer: { ok: (v) => typeof v === 'number' && Number.isSafeInteger(v), must: 'must be an integer' },
  real: { ok: (v) => typeof v === 'number' && Number.isFinite(v), must: 'must be a number' },
  text: { ok: (v) => typeof v === 'string', must: 'must be a string' },
  blob: { ok: () => false, must: 'cannot be imported (BLOB columns are not supported by the state document)' },
  any: { ok: (v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)), must: 'must be a string or a number' },
}

/** Every table and row of the document against the database's schema, a turn at a time. Throws a 400 naming the first bad value. */
async function checkTables(schema: readonly TableInfo[], tables: Doc, older: boolean, turns: Turns): Promise<void> {
  const known = new Map(schema.map((t) => [t.name, t]))
  for (const name of Object.keys(tables)) {
    if (!known.has(name)) throw fieldError(`tables.${name}`, `is not a known table (known: ${schema.map((t) => t.name).join(', ')})`)
  }
  for (const table of schema) {
    const at = `tables.${table.name}`
    const rows = tables[table.name]
    if (rows === undefined) {
      // A document from an older schema has no tables added since: they start empty.
      if (older) continue
      throw fieldError(at, 'is required (an empty table is [])')
    }
    if (!Array.isArray(rows)) throw fieldError(at, 'must be an array')
    for (const [i, row] of (rows as unknown[]).entries()) {
      if (turns.due()) await turns.next()
      if (!isObject(row)) throw fieldError(`${at}[${i}]`, 'must be an object')
      for (const key of Object.keys(row)) {
        if (!table.byName.has(key)) throw fieldError(`${at}[${i}].${key}`, `is not a known column of ${table.name}`)
      }
      for (const column of table.columns) {
        const field = `${at}[${i}].${column.name}`
        if (!Object.hasOwn(row, column.name)) {
          // A document from an older schema lacks the columns added since: they take their DEFAULT.
          if (!older) throw fieldError(field, 'is required')
          if (column.notNull && !column.hasDefault && !column.rowidAlias) throw fieldError(field, 'is required (the column has no default)')
          continue
        }
        const value = row[column.name]
        if (value === null) {
          if (column.notNull) throw fieldError(field, `must not be null (${column.declared} NOT NULL column)`)
          continue
        }
        const check = KIND_CHECKS[column.kind]
        if (!check.ok(value)) throw fieldError(field, `${check.must} (${column.declared || 'untyped'} column), got ${describeValue(value)}`)
      }
    }
  }
}

/** The imported catalog (if any) must be one the running catalog can be rebuilt from. */
function checkCatalogOverride(tables: Doc): void {
  const rows = tables['catalog_override']
  if (!Array.isArray(rows)) return
  rows.forEach((row: Doc, i) => {
    if (typeof row['document'] !== 'string') return
    try {
      validateCatalog(JSON.parse(row['document']), 'imported catalog')
    } catch (error) {
      throw fieldError(`tables.catalog_override[${i}].document`, `is not a valid catalog: ${(error as Error).message}`)
    }
  })
}

const isSqliteError = (error: unknown): error is Error & { code: string } => {
  const code: unknown = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined
  return typeof code === 'string' && code.startsWith('SQLITE_')
}

/** A constraint the database refused on insert (UNIQUE, CHECK), named by the row's path. */
function insertError(error: unknown, table: TableInfo, index: number): unknown {
  if (!isSqliteError(error)) return error
  const at = `tables.${table.name}[${index}]`
  const unique = /^UNIQUE constraint failed: (.+)$/.exec(error.message)
  if (unique) {
    const columns = unique[1]!.split(', ').map((c) => c.slice(c.indexOf('.') + 1))
    return fieldError(`${at}.${columns[0]}`, `repeats a value that must be unique in ${table.name} (${columns.join(', ')})`)
  }
  const check = /^CHECK constraint failed: (.+)$/.exec(error.message)
  if (check) {
    const column = (check[1]!.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []).find((word) => table.byName.has(word))
    return fieldError(column ? `${at}.${column}` : at, `fails the check ${check[1]}`)
  }
  return fieldError(at, `cannot be stored: ${error.message}`)
}

/**
 * Replaces the whole state with the document's: format and version checked (an older envelope is
 * upgraded), every table, column and value checked against the schema (a turn of the event loop at a
 * time: other requests go on meanwhile), then one transaction deletes every table and inserts every
 * row, with foreign keys checked at the end. That transaction is the one part that holds the event
 * loop, for as long as writing the rows takes (it must be whole, on the emulator's one connection).
 * A problem is a 400 naming the path of the bad value, and nothing changes. A document from an older
 * schema (a lower schema_version) imports: its missing columns take their defaults, its missing tables
 * start empty, and the rows a migration moved are read by their tables' owner (StateOwner.upgradeTables).
 * The clock is left as it is. Returns the row count of each table.
 */
export async function importState(ctx: EmulatorContext, body: unknown): Promise<Record<string, number>> {
  const doc = upgrade(body)
  checkEnvelope ??= compileCheck(Envelope)
  const problem = checkEnvelope(doc)
  if (problem) throw fieldError(problem.field, problem.issue)
  const current = schemaVersion(ctx.db)
  const docSchema = doc['schema_version'] as number
  if (docSchema > current) {
    throw fieldError('schema_version', `is ${docSchema}, newer than this emulator's database schema (${current}); import it with a newer emulator`)
  }
  let tables = doc['tables'] as Doc
  // The owner of a table whose rows a migration changed reads them as they were.
  if (docSchema < current) for (const owner of ctx.state.owners) if (owner.upgradeTables) tables = owner.upgradeTables(tables, docSchema)
  const schema = describeSchema(ctx.db)
  const turns = new Turns()
  await checkTables(schema, tables, docSchema < current, turns)
  checkCatalogOverride(tables)
  await checkRows(tables, ctx.state.owners, turns)
  checkSequences(tables, ctx.ids, ctx.state.owners)
  // Settings: each known module's checked before anything is written; one the document lacks goes back to its default.
  const givenSettings = (doc['settings'] ?? {}) as Doc
  const owners = new Map(ctx.state.settings())
  for (const name of Object.keys(givenSettings)) {
    if (!owners.has(name)) throw fieldError(`settings.${name}`, `is not a known setting (known: ${[...owners.keys()].join(', ')})`)
  }
  for (const [name, settings] of owners) settings.check(givenSettings[name] ?? settings.defaults())

  const db = ctx.db
  const statements = new Map<string, { run(...params: unknown[]): { lastInsertRowid: number | bigint } }>()
  const insert = (table: TableInfo, columns: readonly ColumnInfo[]) => {
    const cacheKey = `${table.name}\u0000${columns.map((c) => c.name).join('\u0000')}`
    let stmt = statements.get(cacheKey)
    if (!stmt) {
      stmt =
        columns.length === 0
          ? db.prepare(`INSERT INTO ${q(table.name)} DEFAULT VALUES`)
          : db.prepare(`INSERT INTO ${q(table.name)} (${columns.map((c) => q(c.name)).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`)
      statements.set(cacheKey, stmt)
    }
    return stmt
  }

  const write = db.transaction(() => {
    // Foreign keys are checked once every row is in, so neither deletion nor insertion order matters.
    db.pragma('defer_foreign_keys = ON')
    for (const table of schema) db.exec(`DELETE FROM ${q(table.name)}`)
    const rowids = new Map<string, number[]>()
    for (const table of schema) {
      const rows = (tables[table.name] ?? []) as Doc[]
      const ids: number[] = []
      rows.forEach((row, i) => {
        const columns = table.columns.filter((c) => Object.hasOwn(row, c.name))
        try {
          ids.push(Number(insert(table, columns).run(...columns.map((c) => row[c.name])).lastInsertRowid))
        } catch (error) {
          throw insertError(error, table, i)
        }
      })
      rowids.set(table.name, ids)
    }
    const broken = db.prepare<[], { table: string; rowid: number | null; parent: string; fkid: number }>('PRAGMA foreign_key_check').get()
    if (broken) {
      const fk = db
        .prepare<[string, number], { from: string; to: string | null }>(
          'SELECT "from" AS "from", "to" AS "to" FROM pragma_foreign_key_list(?) WHERE id = ? ORDER BY seq',
        )
        .get(broken.table, broken.fkid)
      const index = broken.rowid === null ? -1 : (rowids.get(broken.table)?.indexOf(broken.rowid) ?? -1)
      const row = index >= 0 ? ((tables[broken.table] as Doc[])[index] ?? {}) : {}
      const field = index < 0 ? `tables.${broken.table}` : fk ? `tables.${broken.table}[${index}].${fk.from}` : `tables.${broken.table}[${index}]`
      const value = fk ? ` (${JSON.stringify(row[fk.from] ?? null)})` : ''
      throw fieldError(field, `refers to a row of ${broken.parent} that the document does not have${value}`)
    }
  })
  try {
    // Its deferred foreign keys are checked at its own commit, not at a batch's (store/db.ts).
    commitBatch(db)
    write.immediate()
  } catch (error) {
    if (isSqliteError(error) && error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
      throw brokenForeignKey(error.message)
    }
    throw error
  }

  // What lives in memory follows the new state: the settings, then what each module rebuilds from its tables.
  for (const [name, settings] of owners) settings.restore(givenSettings[name] ?? settings.defaults())
  ctx.state.changed('import')
  ctx.events.emit('state.reset', { at: ctx.clock.nowIso() })
  return Object.fromEntries(schema.map((t) => [t.name, ((tables[t.name] ?? []) as unknown[]).length]))
}

// ---- One account ---------------------------------------------------------------------------------

/**
 * Puts one account back to how it was created, leaving every other account alone: each module of the
 * lifecycle registry deletes its part (usage, guardrails, charges, video tasks, callback deliveries)
 * and the spend goes back to 0; members, keys and credits stay. One transaction, foreign keys checked
 * at its end. The caller checks the account exists.
 */
export function resetAccount(ctx: EmulatorContext, accountId: string): void {
  commitBatch(ctx.db)
  ctx.db
    .transaction(() => {
      ctx.db.pragma('defer_foreign_keys = ON')
      for (const owner of ctx.state.owners) owner.resetAccount?.(accountId)
    })
    .immediate()
}
