// The helpers users' suites import from model-gateway-emulator/testing, used as the README shows.
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EmulatorAdmin, startTestEmulator, type TestEmulator } from '../../../src/emulator/testing.ts'

describe('model-gateway-emulator/testing', () => {
  let emu: TestEmulator
  beforeAll(async () => {
    emu = await startTestEmulator()
  })
  afterAll(() => emu.close())

  it('gives each test file an isolated workspace, faults scoped to it, the journal and the clock', async () => {
    const [a, b] = await Promise.all([emu.admin.workspace({ credits_usd: 10 }), emu.admin.workspace({ credits_usd: 10 })])
    const clientA = new OpenAI({ apiKey: a.keys.standard, baseURL: a.apiUrl, maxRetries: 0 })
    const clientB = new OpenAI({ apiKey: b.keys.standard, baseURL: b.apiUrl, maxRetries: 0 })
    await a.fault({ match: { operation: 'embeddings.create' }, action: { status: 429 }, remaining: 2 })
    for (let i = 0; i < 2; i++)
      await expect(clientA.embeddings.create({ model: 'openai/text-embedding-3-small', input: 'x' })).rejects.toMatchObject({ status: 429 })
    // The other workspace is not affected, and the third call of A goes through.
    expect((await clientB.embeddings.create({ model: 'openai/text-embedding-3-small', input: 'x' })).data).toHaveLength(1)
    expect((await clientA.embeddings.create({ model: 'openai/text-embedding-3-small', input: 'x' })).data).toHaveLength(1)
    const faulted = await emu.admin.journal({ status: 429 })
    expect(faulted).toHaveLength(2)
    // As the README shows: the client's own retries get through a 429 fault.
    await b.fault({ match: { operation: 'embeddings.create' }, action: { status: 429 }, remaining: 1 })
    const retrying = new OpenAI({ apiKey: b.keys.standard, baseURL: b.apiUrl })
    expect((await retrying.embeddings.create({ model: 'openai/text-embedding-3-small', input: 'x' })).data).toHaveLength(1)
    const before = Date.parse((await emu.admin.advance('1d')).now)
    expect(before).toBe(Date.parse('2026-01-02T12:00:00Z'))
    await a.delete()
  })

  it('scopes the journal to a workspace: two workspaces each retrying two 429s see their own two', async () => {
    const [a, b] = await Promise.all([emu.admin.workspace({ credits_usd: 10 }), emu.admin.workspace({ credits_usd: 10 })])
    for (const ws of [a, b]) {
      await ws.fault({ match: { operation: 'embeddings.create' }, action: { status: 429 }, remaining: 2 })
      const client = new OpenAI({ apiKey: ws.keys.standard, baseURL: ws.apiUrl }) // retries 429s by itself
      expect((await client.embeddings.create({ model: 'openai/text-embedding-3-small', input: 'hello' })).data).toHaveLength(1)
    }
    for (const ws of [a, b]) {
      const faulted = await ws.journal({ status: 429 })
      expect(faulted).toHaveLength(2)
      expect(faulted.every((entry) => entry.account_id === ws.accountId)).toBe(true)
      expect(await ws.journal({ operation: 'embeddings.create' })).toHaveLength(3)
    }
    // The key filter takes the key itself or its hash, and finds the same entries.
    const byKey = await emu.admin.journal({ key: a.keys.standard, status: 429 })
    expect(byKey.map((entry) => entry.id)).toEqual((await a.journal({ status: 429 })).map((entry) => entry.id))
    expect(await emu.admin.journal({ key: byKey[0]!.key_hash!, status: 429 })).toEqual(byKey)
    expect(await emu.admin.journal({ key: byKey[0]!.key_hash!.toUpperCase(), status: 429 })).toEqual(byKey)
    // A key nobody used finds nothing, and a filter that is not a key is a 400 naming it.
    expect(await emu.admin.journal({ key: 'sk-gw-v1-unused' })).toEqual([])
    await expect(emu.admin.journal({ key: 'x'.repeat(600) })).rejects.toThrow(/400.*key/)
    await Promise.all([a.delete(), b.delete()])
  })

  it('gives a workspace chat fixtures: the openai client gets the scripted answers, the other workspace does not', async () => {
    const [a, b] = await Promise.all([emu.admin.workspace({ credits_usd: 10 }), emu.admin.workspace({ credits_usd: 10 })])
    const fixture = await a.chatFixture({ match: { last_user: 'refund' }, answer: { content: 'Your refund is on its way.' }, times: 1 })
    expect(fixture.explanation).toBe('Answers "Your refund is on its way." when the last user message contains "refund", the next time.')
    await a.chatFixture({ match: { last_user: 'outage' }, answer: { error: { status: 503 } } })
    const ask = (ws: typeof a, text: string) =>
      new OpenAI({ apiKey: ws.keys.standard, baseURL: ws.apiUrl, maxRetries: 0 }).chat.completions.create({
        model: 'openai/gpt-4o-mini',
        messages: [{ role: 'user', content: text }],
      })
    expect((await ask(a, 'Where is my refund?')).choices[0]!.message.content).toBe('Your refund is on its way.')
    expect((await ask(a, 'Where is my refund?')).choices[0]!.message.content).not.toBe('Your refund is on its way.')
    await expect(ask(a, 'Is there an outage?')).rejects.toMatchObject({ status: 503 })
    expect((await ask(b, 'Is there an outage?')).choices[0]!.finish_reason).toBe('stop')
    await a.clearChatFixtures()
    expect((await ask(a, 'Is there an outage?')).choices[0]!.finish_reason).toBe('stop')
  })
})

describe('EmulatorAdmin with an admin token', () => {
  it('sends the token it was given, as startTestEmulator gives it; without it the admin API refuses', async () => {
    const emu = await startTestEmulator({ adminToken: 'a-long-enough-admin-token-0123456789' })
    try {
      expect(await emu.admin.journal()).toEqual([])
      await expect(new EmulatorAdmin(emu.url).journal()).rejects.toThrow(/401.*admin token/)
      expect(await new EmulatorAdmin(emu.url, { token: 'a-long-enough-admin-token-0123456789' }).journal()).toEqual([])
    } finally {
      await emu.close()
    }
  })
})
