// Every chat answer has a size and time budget: the answer is capped by the model's output bound (or
// the documented default), schemas are fitted to what the answer can hold and filled in a worker with
// a time limit, streams wait for the client, and a failure inside a stream ends that stream only.
// Each attack runs beside a heartbeat that must answer within a second.
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { describe, expect, it, vi } from 'vitest'
import { DEFAULT_MAX_COMPLETION_TOKENS } from '../../../src/emulator/modules/text/text-engine.service.ts'
import { listeningEmulator, testEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { withHeartbeat } from '../../helpers/heartbeat.ts'

/** A free model whose catalog entry has no output bound (max_completion_tokens null, 262,144 context). */
const FREE = 'qwen/qwen3-coder:free'
const USER = [{ role: 'user', content: 'Describe the weather' }]

const schemaFormat = (schema: Record<string, unknown>) => ({ type: 'json_schema', json_schema: { name: 's', schema } })

async function post(url: string, key: string, body: Record<string, unknown>): Promise<{ status: number; text: string }> {
  const res = await fetch(`${url}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: FREE, messages: USER, ...body }),
  })
  return { status: res.status, text: await res.text() }
}

function events(text: string): Array<Record<string, any>> {
  const out: EventSourceMessage[] = []
  const parser = createParser({ onEvent: (e) => out.push(e) })
  parser.feed(text)
  return out.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data) as Record<string, any>)
}

const chat = (emu: TestEmulator, body: Record<string, unknown>) =>
  emu.send('POST', '/api/v1/chat/completions', { model: FREE, messages: USER, ...body }, emu.keys.standard)

describe('the answer budget', () => {
  it('one streamed request of n=8 with a 600 KB enum value neither crashes nor stalls the emulator', async () => {
    const emu = await listeningEmulator()
    const rssBefore = process.memoryUsage().rss
    const { result, heartbeat } = await withHeartbeat(emu.url, () =>
      post(emu.url, emu.keys.standard, { n: 8, stream: true, response_format: schemaFormat({ type: 'string', enum: ['a '.repeat(300_000)] }) }),
    )
    expect(result.status).toBe(200)
    const chunks = events(result.text)
    const finishes = chunks.flatMap((c) => c.choices.filter((choice: any) => choice.finish_reason).map((choice: any) => choice.finish_reason))
    expect(finishes).toEqual(Array(8).fill('length'))
    // Each choice is cut at the default output bound, since the catalog gives this model none.
    expect(chunks.at(-1)!.usage.completion_tokens).toBe(8 * DEFAULT_MAX_COMPLETION_TOKENS)
    expect(heartbeat.slowestMs).toBeLessThan(1000)
    expect(heartbeat.failures).toEqual([])
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(400 * 1024 * 1024)
  })

  it('max_tokens cuts a long answer without writing it all first', async () => {
    const emu = await testEmulator()
    const res = await chat(emu, { max_tokens: 5, response_format: schemaFormat({ type: 'string', enum: ['word '.repeat(200_000)] }) })
    expect(res.status).toBe(200)
    expect(res.body.choices[0].finish_reason).toBe('length')
    expect(res.body.usage.completion_tokens).toBe(5)
    expect(res.body.choices[0].message.content).toBe('"word word word word')
  })

  it('a stream sends what the client takes: a client that stops reading holds the answer back, not the emulator', async () => {
    const emu = await listeningEmulator()
    const controller = new AbortController()
    const res = await fetch(`${emu.url}/api/v1/chat/completions`, {
      method: 'POST',
      signal: controller.signal,
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: FREE,
        messages: USER,
        n: 8,
        stream: true,
        response_format: schemaFormat({ type: 'string', enum: ['a '.repeat(300_000)] }),
      }),
    })
    const reader = res.body!.getReader()
    await reader.read() // the first bytes, then nothing more is read
    const { heartbeat } = await withHeartbeat(emu.url, async () => {
      for (let i = 0; i < 5; i++) await fetch(`${emu.url}/api/v1/models`).then((r) => r.arrayBuffer())
    })
    expect(heartbeat.slowestMs).toBeLessThan(1000)
    controller.abort()
    await reader.cancel().catch(() => undefined)
  })
})

describe('schemas are filled within a budget', () => {
  const cut = async (schema: Record<string, unknown>) => {
    const emu = await listeningEmulator()
    const { result, heartbeat } = await withHeartbeat(emu.url, () =>
      post(emu.url, emu.keys.standard, { max_tokens: 50, response_format: schemaFormat(schema) }),
    )
    expect(heartbeat.slowestMs).toBeLessThan(1000)
    return { status: result.status, body: JSON.parse(result.text) as Record<string, any> }
  }

  it.each([
    ['minItems: 1e7', { type: 'array', minItems: 1e7, items: { type: 'integer' } }],
    ['minLength: 1e9', { type: 'string', minLength: 1e9 }],
    ['minItems of minItems', { type: 'array', minItems: 1e4, items: { type: 'array', minItems: 1e4, items: { type: 'string', minLength: 1e4 } } }],
    ['a hundred required properties of minLength 1e6', objectOf(100, { type: 'string', minLength: 1e6 })],
    ['minProperties: 1e6 (open object)', { type: 'object', minProperties: 1e6 }],
  ])('%s: an answer cut at max_tokens with finish_reason "length"', async (_name, schema) => {
    const { status, body } = await cut(schema)
    expect(status).toBe(200)
    expect(body.choices[0].finish_reason).toBe('length')
    expect(body.usage.completion_tokens).toBeLessThanOrEqual(50)
  })

  it('an enum of 60,000 strings answers one of them', async () => {
    const values = Array.from({ length: 60_000 }, (_, i) => `value-${i}`)
    const { status, body } = await cut({ type: 'string', enum: values })
    expect(status).toBe(200)
    expect(values).toContain(JSON.parse(body.choices[0].message.content))
  })

  it.each([
    [
      'a pattern longer than any answer',
      { type: 'string', pattern: '^((a{1000}){1000}){1000}$' },
      'response_format.json_schema.schema.pattern',
      'matches only strings of 1000000000 characters or more, longer than an answer can hold (800)',
    ],
    [
      'more properties than additionalProperties: false allows',
      { type: 'object', minProperties: 1000, additionalProperties: false },
      'response_format.json_schema.schema.minProperties',
      'asks for at least 1000 properties but allows only 0 (additionalProperties is false)',
    ],
    [
      'a required property that cannot exist',
      { type: 'object', required: ['id'], properties: { name: { type: 'string' } }, additionalProperties: false },
      'response_format.json_schema.schema.required',
      'names id, which is not among the properties while additionalProperties is false',
    ],
    [
      'minItems above maxItems, nested',
      { type: 'object', properties: { tags: { type: 'array', minItems: 5, maxItems: 2 } } },
      'response_format.json_schema.schema.properties.tags.minItems',
      'is 5, above maxItems (2): no value can satisfy both',
    ],
  ])('%s: a 400 naming the keyword, nothing billed', async (_name, schema, field, issue) => {
    const emu = await testEmulator()
    const before = await emu.get('/api/v1/key', emu.keys.standard)
    const res = await chat(emu, { max_tokens: 50, response_format: schemaFormat(schema) })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toBe(`Field \`${field}\` ${issue}`)
    expect(res.body.error.metadata).toMatchObject({ field, location: 'body' })
    expect((await emu.get('/api/v1/key', emu.keys.standard)).body.data.usage).toBe(before.body.data.usage)
  })

  it("a tool's parameters are bounded the same way: its arguments cut at max_tokens", async () => {
    const emu = await testEmulator()
    const tool = { type: 'function', function: { name: 'list_rows', parameters: objectOf(1, { type: 'array', minItems: 1e7, items: { type: 'number' } }) } }
    const res = await chat(emu, { max_tokens: 30, tools: [tool], tool_choice: 'required' })
    expect(res.status).toBe(200)
    expect(res.body.choices[0].finish_reason).toBe('length')
    expect(res.body.choices[0].message.tool_calls[0].function.name).toBe('list_rows')
    expect(res.body.usage.completion_tokens).toBeLessThanOrEqual(30)
  })

  it("a tool's unsatisfiable parameters are a 400 naming them", async () => {
    const emu = await testEmulator()
    const tool = { type: 'function', function: { name: 'f', parameters: { type: 'object', minProperties: 3, additionalProperties: false } } }
    const res = await chat(emu, { tools: [tool] })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toBe(
      'Field `tools[0].function.parameters.minProperties` asks for at least 3 properties but allows only 0 (additionalProperties is false)',
    )
  })

  it.each([
    ['maxLength: 1e8', { type: 'string', maxLength: 1e8 }],
    ['maxItems: 1e8', { type: 'array', maxItems: 1e8, items: { type: 'integer' } }],
    ['maxItems of maxItems of maxLength', { type: 'array', maxItems: 1e4, items: { type: 'array', maxItems: 1e4, items: { type: 'string', maxLength: 1e4 } } }],
    [
      'a $ref to a long string, 1e4 times',
      { type: 'array', maxItems: 1e4, items: { $ref: '#/$defs/long' }, $defs: { long: { type: 'string', maxLength: 1e6 } } },
    ],
    ['minProperties: 5e6 of long strings', { type: 'object', minProperties: 5e6, additionalProperties: { type: 'string', minLength: 1e5 } }],
  ])('%s: the value is drawn within the budget, the emulator serving meanwhile', async (_name, schema) => {
    const emu = await listeningEmulator()
    const { result, heartbeat } = await withHeartbeat(emu.url, () => post(emu.url, emu.keys.standard, { response_format: schemaFormat(schema) }))
    expect(heartbeat.slowestMs).toBeLessThan(1000)
    expect(result.status).toBe(200)
    const body = JSON.parse(result.text)
    expect(body.usage.completion_tokens).toBeLessThanOrEqual(DEFAULT_MAX_COMPLETION_TOKENS)
    expect(body.choices[0].message.content.length).toBeLessThan(2 * 1024 * 1024)
  })

  it('the same seed gives the same value from the worker, choice by choice', async () => {
    const schema = { type: 'object', required: ['city', 'days'], properties: { city: { type: 'string' }, days: { type: 'array', items: { type: 'integer' } } } }
    const answers = async () => {
      const emu = await testEmulator()
      const res = await chat(emu, { n: 3, response_format: schemaFormat(schema) })
      return res.body.choices.map((c: any) => c.message.content)
    }
    const first = await answers()
    expect(await answers()).toEqual(first)
    expect(new Set(first).size).toBe(3)
  })
})

