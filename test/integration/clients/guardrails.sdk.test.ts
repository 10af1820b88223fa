// All seven guardrail operations (and the read side) through both generations of the official
// TypeScript client, over real HTTP: every response passes the clients' own validation.
import { OpenRouter } from '@openrouter/sdk'
import * as errors from '@openrouter/sdk/models/errors'
import { OpenRouter as LegacyOpenRouter } from 'openrouter-sdk-legacy'
import * as legacyErrors from 'openrouter-sdk-legacy/models/errors'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { listeningEmulator } from '../../helpers/emulator.ts'

async function memberOf(url: string, managementKey: string, standardKey: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/keys`, { headers: { authorization: `Bearer ${managementKey}` } })
  const body = (await res.json()) as { data: Array<{ hash: string; creator_user_id: string }> }
  return body.data.find((k) => k.hash === sha256Hex(standardKey))!.creator_user_id
}

describe('@openrouter/sdk 1.x', () => {
  it('creates, reads, lists, updates, assigns, unassigns and deletes', async () => {
    const emu = await listeningEmulator()
    const client = new OpenRouter({ apiKey: emu.keys.management, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const created = await client.guardrails.create({
      createGuardrailRequest: { name: 'SDK guardrail', limitUsd: 50, resetInterval: 'monthly', allowedProviders: ['openai'], enforceZdr: false },
    })
    const id = created.data.id
    expect(created.data).toMatchObject({ name: 'SDK guardrail', limitUsd: 50, resetInterval: 'monthly', includeByokInBudgets: false })
    expect((await client.guardrails.get({ id })).data.name).toBe('SDK guardrail')
    const listed = await client.guardrails.list()
    expect(listed.result.totalCount).toBe(1)

    const updated = await client.guardrails.update({ id, updateGuardrailRequest: { description: 'Now described', allowedModels: ['openai/gpt-4.1'] } })
    expect(updated.data).toMatchObject({ description: 'Now described', allowedModels: ['openai/gpt-4.1'] })

    const hash = sha256Hex(emu.keys.standard)
    expect((await client.guardrails.bulkAssignKeys({ id, bulkAssignKeysRequest: { keyHashes: [hash] } })).assignedCount).toBe(1)
    const keyAssignments = await client.guardrails.listGuardrailKeyAssignments({ id })
    expect(keyAssignments.result.data.map((a) => a.keyHash)).toEqual([hash])
    expect((await client.guardrails.listKeyAssignments()).result.totalCount).toBe(1)
    expect((await client.guardrails.bulkUnassignKeys({ id, bulkUnassignKeysRequest: { keyHashes: [hash] } })).unassignedCount).toBe(1)

    const member = await memberOf(emu.url, emu.keys.management, emu.keys.standard)
    expect((await client.guardrails.bulkAssignMembers({ id, bulkAssignMembersRequest: { memberUserIds: [member] } })).assignedCount).toBe(1)
    const memberAssignments = await client.guardrails.listGuardrailMemberAssignments({ id })
    expect(memberAssignments.result.data[0]!.userId).toBe(member)
    expect((await client.guardrails.listMemberAssignments()).result.totalCount).toBe(1)
    expect((await client.guardrails.bulkUnassignMembers({ id, bulkUnassignMembersRequest: { memberUserIds: [member] } })).unassignedCount).toBe(1)

    expect((await client.guardrails.delete({ id })).deleted).toBe(true)
    const gone = await client.guardrails.get({ id }).catch((e: unknown) => e)
    expect(gone).toBeInstanceOf(errors.NotFoundResponseError)
  })

  it('surfaces a bad name as the typed 400', async () => {
    const emu = await listeningEmulator()
    const client = new OpenRouter({ apiKey: emu.keys.management, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const err = await client.guardrails.create({ createGuardrailRequest: { name: '' } }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(errors.BadRequestResponseError)
    expect((err as errors.BadRequestResponseError).error.message).toBe('Field `name` must not be empty')
  })
})

describe('@openrouter/sdk 0.11 (previous generation)', () => {
  it('creates, updates, assigns, unassigns and deletes', async () => {
    const emu = await listeningEmulator()
    const client = new LegacyOpenRouter({ apiKey: emu.keys.management, serverURL: `${emu.url}/api/v1` })
    const created = await client.guardrails.create({ requestBody: { name: 'Legacy', limitUsd: 10, resetInterval: 'daily', ignoredProviders: ['azure'] } })
    const id = created.data.id
    expect(created.data).toMatchObject({ name: 'Legacy', limitUsd: 10, resetInterval: 'daily' })
    expect((await client.guardrails.update({ id, requestBody: { enforceZdr: true } })).data.enforceZdr).toBe(true)
    expect((await client.guardrails.list()).totalCount).toBe(1)

    const hash = sha256Hex(emu.keys.standard)
    expect((await client.guardrails.bulkAssignKeys({ id, requestBody: { keyHashes: [hash] } })).assignedCount).toBe(1)
    expect((await client.guardrails.listGuardrailKeyAssignments({ id })).data).toHaveLength(1)
    expect((await client.guardrails.bulkUnassignKeys({ id, requestBody: { keyHashes: [hash] } })).unassignedCount).toBe(1)
    const member = await memberOf(emu.url, emu.keys.management, emu.keys.standard)
    expect((await client.guardrails.bulkAssignMembers({ id, requestBody: { memberUserIds: [member] } })).assignedCount).toBe(1)
    expect((await client.guardrails.listGuardrailMemberAssignments({ id })).data).toHaveLength(1)
    expect((await client.guardrails.bulkUnassignMembers({ id, requestBody: { memberUserIds: [member] } })).unassignedCount).toBe(1)
    expect((await client.guardrails.delete({ id })).deleted).toBe(true)
    const gone = await client.guardrails.delete({ id }).catch((e: unknown) => e)
    expect(gone).toBeInstanceOf(legacyErrors.NotFoundResponseError)
  })
})
