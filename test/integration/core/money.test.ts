// Money through the HTTP API (core/money.ts): the largest amounts the APIs accept are credited, spent
// and served exactly. The conversions themselves are pinned in test/unit/core/money.test.ts.
import { describe, expect, it } from 'vitest'
import { nanosToUsd, usdToNanos } from '../../../src/emulator/core/money.ts'
import { testEmulator } from '../../helpers/emulator.ts'

describe('amounts through the API', () => {
  it('the largest charge credits exactly its amount, and spending from it leaves an exact balance', async () => {
    const emu = await testEmulator()
    const res = await emu.send('POST', '/api/v1/credits/crypto', { amount: 2000, sender: `0x${'ab'.repeat(20)}`, chain_id: 8453 }, emu.keys.standard)
    expect(res.status).toBe(200)
    expect(res.body.data.web3_data.transfer_intent.call_data).toMatchObject({ recipient_amount: '1980000000', fee_amount: '20000000' })
    const confirmed = await emu.send('POST', `/_emulator/api/charges/${res.body.data.id}/confirm`)
    expect(confirmed.body.data).toMatchObject({ amount_usd: 2000, credited: true })
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data).toEqual({ total_credits: 2100, total_usage: 0 })

    const embedded = await emu.send('POST', '/api/v1/embeddings', { model: 'openai/text-embedding-3-small', input: 'one two three' }, emu.keys.standard)
    const cost = embedded.body.usage.cost as number
    expect(cost).toBeGreaterThan(0)
    const account = (await emu.get('/_emulator/api/accounts')).body.data[0]
    expect(account).toMatchObject({ credits_usd: 2100, spent_usd: cost, balance_usd: nanosToUsd(usdToNanos(2100) - usdToNanos(cost)) })
  })

  it('serves the largest credits and the lowest balance the admin API accepts unchanged', async () => {
    const emu = await testEmulator()
    const created = (await emu.send('POST', '/_emulator/api/accounts', { credits_usd: 1e9 })).body.data
    expect(created.credits_usd).toBe(1e9)
    const lowest = await emu.send('PUT', `/_emulator/api/accounts/${created.id}/credits`, { balance_usd: 0.000000001 })
    expect(lowest.body.data).toMatchObject({ credits_usd: 1e-9, balance_usd: 1e-9, spent_usd: 0 })
    const refused = await emu.send('PUT', `/_emulator/api/accounts/${created.id}/credits`, { balance_usd: -1e9 })
    expect(refused.status).toBe(400)
    expect(refused.body.error.message).toBe('Field `balance_usd` must be >= -0 for this account: lower would need negative credits (it has spent $0)')
  })
})