describe('a failure inside a stream ends that stream, never the process', () => {
  it('ends the stream with an error chunk and a log line; the next request is served', async () => {
    const emu = await listeningEmulator({ logLevel: 'error' })
    const logged: unknown[] = []
    vi.spyOn(emu.app.log, 'error').mockImplementation((...args: unknown[]) => void logged.push(args[0]))
    // A fault part way through the stream, whose settling then fails (as a database error would).
    await emu.send('POST', '/_emulator/api/faults', { match: { operation: 'chat.create' }, action: { status: 502, stream: { after_chunks: 2 } } })
    vi.spyOn(emu.ctx.services.generations, 'finish').mockImplementationOnce(() => {
      throw new Error('disk I/O error')
    })
    const res = await post(emu.url, emu.keys.standard, { stream: true })
    expect(res.status).toBe(200)
    const last = events(res.text).at(-1)!
    expect(last.error).toEqual({ code: 500, message: 'Internal Server Error', metadata: { error_type: 'server' } })
    expect(last.choices[0].finish_reason).toBe('error')
    expect(logged).toContainEqual(expect.objectContaining({ err: expect.objectContaining({ message: 'disk I/O error' }) }))
    const health = await fetch(`${emu.url}/_emulator/api/health`)
    expect(health.status).toBe(200)
  })
})

function objectOf(count: number, property: Record<string, unknown>): Record<string, unknown> {
  const names = Array.from({ length: count }, (_, i) => `p${i}`)
  return { type: 'object', required: names, properties: Object.fromEntries(names.map((n) => [n, property])) }
}
