// What each area's contract cases are made of (test/integration/<area>/*.contract.ts, collected by
// contract.test.ts): a case names its operation, what it sends and the status it expects; the runner
// checks the answer against the real document's operation (or the vendor's shape) that `real` names.
import type { EmulatorOptions } from '../../../src/emulator/index.ts'
import { dataUri, png } from '../../helpers/images.ts'
import type { TestEmulator } from '../../helpers/emulator.ts'
import type { Answer } from './shapes.ts'

export const MODEL = 'openai/text-embedding-3-small'
export const CHAT_MODEL = 'openai/gpt-4o-mini'
export const MESSAGES_MODEL = 'anthropic/claude-sonnet-4'
export const IMG = dataUri(png(64, 36), 'image/png')

export type Real = { gateway: [method: string, path: string] } | { vendor: 'create' | 'query' | 'cancel' | 'list' } | { own: string }

export interface Case {
  /** The emulator's operation id (its OpenAPI document's operationId). */
  operation: string
  name: string
  status: number
  options?: EmulatorOptions
  run: (emu: TestEmulator) => Promise<Answer>
}

/** What an area's `*.contract.ts` exports. */
export interface AreaContract {
  /** Where each of its operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
  real: Record<string, Real>
  /**
   * Answers that differ from the real documents on purpose, by `operation status`: the spec says so, or
   * the real service has no such answer. Each is a row of the fidelity table in docs/fidelity.md.
   */
  deliberate?: Record<string, string>
  cases: Case[]
}

export const auth = (key?: string) => (key ? { authorization: `Bearer ${key}` } : {})
export const get = (emu: TestEmulator, url: string, key?: string) => emu.get(url, key)
export const send = (emu: TestEmulator, method: 'POST' | 'PATCH' | 'DELETE', url: string, body: unknown, key?: string) => emu.send(method, url, body, key)
export const malformed = (emu: TestEmulator, method: 'POST' | 'PATCH', url: string, key?: string) =>
  emu.request({ method, url, headers: { ...auth(key), 'content-type': 'application/json' }, payload: '{"name": ' })

export async function firstKey(emu: TestEmulator): Promise<{ hash: string; creator_user_id: string }> {
  return (await get(emu, '/api/v1/keys', emu.keys.management)).body.data[0]
}

export async function brokeAccountKey(emu: TestEmulator): Promise<string> {
  return (await send(emu, 'POST', '/_emulator/api/accounts', {})).body.data.standard_key
}

export const NO_UUID = '00000000-0000-4000-8000-000000000000'

/** The default account's id and workspace. */
export async function defaultAccount(emu: TestEmulator): Promise<{ id: string; workspace_id: string }> {
  return (await get(emu, '/_emulator/api/accounts')).body.data[0]
}

/** The common failures of an authenticated gateway operation. */
export function authCases(
  operation: string,
  call: (emu: TestEmulator, key?: string) => Promise<Answer>,
  kind: 'management' | 'standard' | 'any',
  wrongKindStatus = 401,
): Case[] {
  const cases: Case[] = [
    { operation, name: 'no key', status: 401, run: (emu) => call(emu) },
    { operation, name: 'an unknown key', status: 401, run: (emu) => call(emu, 'sk-gw-v1-nobody') },
  ]
  if (kind === 'management') cases.push({ operation, name: 'a standard key', status: wrongKindStatus, run: (emu) => call(emu, emu.keys.standard) })
  if (kind === 'standard') cases.push({ operation, name: 'a management key', status: wrongKindStatus, run: (emu) => call(emu, emu.keys.management) })
  return cases
}
