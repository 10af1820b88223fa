// The ledger: every billable action goes through bill(), which allows or denies it in order (model
// allowed, guardrail budget, key limit, credits) and records it. Embeddings and video call it; these
// tests call it directly with a real emulator, then read the effects through the HTTP API.
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../src/emulator/core/errors.ts'
import { usdToNanos } from '../../../src/emulator/core/money.ts'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { bill } from '../../../src/emulator/modules/ledger/ledger.service.ts'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import type { Emulator } from '../../../src/emulator/index.ts'

const MODEL = 'openai/gpt-4.1-mini'

function spend(emu: Emulator, token: string, usd: number, model = MODEL, byok = false) {
  const key = emu.ctx.services.keys.byHash(sha256Hex(token))!
  const account = emu.ctx.services.accounts.get(key.account_id)!
  const { id, canonical_slug, endpoints } = emu.ctx.services.catalog.get().find(model)!
  return bill(emu.ctx, {
    caller: { key, account },
    operation: 'test.spend',
    model: { id, canonical_slug },
    endpoints,
    price: () => ({ prompt_tokens: 10, cost_nanos: usdToNanos(usd) }),
    byok,
  })
}

function denial(fn: () => unknown): ApiError {
  try {
    fn()
  } catch (error) {
    if (error instanceof ApiError) return error
    throw error
  }
  throw new Error('expected a denial')
}

async function tokenOf(emu: TestEmulator, name: string): Promise<string> {
  const account = (await emu.get('/_emulator/api/accounts')).body.data[0]
  return (await emu.get(`/_emulator/api/accounts/${account.id}/keys`)).body.data.find((k: { name: string }) => k.name === name).key
}

const usageRows = (emu: Emulator) => (emu.ctx.db.prepare('SELECT COUNT(*) AS n FROM usage').get() as { n: number }).n

