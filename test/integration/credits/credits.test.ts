import { describe, expect, it } from 'vitest'
import { CreateCoinbaseChargeResponse$inboundSchema } from 'openrouter-sdk-legacy/models/operations'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { testEmulator, TEST_START, type TestEmulator } from '../../helpers/emulator.ts'

const SENDER = '0x52908400098527886E0F7030069857D2E4169EE7'
const BODY = { amount: 10, sender: SENDER, chain_id: 8453 }
const HOUR = 3_600_000

type Emu = Awaited<ReturnType<typeof testEmulator>>

const charge = (emu: TestEmulator, key: string, body: unknown = BODY, path = 'crypto') => emu.send('POST', `/api/v1/credits/${path}`, body, key)
const credits = async (emu: TestEmulator, key: string) => (await emu.get('/api/v1/credits', key)).body.data

describe('POST /api/v1/credits/crypto and /credits/coinbase', () => {
  it.each(['crypto', 'coinbase'])('creates a charge on /credits/%s that the previous SDK parses', async (path) => {
    const emu = await testEmulator()
    const res = await charge(emu, emu.keys.standard, BODY, path)
    expect(res.status).toBe(200)
    const parsed = CreateCoinbaseChargeResponse$inboundSchema.parse(res.body)
    expect(parsed.data.web3Data.transferIntent.callData.recipientAmount).toBe('9900000')

    const data = res.body.data
    expect(Object.keys(data)).toEqual(['id', 'created_at', 'expires_at', 'web3_data'])
    expect(data.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(data.created_at).toBe(TEST_START)
    expect(data.expires_at).toBe('2026-03-04T11:00:00.000Z')
    const { call_data, metadata } = data.web3_data.transfer_intent
    expect(call_data).toEqual({
      deadline: data.expires_at,
      fee_amount: '100000',
      id: expect.stringMatching(/^0x[0-9a-f]{32}$/),
      operator: '0x8fccc78dae0a8f93b0fe6799de888d4c57e273db',
      prefix: '0x4b3220496e666f726d6174696f6e616c204d6573736167653a20333220',
      recipient: expect.stringMatching(/^0x[0-9a-f]{40}$/),
      recipient_amount: '9900000',
      recipient_currency: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      refund_destination: SENDER,
      signature: expect.stringMatching(/^0x[0-9a-f]{130}$/),
    })
    expect(metadata).toEqual({ chain_id: 8453, contract_address: '0x9Bb4D44e6963260A1850926E8f6bEB8d5803836F', sender: SENDER })
  })

  it('uses the USDC and transfers contract of each chain, and exact 1% fees with no float noise', async () => {
    const emu = await testEmulator()
    const intent = async (amount: number, chain_id: number) =>
      (await charge(emu, emu.keys.standard, { amount, sender: SENDER, chain_id })).body.data.web3_data.transfer_intent
    const eth = await intent(0.3, 1)
    expect(eth.call_data).toMatchObject({ recipient_currency: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', recipient_amount: '297000', fee_amount: '3000' })
    expect(eth.metadata.contract_address).toBe('0x7915f087685fffD71608E5d118f3B70c27D9eF4e')
    const polygon = await intent(2000, 137)
    expect(polygon.call_data).toMatchObject({
      recipient_currency: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
      recipient_amount: '1980000000',
      fee_amount: '20000000',
    })
    expect(polygon.metadata.contract_address).toBe('0x7f52269092F2a5EF06C36C91e46F9196deb90336')
    expect((await intent(0.1, 8453)).call_data).toMatchObject({ recipient_amount: '99000', fee_amount: '1000' })
  })

  it('is deterministic: same seed, same calls, same charges; a second charge differs but keeps the recipient', async () => {
    const a = await testEmulator()
    const b = await testEmulator()
    const first = (await charge(a, a.keys.standard)).body
    expect((await charge(b, b.keys.standard)).body).toEqual(first)
    const second = (await charge(a, a.keys.standard)).body.data
    expect(second.id).not.toBe(first.data.id)
    const [c1, c2] = [first.data.web3_data.transfer_intent.call_data, second.web3_data.transfer_intent.call_data]
    expect(c2.id).not.toBe(c1.id)
    expect(c2.signature).not.toBe(c1.signature)
    expect(c2.recipient).toBe(c1.recipient)
  })

  it('expires_at follows the clock and chargeExpiryMs', async () => {
    const emu = await testEmulator({ chargeExpiryMs: 15 * 60_000 })
    await emu.clock.advance('2h')
    const data = (await charge(emu, emu.keys.management)).body.data
    expect(data.created_at).toBe('2026-03-04T12:00:00.000Z')
    expect(data.expires_at).toBe('2026-03-04T12:15:00.000Z')
    expect(data.web3_data.transfer_intent.call_data.deadline).toBe(data.expires_at)
  })

  const field = (name: string, issue: string) => ({
    error: { code: 400, message: `Field \`${name}\` ${issue}`, metadata: { field: name, location: 'body', issue } },
  })

  it.each([
    ['amount 0', { ...BODY, amount: 0 }, field('amount', 'must be > 0')],
    ['a negative amount', { ...BODY, amount: -5 }, field('amount', 'must be > 0')],
    ['an amount over the cap', { ...BODY, amount: 2000.01 }, field('amount', 'must be <= 2000 (the largest charge)')],
    ['an amount below one USDC unit', { ...BODY, amount: 0.0000001 }, field('amount', 'must be at least 0.000001 (one USDC base unit)')],
    ['a string amount', { ...BODY, amount: '10' }, field('amount', 'must be a number')],
    ['a missing amount', { sender: SENDER, chain_id: 1 }, field('amount', 'is required')],
    ['a missing sender', { amount: 10, chain_id: 1 }, field('sender', 'is required')],
    ['a short sender', { ...BODY, sender: '0x1234' }, field('sender', 'must be a 0x address of 40 hex digits')],
    ['a sender without 0x', { ...BODY, sender: SENDER.slice(2) + '00' }, field('sender', 'must be a 0x address of 40 hex digits')],
    ['a sender with a non-hex digit', { ...BODY, sender: `${SENDER.slice(0, -1)}g` }, field('sender', 'must be a 0x address of 40 hex digits')],
    ['a numeric sender', { ...BODY, sender: 12 }, field('sender', 'must be a string')],
    ['chain_id 2', { ...BODY, chain_id: 2 }, field('chain_id', 'must be one of 1, 137, 8453')],
    ['a string chain_id', { ...BODY, chain_id: '8453' }, field('chain_id', 'must be an integer')],
    ['a missing chain_id', { amount: 10, sender: SENDER }, field('chain_id', 'is required')],
    ['an empty object', {}, field('amount', 'is required')],
  ])('rejects %s with a 400 naming the field', async (_name, body, expected) => {
    const emu = await testEmulator()
    const res = await charge(emu, emu.keys.standard, body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual(expected)
  })

  it('rejects a missing body, and respects a configured cap', async () => {
    const emu = await testEmulator({ chargeCapUsd: 50 })
    const none = await emu.send('POST', '/api/v1/credits/coinbase', undefined, emu.keys.standard)
    expect(none.status).toBe(400)
    expect(none.body).toEqual({
      error: { code: 400, message: 'Request body must be an object', metadata: { field: null, location: 'body', issue: 'must be an object' } },
    })
    const over = await charge(emu, emu.keys.standard, { ...BODY, amount: 51 })
    expect(over.body.error.message).toBe('Field `amount` must be <= 50 (the largest charge)')
    expect((await charge(emu, emu.keys.standard, { ...BODY, amount: 50 })).status).toBe(200)
  })

  it('401 without a key or with an unknown one', async () => {
    const emu = await testEmulator()
    const none = await emu.send('POST', '/api/v1/credits/crypto', BODY)
    expect(none.status).toBe(401)
    expect(none.body).toEqual({ error: { code: 401, message: 'No auth credentials found' } })
    expect((await charge(emu, 'sk-gw-v1-nope')).body).toEqual({ error: { code: 401, message: 'User not found.' } })
    expect((await emu.get('/api/v1/credits')).status).toBe(401)
  })
})

describe('confirming and expiring charges', () => {
  const create = async (emu: Emu, key = emu.keys.standard, body: unknown = BODY) => (await charge(emu, key, body)).body.data.id as string
  const admin = (emu: Emu, id: string, action: 'confirm' | 'expire') => emu.send('POST', `/_emulator/api/charges/${id}/${action}`)

  it('GET /credits shows credits and usage; a confirmation credits the account once', async () => {
    const emu = await testEmulator()
    expect(await credits(emu, emu.keys.standard)).toEqual({ total_credits: 100, total_usage: 0 })
    const id = await create(emu)
    // A pending charge credits nothing.
    expect((await credits(emu, emu.keys.management)).total_credits).toBe(100)
    await emu.clock.advance('10m')
    const first = await admin(emu, id, 'confirm')
    expect(first.status).toBe(200)
    expect(first.body.data).toMatchObject({
      id,
      account_id: emu.ctx.services.keys.byHash(sha256Hex(emu.keys.standard))!.account_id,
      amount_usd: 10,
      chain_id: 8453,
      sender: SENDER,
      status: 'confirmed',
      confirmed_at: '2026-03-04T10:10:00.000Z',
      credited: true,
    })
    expect(await credits(emu, emu.keys.standard)).toEqual({ total_credits: 110, total_usage: 0 })
    const again = await admin(emu, id, 'confirm')
    expect(again.status).toBe(200)
    expect(again.body.data).toMatchObject({ status: 'confirmed', confirmed_at: '2026-03-04T10:10:00.000Z', credited: false })
    expect((await credits(emu, emu.keys.standard)).total_credits).toBe(110)
    // A confirmed charge cannot expire, neither by hand nor by the clock.
    const expire = await admin(emu, id, 'expire')
    expect(expire.status).toBe(409)
    expect(expire.body).toEqual({ error: { code: 409, message: `Charge ${id} is already confirmed`, metadata: { status: 'confirmed' } } })
    await emu.clock.advance('2h')
    expect((await emu.get(`/_emulator/api/charges/${id}`)).body.data.status).toBe('confirmed')
  })

  it('a charge past its expires_at is expired and cannot be confirmed', async () => {
    const emu = await testEmulator()
    const id = await create(emu)
    await emu.clock.advance('1h')
    const res = await admin(emu, id, 'confirm')
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ error: { code: 409, message: `Charge ${id} expired at 2026-03-04T11:00:00.000Z`, metadata: { status: 'expired' } } })
    const view = await emu.get(`/_emulator/api/charges/${id}`)
    expect(view.body.data).toMatchObject({ status: 'expired', confirmed_at: null })
    expect((await credits(emu, emu.keys.standard)).total_credits).toBe(100)
  })

  it('expires even when the clock jumps past expires_at without running due work', async () => {
    const emu = await testEmulator()
    const id = await create(emu)
    emu.clock.set(Date.parse(TEST_START) + 2 * HOUR)
    expect((await admin(emu, id, 'confirm')).status).toBe(409)
    expect((await emu.get(`/_emulator/api/charges/${id}`)).body.data.status).toBe('expired')
  })

  it('the expire endpoint ends a pending charge; expiring again changes nothing', async () => {
    const emu = await testEmulator()
    const events: string[] = []
    // The charge's own events (each admin write also sends admin.changed, for the inspector).
    emu.ctx.events.onAny((e) => e.type !== 'admin.changed' && events.push(e.type))
    const id = await create(emu)
    const res = await admin(emu, id, 'expire')
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ id, status: 'expired', confirmed_at: null, amount_usd: 10 })
    expect((await admin(emu, id, 'expire')).body.data.status).toBe('expired')
    expect((await admin(emu, id, 'confirm')).status).toBe(409)
    expect(events).toEqual(['charge.created', 'charge.expired'])
  })

  it('404 for an unknown charge', async () => {
    const emu = await testEmulator()
    const notFound = { error: { code: 404, message: 'Charge nope not found' } }
    expect((await emu.get('/_emulator/api/charges/nope')).body).toEqual(notFound)
    expect((await admin(emu, 'nope', 'confirm')).body).toEqual(notFound)
    const expire = await admin(emu, 'nope', 'expire')
    expect(expire.status).toBe(404)
    expect(expire.body).toEqual(notFound)
  })

  it('auto-confirms after chargeAutoConfirmMs as the clock advances', async () => {
    const emu = await testEmulator({ chargeAutoConfirmMs: 60_000 })
    const events: string[] = []
    emu.ctx.events.onAny((e) => events.push(e.type))
    const id = await create(emu)
    await emu.clock.advance('59s')
    expect((await credits(emu, emu.keys.standard)).total_credits).toBe(100)
    await emu.clock.advance('1s')
    expect((await credits(emu, emu.keys.standard)).total_credits).toBe(110)
    expect((await emu.get(`/_emulator/api/charges/${id}`)).body.data).toMatchObject({ status: 'confirmed', confirmed_at: '2026-03-04T10:01:00.000Z' })
    // Nothing more is due: the charge does not expire or credit again later.
    await emu.clock.advance('2h')
    expect((await credits(emu, emu.keys.standard)).total_credits).toBe(110)
    expect(events).toEqual(['charge.created', 'charge.confirmed'])
  })

  it('settles in time order across a jump: auto-confirm before expiry confirms, at its own time', async () => {
    const emu = await testEmulator({ chargeAutoConfirmMs: 60_000 })
    const id = await create(emu)
    emu.clock.set(Date.parse(TEST_START) + 3 * HOUR)
    await emu.clock.runDue()
    expect((await emu.get(`/_emulator/api/charges/${id}`)).body.data).toMatchObject({ status: 'confirmed', confirmed_at: '2026-03-04T10:01:00.000Z' })
    expect((await credits(emu, emu.keys.standard)).total_credits).toBe(110)
  })

  it('an auto-confirm later than the expiry never fires: the charge expires', async () => {
    const emu = await testEmulator({ chargeAutoConfirmMs: 2 * HOUR })
    const id = await create(emu)
    await emu.clock.advance('3h')
    expect((await emu.get(`/_emulator/api/charges/${id}`)).body.data.status).toBe('expired')
    expect((await credits(emu, emu.keys.standard)).total_credits).toBe(100)
  })

  it('accounts are isolated; the admin list is newest first and filters by account', async () => {
    const emu = await testEmulator()
    const other = (await emu.send('POST', '/_emulator/api/accounts', { name: 'other', credits_usd: 5 })).body.data
    const seededAccount = emu.ctx.services.keys.byHash(sha256Hex(emu.keys.standard))!.account_id
    const mine = await create(emu)
    await emu.clock.advance('1m')
    const theirs = await create(emu, other.standard_key, { ...BODY, amount: 20 })
    await emu.clock.advance('1m')
    const mine2 = await create(emu, emu.keys.management)
    await admin(emu, mine, 'confirm')
    expect(await credits(emu, other.standard_key)).toEqual({ total_credits: 5, total_usage: 0 })
    expect(await credits(emu, emu.keys.standard)).toEqual({ total_credits: 110, total_usage: 0 })
    await admin(emu, theirs, 'confirm')
    expect(await credits(emu, other.management_key)).toEqual({ total_credits: 25, total_usage: 0 })
    expect((await credits(emu, emu.keys.standard)).total_credits).toBe(110)

    const ids = async (query: string) => (await emu.get(`/_emulator/api/charges${query}`)).body.data.map((c: { id: string }) => c.id)
    expect(await ids('')).toEqual([mine2, theirs, mine])
    expect(await ids(`?account=${seededAccount}`)).toEqual([mine2, mine])
    expect(await ids(`?account=${other.id}`)).toEqual([theirs])
    expect(await ids('?account=acct_unknown')).toEqual([])
    // Each charge's recipient is the account's own.
    const recipients = (await emu.get('/_emulator/api/charges')).body.data.map(
      (c: { web3_data: { transfer_intent: { call_data: { recipient: string } } } }) => c.web3_data.transfer_intent.call_data.recipient,
    )
    expect(recipients[0]).toBe(recipients[2])
    expect(recipients[1]).not.toBe(recipients[0])
  })
})
