// The seed: what a fresh database and every reset start from. It is a versioned JSON document in the
// fixtures directory; tokens and ids are derived from --seed, so tests can hard-code them.
import { readFileSync, statSync, type Stats } from 'node:fs'
import { Type, type Static } from 'typebox'
import { Value } from 'typebox/value'
import { resolveFixture } from '../config.ts'
import { commitBatch } from './db.ts'
import type { EmulatorContext } from '../modules/module.ts'
import { Nullable, ResetIntervalSchema, StringEnum } from '../http/schemas.ts'

export const SEED_FORMAT_VERSION = 1

const SeedKey = Type.Object({
  kind: StringEnum(['management', 'standard'] as const),
  name: Type.String({ minLength: 1 }),
  disabled: Type.Optional(Type.Boolean()),
  limit_usd: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
  limit_reset: Type.Optional(Nullable(ResetIntervalSchema)),
  include_byok_in_limit: Type.Optional(Type.Boolean()),
  expires_in_days: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0 }))),
  member: Type.Optional(Type.Integer({ minimum: 0 })),
})

const SeedAccount = Type.Object({
  ref: Type.String({ minLength: 1 }),
  name: Type.String({ minLength: 1 }),
  credits_usd: Type.Number({ minimum: 0 }),
  members: Type.Array(Type.Object({ name: Type.String(), email: Type.String(), role: Type.Optional(StringEnum(['admin', 'member'] as const)) }), {
    minItems: 1,
  }),
  keys: Type.Array(SeedKey),
})

export const SeedDocumentSchema = Type.Object({
  version: Type.Literal(SEED_FORMAT_VERSION),
  accounts: Type.Array(SeedAccount, { minItems: 1 }),
})

export type SeedDocument = Static<typeof SeedDocumentSchema>

export class SeedError extends Error {
  override name = 'SeedError'
}

/** Seed files read and checked in this process, by path, with the version of the file they came from. */
const loaded = new Map<string, { mtimeMs: number; size: number; seed: SeedDocument }>()

export function loadSeed(fixturesDir: string, name = 'default'): SeedDocument {
  const path = resolveFixture(fixturesDir, `seeds/${name}.json`)
  // Every emulator of a process (a test suite starts one per test) reads the same two files: the check
  // is made once per version of a file (it was a few percent of a start), and each gets its own copy.
  let version: Stats | undefined
  try {
    version = statSync(path)
  } catch {
    // Said below, as reading it.
  }
  const known = loaded.get(path)
  if (known && version && known.mtimeMs === version.mtimeMs && known.size === version.size) return structuredClone(known.seed)
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new SeedError(`cannot read seed ${path}: ${(error as Error).message}`)
  }
  const first = Value.Errors(SeedDocumentSchema, parsed)[0]
  if (first) throw new SeedError(`seed ${path}: ${first.instancePath || '/'} ${first.message}`)
  if (version) loaded.set(path, { mtimeMs: version.mtimeMs, size: version.size, seed: structuredClone(parsed as SeedDocument) })
  return parsed as SeedDocument
}

export interface SeededKeys {
  management: string
  standard: string
}

/** Creates the seed's accounts. The first account is the default one; its first keys are printed. */
export function applySeed(ctx: EmulatorContext, seed: SeedDocument): void {
  ctx.db
    .transaction(() => {
      for (const account of seed.accounts) {
        ctx.services.signup.createAccount({
          label: `seed:${account.ref}`,
          name: account.name,
          credits_usd: account.credits_usd,
          members: account.members,
          keys: account.keys,
        })
      }
      const first = seed.accounts[0]!
      ctx.db.prepare("INSERT OR REPLACE INTO meta (name, value) VALUES ('default_account', ?)").run(ctx.ids.account(`seed:${first.ref}`))
      // Every id and key of this state derives from the seed: a start with another one must know.
      ctx.db.prepare("INSERT OR REPLACE INTO meta (name, value) VALUES ('seed', ?)").run(String(ctx.config.seed))
    })
    .immediate()
}

export class SeedMismatchError extends Error {
  override name = 'SeedMismatchError'
}

/** The seed the database's state was made with, or null for a database from before it was kept. */
export function storedSeed(ctx: EmulatorContext): number | null {
  const value = ctx.db.prepare<[], { value: string }>("SELECT value FROM meta WHERE name = 'seed'").get()?.value
  return value === undefined ? null : Number(value)
}

/** The default account's first management and standard keys, as stored. */
export function seededKeys(ctx: EmulatorContext): SeededKeys | null {
  const account = defaultAccountId(ctx)
  if (account === null) return null
  const keys = ctx.services.keys.forAccount(account)
  const management = keys.find((k) => k.kind === 'management')?.token
  const standard = keys.find((k) => k.kind === 'standard' && !k.disabled)?.token
  return management && standard ? { management, standard } : null
}

/** Ways to start: the default seed, an account with nothing in it, or the default with 30 days of history. */
export const SEED_PRESETS = ['default', 'empty', 'demo'] as const
export type SeedPreset = (typeof SEED_PRESETS)[number]

/** The default account of the seed (the first one), once applied. */
export function defaultAccountId(ctx: EmulatorContext): string | null {
  return ctx.db.prepare<[], { value: string }>("SELECT value FROM meta WHERE name = 'default_account'").get()?.value ?? null
}

/**
 * Empties every table of the state (as the lifecycle registry lists them; the clock's position stays),
 * then applies the seed again, all in one transaction.
 */
export function resetState(ctx: EmulatorContext, seed: SeedDocument, after?: () => void): void {
  const tables = ctx.state.tables()
  // Its deferred foreign keys are checked at its own commit, not at a batch's (db.ts).
  commitBatch(ctx.db)
  ctx.db
    .transaction(() => {
      // Checked at commit, when every table is empty, so the deletion order does not matter.
      ctx.db.pragma('defer_foreign_keys = ON')
      for (const table of tables) ctx.db.exec(`DELETE FROM "${table}"`)
      applySeed(ctx, seed)
      after?.()
    })
    .immediate()
}