describe('the ledger', () => {
  it('records a usage row, debits the account and moves the key usage in one step', async () => {
    const emu = await testEmulator()
    const billed = spend(emu, emu.keys.standard, 0.25)
    expect(billed.endpoint.provider_name).toBeTruthy()
    const key = (await emu.get('/api/v1/keys', emu.keys.management)).body.data.find((k: { hash: string }) => k.hash === sha256Hex(emu.keys.standard))
    expect(key).toMatchObject({ usage: 0.25, usage_daily: 0.25, usage_weekly: 0.25, usage_monthly: 0.25 })
    const account = (await emu.get('/_emulator/api/accounts')).body.data[0]
    expect(account).toMatchObject({ credits_usd: 100, spent_usd: 0.25, balance_usd: 99.75 })
  })

  it('denies a key over its $0.01 daily limit, and allows it again after 00:00 UTC', async () => {
    const emu = await testEmulator()
    const account = (await emu.get('/_emulator/api/accounts')).body.data[0]
    const token = (await emu.send('POST', `/_emulator/api/accounts/${account.id}/keys`, { limit: 0.01, limit_reset: 'daily' })).body.data.key
    spend(emu, token, 0.006)
    spend(emu, token, 0.006) // allowed: the limit was not yet reached when it started
    const denied = denial(() => spend(emu, token, 0.001))
    expect(denied.status).toBe(402)
    expect(denied.message).toBe('Key limit exceeded (daily limit)')
    expect(denied.metadata).toEqual({ limit_source: 'openrouter_key_limit', limit: 0.01, limit_reset: 'daily', usage: 0.012 })
    expect(usageRows(emu)).toBe(2)

    await emu.clock.advanceTo(Date.parse('2026-03-04T23:59:59Z'))
    expect(denial(() => spend(emu, token, 0.001)).status).toBe(402)
    await emu.clock.advanceTo(Date.parse('2026-03-05T00:00:00Z'))
    expect(spend(emu, token, 0.001).charge.cost_nanos).toBe(1_000_000)
  })

  it('sends 403 for the key limit when configured to', async () => {
    const emu = await testEmulator({ keyLimitStatus: 403 })
    const token = await tokenOf(emu, 'Daily budget')
    spend(emu, token, 5)
    expect(denial(() => spend(emu, token, 0.01)).status).toBe(403)
  })

  it('denies both keys of a guardrail once their shared budget is spent', async () => {
    const emu = await testEmulator()
    const [a, b] = [emu.keys.standard, await tokenOf(emu, 'CI pipeline')]
    const guardrail = (await emu.send('POST', '/api/v1/guardrails', { name: 'team', limit_usd: 0.02, reset_interval: 'weekly' }, emu.keys.management)).body.data
    await emu.send('POST', `/api/v1/guardrails/${guardrail.id}/assignments/keys`, { key_hashes: [sha256Hex(a), sha256Hex(b)] }, emu.keys.management)
    spend(emu, a, 0.015)
    spend(emu, b, 0.01)
    for (const token of [a, b]) {
      const denied = denial(() => spend(emu, token, 0.001))
      expect(denied.status).toBe(402)
      expect(denied.message).toBe('Guardrail budget exceeded (weekly limit): guardrail "team" allows $0.02')
      expect(denied.metadata).toMatchObject({ limit_source: 'guardrail_budget', guardrail_id: guardrail.id, usage_usd: 0.025 })
    }
    // A key outside the guardrail still spends; the next Monday the budget is back.
    spend(emu, await tokenOf(emu, 'Weekly team budget'), 0.01)
    await emu.clock.advanceTo(Date.parse('2026-03-09T00:00:00Z'))
    spend(emu, a, 0.001)
  })

  it('a guardrail budget counts the spend of its members too', async () => {
    const emu = await testEmulator()
    const member = (await emu.get('/api/v1/keys', emu.keys.management)).body.data.find(
      (k: { hash: string }) => k.hash === sha256Hex(emu.keys.standard),
    ).creator_user_id
    const guardrail = (await emu.send('POST', '/api/v1/guardrails', { name: 'member cap', limit_usd: 1 }, emu.keys.management)).body.data
    await emu.send('POST', `/api/v1/guardrails/${guardrail.id}/assignments/members`, { member_user_ids: [member] }, emu.keys.management)
    spend(emu, emu.keys.standard, 1)
    expect(denial(() => spend(emu, emu.keys.standard, 0.01)).message).toMatch(/^Guardrail budget exceeded \(total limit\)/)
  })

  it('denies an account without credits with a 402, unless the usage is BYOK', async () => {
    const emu = await testEmulator()
    const broke = (await emu.send('POST', '/_emulator/api/accounts', { name: 'broke' })).body.data
    const denied = denial(() => spend(emu, broke.standard_key, 0.01))
    expect(denied.status).toBe(402)
    expect(denied.message).toBe('Insufficient credits. This request costs $0.01 and the account has $0 left; add credits with a crypto charge or the admin API')
    expect(denied.metadata).toEqual({ limit_source: 'openrouter_credits', balance_usd: 0, cost_usd: 0.01 })
    expect(usageRows(emu)).toBe(0)
    spend(emu, broke.standard_key, 0.01, MODEL, true)
    const account = (await emu.get(`/_emulator/api/accounts/${broke.id}`)).body.data
    expect(account.spent_usd).toBe(0)
  })

  it('denies a model outside the guardrail allowed_models with a 404, before any budget check', async () => {
    const emu = await testEmulator()
    const guardrail = (await emu.send('POST', '/api/v1/guardrails', { name: 'only mini', allowed_models: [MODEL], limit_usd: 0 }, emu.keys.management)).body
      .data
    await emu.send('POST', `/api/v1/guardrails/${guardrail.id}/assignments/keys`, { key_hashes: [sha256Hex(emu.keys.standard)] }, emu.keys.management)
    const denied = denial(() => spend(emu, emu.keys.standard, 0.01, 'anthropic/claude-sonnet-4'))
    expect(denied.status).toBe(404)
    expect(denied.message).toBe('No endpoints available matching your guardrail restrictions and data policy')
    expect(denied.metadata).toEqual({ model: 'anthropic/claude-sonnet-4', restrictions: [`guardrail ${guardrail.id}`] })
    // The allowed model then meets the (zero) budget.
    expect(denial(() => spend(emu, emu.keys.standard, 0.01)).metadata).toMatchObject({ limit_source: 'guardrail_budget' })
    expect(usageRows(emu)).toBe(0)
  })

  it('routes to an endpoint the policies allow', async () => {
    const emu = await testEmulator()
    const account = (await emu.get('/_emulator/api/accounts')).body.data[0]
    const model = emu.ctx.services.catalog.get().find(MODEL)!
    const zdr = model.endpoints.find((e) => e.zdr)
    if (!zdr) throw new Error(`${MODEL} needs a ZDR endpoint in the fixtures`)
    await emu.send('PATCH', `/_emulator/api/accounts/${account.id}`, { zdr_only: true })
    expect(spend(emu, emu.keys.standard, 0.01).endpoint.zdr).toBe(true)
  })

  it("bills what it is given: the model's names and its endpoints, priced by the one it routes to", async () => {
    const emu = await testEmulator()
    const key = emu.ctx.services.keys.byHash(sha256Hex(emu.keys.standard))!
    const account = emu.ctx.services.accounts.get(key.account_id)!
    const endpoint = (id: string, status: number, usd: number) => ({
      id,
      provider: 'acme',
      provider_name: 'Acme',
      status,
      zdr: false,
      regions: ['us' as const],
      usd,
    })
    const charge = () =>
      bill(emu.ctx, {
        caller: { key, account },
        operation: 'test.custom',
        model: { id: 'acme/model-1', canonical_slug: 'acme/model-1-2026' },
        endpoints: [endpoint('degraded', -2, 0.5), endpoint('healthy', 0, 0.25)],
        price: (chosen) => ({ prompt_tokens: 1, cost_nanos: usdToNanos(chosen.usd) }),
      })
    const billed = charge()
    expect(billed.endpoint.id).toBe('healthy')
    expect(billed.charge.cost_nanos).toBe(250_000_000)

    // Guardrails name the model by its id or its canonical slug.
    const guardrail = (await emu.send('POST', '/api/v1/guardrails', { name: 'by slug', allowed_models: ['acme/model-1-2026'] }, emu.keys.management)).body.data
    await emu.send('POST', `/api/v1/guardrails/${guardrail.id}/assignments/keys`, { key_hashes: [key.hash] }, emu.keys.management)
    expect(charge().usage_id).toBeGreaterThan(billed.usage_id)
    await emu.send('PATCH', `/api/v1/guardrails/${guardrail.id}`, { allowed_models: ['acme/other'] }, emu.keys.management)
    expect(denial(charge).metadata).toEqual({ model: 'acme/model-1', restrictions: [`guardrail ${guardrail.id}`] })
    const keys = (await emu.get('/api/v1/keys', emu.keys.management)).body.data as Array<{ hash: string; usage: number }>
    expect(keys.find((k) => k.hash === key.hash)!.usage).toBe(0.5)
  })

  it('sets a balance through the admin API, counting what was spent', async () => {
    const emu = await testEmulator()
    const account = (await emu.get('/_emulator/api/accounts')).body.data[0]
    spend(emu, emu.keys.standard, 30)
    const res = await emu.send('PUT', `/_emulator/api/accounts/${account.id}/credits`, { balance_usd: 5 })
    expect(res.body.data).toMatchObject({ credits_usd: 35, spent_usd: 30, balance_usd: 5 })
    const both = await emu.send('PUT', `/_emulator/api/accounts/${account.id}/credits`, { balance_usd: 5, credits_usd: 1 })
    expect(both.status).toBe(400)
    expect(both.body.error.message).toBe('Send exactly one of `credits_usd` (credits bought) or `balance_usd` (what is left after spending)')
    // The ledger now denies what the balance cannot pay.
    expect(denial(() => spend(emu, emu.keys.standard, 6)).status).toBe(402)
  })
})
