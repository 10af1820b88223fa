// Fallback models (`models`): when the model tried first fails (a fault rule that answers its attempt,
// a chat fixture's error), the request goes on to the next, as the real router does when a provider
// fails, and the answer names the model that served it. Only the last model's failure is answered.
import { describe, expect, it } from 'vitest'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const ADMIN = '/_emulator/api'
const FIRST = 'openai/gpt-4o-mini'
const SECOND = 'meta-llama/llama-3.3-70b-instruct'
const USER = [{ role: 'user', content: 'Tell me about lighthouses' }]

async function account(emu: TestEmulator): Promise<{ id: string; standard_key: string }> {
  return (await emu.send('POST', `${ADMIN}/accounts`, { credits_usd: 10 })).body.data
}

const usageRows = async (emu: TestEmulator, key: string) => (await emu.get('/api/v1/credits', key)).body.data.total_usage as number

describe('fallback models', () => {
  it('a fault on the first model’s attempt moves a chat to the next model, which answers and is named', async () => {
    const emu = await testEmulator()
    const rule = await emu.send('POST', `${ADMIN}/faults`, { match: { model: FIRST }, action: { status: 503 } })
    expect(rule.status).toBe(201)
    const res = await emu.send('POST', '/api/v1/chat/completions', { model: FIRST, models: [SECOND], messages: USER }, emu.keys.standard)
    expect(res.status).toBe(200)
    expect(res.body.model).toBe(SECOND)
    const generation = (await emu.get(`/api/v1/generation?id=${res.body.id}`, emu.keys.standard)).body.data
    expect(generation.model).toBe(SECOND)
    // Without a fallback the fault is the answer.
    const alone = await emu.send('POST', '/api/v1/chat/completions', { model: FIRST, messages: USER }, emu.keys.standard)
    expect(alone.status).toBe(503)
  })

  it('the Responses and Messages APIs fall back the same way', async () => {
    const emu = await testEmulator()
    await emu.send('POST', `${ADMIN}/faults`, { match: { model: FIRST }, action: { status: 502 } })
    const response = await emu.send('POST', '/api/v1/responses', { model: FIRST, models: [SECOND], input: 'Hello' }, emu.keys.standard)
    expect(response.status).toBe(200)
    expect(response.body.model).toBe(SECOND)
    const message = await emu.send(
      'POST',
      '/api/v1/messages',
      { model: FIRST, models: [SECOND], max_tokens: 64, messages: [{ role: 'user', content: 'Hello' }] },
      emu.keys.standard,
    )
    expect(message.status).toBe(200)
    expect(message.body.model).toBe(SECOND)
  })

  it('when every model fails, the last one’s failure is the answer and nothing is billed', async () => {
    const emu = await testEmulator()
    await emu.send('POST', `${ADMIN}/faults`, { match: { model: FIRST }, action: { status: 503 } })
    await emu.send('POST', `${ADMIN}/faults`, { match: { model: SECOND }, action: { status: 429 } })
    const res = await emu.send('POST', '/api/v1/chat/completions', { model: FIRST, models: [SECOND], messages: USER }, emu.keys.standard)
    expect(res.status).toBe(429)
    expect(res.body.error.code).toBe(429)
    expect(await usageRows(emu, emu.keys.standard)).toBe(0)
  })

  it('a chat fixture’s error on the first model hands the request to the next, which is billed alone', async () => {
    const emu = await testEmulator()
    const owner = await account(emu)
    const added = await emu.send('POST', `${ADMIN}/accounts/${owner.id}/chat-fixtures`, { match: { model: FIRST }, answer: { error: { status: 503 } } })
    expect(added.status).toBe(201)
    const res = await emu.send('POST', '/api/v1/chat/completions', { model: FIRST, models: [SECOND], messages: USER }, owner.standard_key)
    expect(res.status).toBe(200)
    expect(res.body.model).toBe(SECOND)
    expect(await usageRows(emu, owner.standard_key)).toBeCloseTo(res.body.usage.cost, 12)
    // The fixture answered (and was counted) for the first model's attempt.
    const fixtures = (await emu.get(`${ADMIN}/accounts/${owner.id}/chat-fixtures`)).body.data
    expect(fixtures[0].hits).toBe(1)
  })

  it('a `models` list alone starts with its first model', async () => {
    const emu = await testEmulator()
    await emu.send('POST', `${ADMIN}/faults`, { match: { model: FIRST }, action: { status: 503 } })
    const res = await emu.send('POST', '/api/v1/chat/completions', { models: [FIRST, SECOND], messages: USER }, emu.keys.standard)
    expect(res.status).toBe(200)
    expect(res.body.model).toBe(SECOND)
  })
})
