// The words the Data view's management sections use, what refreshes them, and the one rule that keeps
// secrets off the page: a destination shows the host it sends to, never the rest of its address.
import { describe, expect, it } from 'vitest'
import type { AccountDestination } from '../../../src/emulator/admin/types.ts'
import type { DestinationObject } from '../../../src/emulator/modules/observability/observability.schemas.ts'
import {
  budgetsText,
  destinationHost,
  managementJournalKeys,
  memberCountText,
  presetVersionText,
  workspaceName,
} from '../../../src/renderer/src/features/data/management.ts'

// The inspector's hand-written destination type must keep fitting what the admin route answers.
const fits = (destination: DestinationObject): AccountDestination => destination
void fits

const money = (n: number) => `$${n.toFixed(2)}`
const budget = (limit_usd: number, reset_interval: 'daily' | 'weekly' | 'monthly' | null) => ({
  id: 'b',
  workspace_id: 'w',
  limit_usd,
  reset_interval,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
})

describe('destinationHost', () => {
  it('shows only the host of the address traces go to, never its path, query or user info', () => {
    expect(destinationHost({ config: { url: 'https://user:pw@hooks.example.com:8443/t/SECRET?token=abc', method: 'POST' } })).toBe('hooks.example.com:8443')
    expect(destinationHost({ config: { endpoint: 'http://collector.local:4318/v1/traces' } })).toBe('collector.local:4318')
    expect(destinationHost({ config: { apiKey: 'sk-...AbCd', baseUrl: 'https://cloud.langfuse.com' } })).toBe('cloud.langfuse.com')
  })
  it('says nothing for a config without an http(s) address', () => {
    expect(destinationHost({ config: { apiKey: 'sk-...AbCd' } })).toBeNull()
    expect(destinationHost({ config: { host: 'clickhouse.internal', password: '****' } })).toBeNull()
    expect(destinationHost({ config: { url: 'ftp://files.example.com/x' } })).toBeNull()
  })
})

describe('the sections’ words', () => {
  it('budgets, narrowest first as the API orders them, a lifetime one by name', () => {
    expect(budgetsText([], money)).toBeNull()
    expect(budgetsText([budget(2.5, 'daily'), budget(50, null)], money)).toBe('$2.50 daily, $50.00 lifetime')
  })
  it('the designated version of a preset', () => {
    const versions = [
      { id: 'v1', version: 1 },
      { id: 'v2', version: 2 },
    ] as Parameters<typeof presetVersionText>[0]['versions']
    expect(presetVersionText({ designated_version_id: 'v2', versions })).toBe('v2')
    expect(presetVersionText({ designated_version_id: null, versions: [] })).toBeNull()
  })
  it('workspace names and member counts', () => {
    const workspaces = [{ id: 'w1', name: 'Team' }]
    expect(workspaceName(workspaces, 'w1')).toBe('Team')
    expect(workspaceName(workspaces, 'gone')).toBe('gone')
    expect(workspaceName(undefined, null)).toBe('all workspaces')
    expect(memberCountText(1)).toBe('1 member')
    expect(memberCountText(3)).toBe('3 members')
  })
})

describe('managementJournalKeys', () => {
  it('refreshes the section a successful gateway write touched', () => {
    expect(managementJournalKeys({ operation: 'workspaces.budgets.set', method: 'PUT', status: 200 })).toEqual([['workspaces']])
    expect(managementJournalKeys({ operation: 'byok.create', method: 'POST', status: 201 })).toEqual([['byok']])
    expect(managementJournalKeys({ operation: 'presets.chat.create', method: 'POST', status: 200 })).toEqual([['presets']])
    expect(managementJournalKeys({ operation: 'observability.destinations.delete', method: 'DELETE', status: 200 })).toEqual([['observability']])
  })
  it('leaves them alone for reads, refusals and other areas', () => {
    expect(managementJournalKeys({ operation: 'workspaces.list', method: 'GET', status: 200 })).toEqual([])
    expect(managementJournalKeys({ operation: 'byok.create', method: 'POST', status: 400 })).toEqual([])
    expect(managementJournalKeys({ operation: 'keys.create', method: 'POST', status: 201 })).toEqual([])
  })
})
