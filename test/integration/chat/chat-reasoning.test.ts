// Reasoning in chat completions: written only where asked (`reasoning`, `reasoning_effort`,
// `include_reasoning`) and where the model reasons, counted in the output tokens and billed with them,
// streamed as `reasoning` deltas before the content, and bounded by the request's budget.
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { describe, expect, it } from 'vitest'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const REASONING_MODEL = 'openai/o4-mini'
const USER = [{ role: 'user', content: 'Why do lighthouses flash in patterns?' }]

const chat = (emu: TestEmulator, body: Record<string, unknown>) =>
  emu.send('POST', '/api/v1/chat/completions', { model: REASONING_MODEL, messages: USER, seed: 7, ...body }, emu.keys.standard)

describe('chat reasoning', () => {
  it('is absent unless asked, and present when asked of a model that reasons', async () => {
    const emu = await testEmulator()
    const plain = await chat(emu, {})
    expect(plain.status).toBe(200)
    expect(plain.body.choices[0].message.reasoning).toBeNull()
    expect(plain.body.usage.completion_tokens_details.reasoning_tokens).toBe(0)

    const asked = await chat(emu, { reasoning: { effort: 'low' } })
    expect(asked.status).toBe(200)
    const message = asked.body.choices[0].message
    expect(message.reasoning).toMatch(/^The question is about /)
    const reasoningTokens = asked.body.usage.completion_tokens_details.reasoning_tokens
    expect(reasoningTokens).toBeGreaterThan(0)
    expect(reasoningTokens).toBeLessThanOrEqual(32)
    // The answer reads the same with or without the reasoning before it.
    expect(message.content).toBe(plain.body.choices[0].message.content)
    expect(asked.body.usage.completion_tokens).toBe(plain.body.usage.completion_tokens + reasoningTokens)
    expect(asked.body.usage.cost).toBeGreaterThan(plain.body.usage.cost)
  })

  it('takes reasoning_effort, include_reasoning and a max_tokens budget; effort none and enabled false turn it off', async () => {
    const emu = await testEmulator()
    const tokens = async (body: Record<string, unknown>) => (await chat(emu, body)).body.usage.completion_tokens_details.reasoning_tokens as number
    expect(await tokens({ reasoning_effort: 'high' })).toBeGreaterThan(await tokens({ reasoning_effort: 'minimal' }))
    expect(await tokens({ include_reasoning: true })).toBeGreaterThan(0)
    expect(await tokens({ reasoning: { max_tokens: 10 } })).toBeLessThanOrEqual(10)
    expect(await tokens({ reasoning: { effort: 'none' } })).toBe(0)
    expect(await tokens({ reasoning: { enabled: false, effort: 'high' } })).toBe(0)
  })

  it('is not written by a model that does not reason', async () => {
    const emu = await testEmulator()
    const res = await emu.send(
      'POST',
      '/api/v1/chat/completions',
      { model: 'openai/gpt-4o-mini', messages: USER, reasoning: { effort: 'high' } },
      emu.keys.standard,
    )
    expect(res.status).toBe(200)
    expect(res.body.choices[0].message.reasoning).toBeNull()
  })

  it('a bad effort is a 400 naming the field', async () => {
    const emu = await testEmulator()
    const res = await chat(emu, { reasoning: { effort: 'extreme' } })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toContain('reasoning.effort')
  })

  it('streams as reasoning deltas before the content', async () => {
    const emu = await testEmulator()
    const res = await emu.app.inject({
      method: 'POST',
      url: '/api/v1/chat/completions',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      payload: { model: REASONING_MODEL, messages: USER, seed: 7, stream: true, reasoning: { effort: 'low' } },
    })
    const events: EventSourceMessage[] = []
    createParser({ onEvent: (e) => events.push(e) }).feed(res.body)
    const deltas = events
      .filter((e) => e.data !== '[DONE]')
      .flatMap((e) => (JSON.parse(e.data).choices as Array<{ delta: Record<string, string> }>).map((c) => c.delta))
    const reasoning = deltas.map((d) => d.reasoning ?? '').join('')
    const firstContent = deltas.findIndex((d) => (d.content ?? '') !== '')
    const lastReasoning = deltas.findLastIndex((d) => d.reasoning !== undefined)
    expect(reasoning).toMatch(/^The question is about /)
    expect(lastReasoning).toBeLessThan(firstContent)
    const whole = await chat(emu, { reasoning: { effort: 'low' } })
    expect(reasoning).toBe(whole.body.choices[0].message.reasoning)
  })
})
