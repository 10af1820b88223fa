// What the workspaces tests share: the seeded account's ids and a key placed in a workspace.
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { insertKey } from '../../../src/emulator/modules/keys/keys.service.ts'
import type { TestEmulator } from '../../helpers/emulator.ts'

export const ADMIN = '/_emulator/api'
export const WS = '/api/v1/workspaces'
export const EMBEDDINGS_MODEL = 'openai/text-embedding-3-small'
export const CHAT_MODEL = 'openai/gpt-4o-mini'
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

export interface SeededAccount {
  id: string
  workspace_id: string
  members: Array<{ id: string; role: string }>
}

export async function seededAccount(emu: TestEmulator): Promise<SeededAccount> {
  const id = (await emu.get(`${ADMIN}/accounts`)).body.data[0].id as string
  return (await emu.get(`${ADMIN}/accounts/${id}`)).body.data as SeededAccount
}

export async function createWorkspace(emu: TestEmulator, body: Record<string, unknown>, key = emu.keys.management) {
  const res = await emu.send('POST', WS, body, key)
  if (res.status !== 201) throw new Error(`workspace not created: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.data as { id: string; slug: string; name: string }
}

/**
 * A new standard key of the account in this workspace, made as the keys area makes every key
 * (POST /keys and the admin API go through insertKey too). Returns its token and hash.
 */
export function keyInWorkspace(emu: TestEmulator, accountId: string, workspaceId: string, creator: string | null): { token: string; hash: string } {
  const { token } = emu.ctx.db
    .transaction(() =>
      insertKey(emu.ctx, {
        account_id: accountId,
        kind: 'standard',
        name: 'workspace key',
        label: emu.ctx.ids.next('key'),
        creator_user_id: creator,
        workspace_id: workspaceId,
      }),
    )
    .immediate()
  return { token, hash: sha256Hex(token) }
}

export const embed = (emu: TestEmulator, key: string, input = 'hello') => emu.send('POST', '/api/v1/embeddings', { model: EMBEDDINGS_MODEL, input }, key)
export const chat = (emu: TestEmulator, key: string) =>
  emu.send('POST', '/api/v1/chat/completions', { model: CHAT_MODEL, messages: [{ role: 'user', content: 'hello' }] }, key)

/** Usage rows of the whole database, and the account's spend: what a refused request must not change. */
export function ledgerState(emu: TestEmulator): { rows: number; spent: number } {
  const rows = emu.ctx.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM usage').get()!.n
  const spent = emu.ctx.db.prepare<[], { s: number }>('SELECT COALESCE(SUM(spent_nanos), 0) AS s FROM accounts').get()!.s
  return { rows, spent }
}
