// All twelve workspace operations through @openrouter/sdk 1.x over real HTTP: every answer passes the
// client's own validation, refusals arrive as its typed errors, and a spent workspace budget stops
// the same client's embeddings with the typed 402.
import { OpenRouter } from '@openrouter/sdk'
import * as errors from '@openrouter/sdk/models/errors'
import { describe, expect, it } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'

const client = (url: string, apiKey: string) => new OpenRouter({ apiKey, serverURL: `${url}/api/v1`, retryConfig: { strategy: 'none' } })

describe('@openrouter/sdk 1.x workspaces', () => {
  it('creates, reads, lists, updates and deletes a workspace; the default one is a typed 403 to delete', async () => {
    const emu = await listeningEmulator()
    const sdk = client(emu.url, emu.keys.management)
    const created = await sdk.workspaces.create({
      createWorkspaceRequest: {
        name: 'Production',
        slug: 'production',
        description: 'Production environment workspace',
        defaultTextModel: 'openai/gpt-4o',
        defaultImageModel: 'openai/dall-e-3',
        defaultProviderSort: 'price',
      },
    })
    const id = created.data.id
    expect(created.data).toMatchObject({ name: 'Production', slug: 'production', defaultTextModel: 'openai/gpt-4o', updatedAt: null, ioLoggingSamplingRate: 1 })
    expect((await sdk.workspaces.get({ id: 'production' })).data.id).toBe(id)

    const page = await sdk.workspaces.list({ limit: 1 })
    expect(page.result.totalCount).toBe(2)
    expect(page.result.data.map((w) => w.slug)).toEqual(['default'])

    const updated = await sdk.workspaces.update({
      id,
      updateWorkspaceRequest: { name: 'Prod', isObservabilityBroadcastEnabled: true, ioLoggingApiKeyIds: [4] },
    })
    expect(updated.data).toMatchObject({ name: 'Prod', isObservabilityBroadcastEnabled: true, ioLoggingApiKeyIds: [4] })

    const refused = await sdk.workspaces.delete({ id: 'default', confirmDefaultWorkspaceDeletion: true }).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(errors.ForbiddenResponseError)
    expect((await sdk.workspaces.delete({ id })).deleted).toBe(true)
    expect(await sdk.workspaces.get({ id }).catch((e: unknown) => e)).toBeInstanceOf(errors.NotFoundResponseError)
    const bad = await sdk.workspaces.create({ createWorkspaceRequest: { name: 'x', slug: 'Not a slug' } }).catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(errors.BadRequestResponseError)
    expect((bad as errors.BadRequestResponseError).error.message).toMatch(/^Field `slug` is not valid/)
  })

  it('sets, reads, lists and deletes budgets, and a spent one stops embeddings with the typed 402', async () => {
    const emu = await listeningEmulator()
    const sdk = client(emu.url, emu.keys.management)
    const monthly = await sdk.workspaces.setBudget({ workspaceRef: 'default', interval: 'monthly', upsertWorkspaceBudgetRequest: { limitUsd: 100 } })
    expect(monthly.data).toMatchObject({ limitUsd: 100, resetInterval: 'monthly' })
    const lifetime = await sdk.workspaces.setBudget({
      workspaceRef: 'default',
      interval: 'lifetime',
      upsertWorkspaceBudgetRequest: { limitUsd: 500, includeByokInBudgets: true },
    })
    expect(lifetime).toMatchObject({ data: { resetInterval: null, limitUsd: 500 }, includeByokInBudgets: true })
    expect((await sdk.workspaces.getBudget({ workspaceRef: 'default', interval: 'monthly' })).data.id).toBe(monthly.data.id)
    const list = await sdk.workspaces.listBudgets({ workspaceRef: 'default' })
    expect(list.data.map((b) => b.resetInterval)).toEqual(['monthly', null])
    expect((await sdk.workspaces.deleteBudget({ workspaceRef: 'default', interval: 'monthly' })).deleted).toBe(true)
    const missing = await sdk.workspaces.getBudget({ workspaceRef: 'default', interval: 'monthly' }).catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(errors.NotFoundResponseError)

    const caller = client(emu.url, emu.keys.standard)
    await caller.embeddings.generate({ requestBody: { model: 'openai/text-embedding-3-small', input: 'spend' } })
    await sdk.workspaces.setBudget({ workspaceRef: 'default', interval: 'daily', upsertWorkspaceBudgetRequest: { limitUsd: 1e-9 } })
    const over = await caller.embeddings.generate({ requestBody: { model: 'openai/text-embedding-3-small', input: 'over' } }).catch((e: unknown) => e)
    expect(over).toBeInstanceOf(errors.PaymentRequiredResponseError)
    expect((over as errors.PaymentRequiredResponseError).error.message).toBe(
      'Workspace budget exceeded (daily limit): workspace "Default Workspace" allows $1e-9',
    )
  })

  it('lists, adds and removes members', async () => {
    const emu = await listeningEmulator()
    const sdk = client(emu.url, emu.keys.management)
    const everyone = await sdk.workspaces.listMembers({ id: 'default' })
    expect(everyone.result.totalCount).toBe(3)
    const [, second, third] = everyone.result.data.map((m) => m.userId)
    const team = (await sdk.workspaces.create({ createWorkspaceRequest: { name: 'Team', slug: 'team' } })).data
    const added = await sdk.workspaces.bulkAddMembers({ id: team.id, bulkAddWorkspaceMembersRequest: { userIds: [second!, third!] } })
    expect(added.addedCount).toBe(2)
    expect(added.data.map((m) => [m.userId, m.role, m.workspaceId])).toEqual([
      [second, 'member', team.id],
      [third, 'member', team.id],
    ])
    expect((await sdk.workspaces.listMembers({ id: 'team', offset: 1, limit: 5 })).result.data.map((m) => m.userId)).toEqual([second, third])
    expect((await sdk.workspaces.bulkRemoveMembers({ id: 'team', bulkRemoveWorkspaceMembersRequest: { userIds: [second!] } })).removedCount).toBe(1)
    const stranger = await sdk.workspaces.bulkAddMembers({ id: 'team', bulkAddWorkspaceMembersRequest: { userIds: ['user_nobody'] } }).catch((e: unknown) => e)
    expect(stranger).toBeInstanceOf(errors.BadRequestResponseError)
  })
})
