// The `openrouter:datetime` server tool on chat: the gateway runs it, so the answer states the current date
// and time from the emulator's virtual clock in the tool's time zone (UTC when none is given), and the
// usage counts the call in `server_tool_use_details`. A time zone that is not an IANA name is a 400.
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { listeningEmulator, testEmulator } from '../../helpers/emulator.ts'

const MODEL = 'openai/gpt-4o-mini'
const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What time is it?' }]
// The real document's server tool; the openai client's types know only function tools.
const datetime = (parameters?: Record<string, unknown>) =>
  ({ type: 'openrouter:datetime', ...(parameters ? { parameters } : {}) }) as unknown as OpenAI.ChatCompletionTool

type Usage = OpenAI.CompletionUsage & { cost: number; server_tool_use_details?: { tool_calls_requested: number; tool_calls_executed: number } }

describe('chat with the openrouter:datetime server tool', () => {
  it('states the virtual clock’s date and time in the configured zone, and follows the clock', async () => {
    const emu = await listeningEmulator({ clockStart: '2026-03-04T10:00:00.000Z' })
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const ask = () => client.chat.completions.create({ model: MODEL, messages, seed: 1, tools: [datetime({ timezone: 'America/New_York' })] })
    const first = await ask()
    expect(first.choices[0]!.message.content).toMatch(/^The current date and time is Wednesday, March 4, 2026 at 5:00:00\sAM EST \(America\/New_York\)\. \S/)
    expect(first.choices[0]!.message.tool_calls ?? []).toEqual([])
    expect((first.usage as Usage).server_tool_use_details).toEqual({ tool_calls_requested: 1, tool_calls_executed: 1 })
    await emu.clock.advanceTo(Date.parse('2026-07-01T18:30:15Z'))
    const later = await ask()
    expect(later.choices[0]!.message.content).toMatch(/^The current date and time is Wednesday, July 1, 2026 at 2:30:15\sPM EDT \(America\/New_York\)\. /)
  })

  it('defaults to UTC, and otherwise answers as without the tool: the same text after the statement, its tokens billed', async () => {
    const emu = await listeningEmulator({ clockStart: '2026-03-04T10:00:00.000Z' })
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const plain = await client.chat.completions.create({ model: MODEL, messages, seed: 2 })
    const timed = await client.chat.completions.create({ model: MODEL, messages, seed: 2, tools: [datetime()] })
    const statement = 'The current date and time is Wednesday, March 4, 2026 at 10:00:00\u202fAM UTC (UTC). '
    expect(timed.choices[0]!.message.content!.replace(/\s/g, ' ')).toBe((statement + plain.choices[0]!.message.content).replace(/\s/g, ' '))
    expect(timed.usage!.completion_tokens).toBeGreaterThan(plain.usage!.completion_tokens)
    expect((timed.usage as Usage).cost).toBeGreaterThan((plain.usage as Usage).cost)
    expect((plain.usage as Usage).server_tool_use_details).toBeUndefined()
  })

  it('streams the same answer as in one piece', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const tools = [datetime({ timezone: 'Asia/Tokyo' })]
    const whole = await client.chat.completions.create({ model: MODEL, messages, seed: 4, tools })
    const stream = await client.chat.completions.create({ model: MODEL, messages, seed: 4, tools, stream: true, stream_options: { include_usage: true } })
    let text = ''
    let usage: Usage | undefined
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? ''
      if (chunk.usage) usage = chunk.usage as Usage
    }
    expect(text).toBe(whole.choices[0]!.message.content)
    expect(text).toContain('(Asia/Tokyo).')
    expect(usage!.server_tool_use_details).toEqual({ tool_calls_requested: 1, tool_calls_executed: 1 })
  })

  it('leaves a JSON answer (response_format) as written', async () => {
    const emu = await testEmulator()
    const body = { model: MODEL, messages, seed: 1, response_format: { type: 'json_object' } }
    const plain = await emu.send('POST', '/api/v1/chat/completions', body, emu.keys.standard)
    const timed = await emu.send('POST', '/api/v1/chat/completions', { ...body, tools: [{ type: 'openrouter:datetime' }] }, emu.keys.standard)
    expect(timed.body.choices[0].message.content).toBe(plain.body.choices[0].message.content)
  })

  it.each([
    [
      'a time zone that is not an IANA name',
      { timezone: 'Mars/Olympus_Mons' },
      'tools[1].parameters.timezone',
      'must be an IANA time zone name (e.g. "America/New_York")',
    ],
    ['a time zone that is not a string', { timezone: 5 }, 'tools[1].parameters.timezone', 'must be an IANA time zone name (e.g. "America/New_York")'],
    ['parameters that are not an object', 'UTC', 'tools[1].parameters', 'must be an object'],
  ])('refuses %s with a 400 naming the field, billing nothing', async (_name, parameters, field, message) => {
    const emu = await testEmulator()
    const weather = { type: 'function', function: { name: 'get_weather' } }
    const res = await emu.send(
      'POST',
      '/api/v1/chat/completions',
      { model: MODEL, messages, tools: [weather, { type: 'openrouter:datetime', parameters }] },
      emu.keys.standard,
    )
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ code: 400, message: `Field \`${field}\` ${message}`, metadata: { field, location: 'body' } })
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBe(0)
  })
})
