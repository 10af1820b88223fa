// A state document as the admin API exports it, changed and imported back: how a test lays in many
// rows at once (thousands of presets, credentials, workspaces) to reach a bound without thousands of calls.
import { expect } from 'vitest'
import type { TestEmulator } from './emulator.ts'

const ADMIN = '/_emulator/api'

export type StateRow = Record<string, unknown>
export type StateDoc = { tables: Record<string, StateRow[]> } & Record<string, unknown>

export const exportDoc = async (emu: TestEmulator): Promise<StateDoc> => (await emu.get(`${ADMIN}/export`)).body as StateDoc

export const importDoc = (emu: TestEmulator, doc: StateDoc) => emu.send('POST', `${ADMIN}/import`, doc)

/** The document with these tables replaced. */
export const withTables = (doc: StateDoc, tables: Record<string, StateRow[]>): StateDoc => ({ ...doc, tables: { ...doc.tables, ...tables } })

/** Imports the emulator's own state with these tables replaced; it must be taken. */
export async function layIn(emu: TestEmulator, tables: Record<string, StateRow[]>): Promise<void> {
  const res = await importDoc(emu, withTables(await exportDoc(emu), tables))
  expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200)
}

/** A uuid no sequence of the emulator mints: `kind` tells the tables apart, `n` the rows. */
export const laidId = (kind: number, n: number): string => `00000000-0000-4000-8${kind.toString(16).padStart(3, '0')}-${n.toString(16).padStart(12, '0')}`

export interface MadeAccount {
  id: string
  workspace_id: string
  management_key: string
  standard_key: string
}

/** `n` more accounts, made over the admin API. */
export async function moreAccounts(emu: TestEmulator, n: number): Promise<MadeAccount[]> {
  const made: MadeAccount[] = []
  for (let i = 0; i < n; i++) made.push((await emu.send('POST', `${ADMIN}/accounts`, {})).body.data as MadeAccount)
  return made
}
