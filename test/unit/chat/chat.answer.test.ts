// Chat answers written directly (text.answer.ts), from an AnswerRequest built as prepareChat builds
// one: the same request gives the same answer, anything that seeds it gives another; text echoes the
// user's key words and is cut at max tokens or a stop sequence; tool calls and structured outputs take
// their value from the schema filler and are cut the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFaker, type MakeFaker } from '../../../src/emulator/core/faker.ts'
import { givenAnswer, questionOf, writeAnswers, type AnswerRequest } from '../../../src/emulator/modules/text/text-answer.service.ts'
import { parseMessages, parseResponseFormat, parseToolChoice, parseTools } from '../../../src/emulator/modules/text/text.input.ts'
import { SchemaFiller, type FillJob } from '../../../src/emulator/modules/text/text-schema-filler.service.ts'
import { fitSchema } from '../../../src/emulator/modules/text/text-schema-fit.service.ts'
import { countTokens, loadTokenizer } from '../../../src/emulator/core/tokens.ts'

let makeFaker: MakeFaker
beforeAll(async () => {
  ;[makeFaker] = await Promise.all([loadFaker(), loadTokenizer()])
})

/** A filler that never starts a worker: each job's value is `value(job)`. */
function fakeFiller(value: (job: FillJob) => string): SchemaFiller & { jobs: FillJob[] } {
  const jobs: FillJob[] = []
  return Object.assign(Object.create(SchemaFiller.prototype) as SchemaFiller, {
    jobs,
    fill: (batch: readonly FillJob[]) => {
      jobs.push(...batch)
      return Promise.resolve(batch.map(value))
    },
  })
}
const noSchemas = fakeFiller(() => {
  throw new Error('no schema should be filled')
})

/** A request as prepareChat makes it: the body's parts parsed, schemas fitted to the budget. */
function request(
  body: { messages?: unknown[]; tools?: unknown[]; tool_choice?: unknown; response_format?: unknown },
  fields: Partial<AnswerRequest> = {},
): AnswerRequest {
  const messages = parseMessages(body.messages ?? [{ role: 'user', content: 'Tell me about volcanoes and glaciers' }])
  const tools = parseTools(body.tools)
  const toolChoice = parseToolChoice(body.tool_choice, tools)
  const format = parseResponseFormat(body.response_format)
  const budget = 4 * 4096
  return {
    seed: 1,
    model: 'openai/gpt-4o-mini',
    requestSeed: null,
    messages,
    tools,
    toolChoice: tools.length === 0 ? { kind: 'none' } : toolChoice,
    parallel: true,
    format,
    maxTokens: 4096,
    stop: [],
    answerTokens: 60,
    reasoningTokens: 0,
    fields: { tool: (i) => `tools[${i}].function.parameters`, format: 'response_format.json_schema.schema' },
    fitted: {
      tools: new Map(tools.map((tool, i) => [tool.name, fitSchema(tool.parameters, budget, `tools[${i}].function.parameters`)])),
      format: format.kind === 'json_schema' ? fitSchema(format.schema, budget, 'response_format.json_schema.schema') : null,
    },
    ...fields,
  }
}

const one = async (req: AnswerRequest, filler: SchemaFiller = noSchemas) => (await writeAnswers(req, 1, makeFaker, filler))[0]!

const WEATHER = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
}

describe('text answers', () => {
  it('are the same for the same request', async () => {
    const a = await writeAnswers(request({}), 2, makeFaker, noSchemas)
    const b = await writeAnswers(request({}), 2, makeFaker, noSchemas)
    expect(a).toEqual(b)
  })

  it("differ with the emulator's seed, the request's seed, the model and the conversation", async () => {
    const base = (await one(request({}))).content
    const others = await Promise.all([
      one(request({}, { seed: 2 })),
      one(request({}, { requestSeed: 42 })),
      one(request({}, { model: 'anthropic/claude-3.5-haiku' })),
      one(request({ messages: [{ role: 'user', content: 'Tell me about volcanoes and glaciers!' }] })),
    ])
    for (const other of others) expect(other.content).not.toBe(base)
    expect(new Set(others.map((o) => o.content)).size).toBe(others.length)
  })

  it('gives each of n choices its own text, the first being the answer to n = 1', async () => {
    const three = await writeAnswers(request({}), 3, makeFaker, noSchemas)
    expect(new Set(three.map((a) => a.content)).size).toBe(3)
    expect(three[0]).toEqual(await one(request({})))
  })

  it("open on the longest key words of the user's last message, and run about answerTokens", async () => {
    const answer = await one(request({}))
    expect(answer.content).toMatch(/^(About|On|Regarding) volcanoes and glaciers: /)
    expect(answer).toMatchObject({ toolCalls: [], finishReason: 'stop' })
    expect(answer.completionTokens).toBe(countTokens(answer.content!))
    expect(answer.completionTokens).toBeGreaterThanOrEqual(50)
    expect(answer.completionTokens).toBeLessThan(60 + 40)
  })

  it('are cut at max tokens, with finish_reason "length", as the start of the longer answer', async () => {
    const full = await one(request({}))
    const cut = await one(request({}, { maxTokens: 5 }))
    expect(cut.finishReason).toBe('length')
    expect(cut.completionTokens).toBe(5)
    expect(full.content!.startsWith(cut.content!)).toBe(true)
    expect(cut.content!.length).toBeLessThan(full.content!.length)
  })

  it('end before the first stop sequence found; an empty one is ignored', async () => {
    const full = (await one(request({}))).content!
    const answer = await one(request({}, { stop: ['', ':'] }))
    expect(answer.content).toBe(full.slice(0, full.indexOf(':')))
    expect(answer).toMatchObject({ finishReason: 'stop', completionTokens: countTokens(answer.content!) })
  })

  it('json_object: a JSON object with the answer in it', async () => {
    const answer = await one(request({ response_format: { type: 'json_object' } }))
    expect(JSON.parse(answer.content!)).toEqual({ answer: expect.stringMatching(/volcanoes and glaciers/) })
  })
})

describe('tool calls', () => {
  const ARGS = '{"city":"Paris"}'

  it('a named tool is called with the value the filler made for its parameters', async () => {
    const filler = fakeFiller(() => ARGS)
    const req = request({ tools: [WEATHER], tool_choice: { type: 'function', function: { name: 'get_weather' } } })
    const answer = await one(req, filler)
    expect(filler.jobs).toEqual([{ schema: WEATHER.function.parameters, seed: expect.any(Number), field: 'tools[0].function.parameters', lowered: false }])
    expect(answer).toEqual({
      content: null,
      toolCalls: [{ id: expect.stringMatching(/^call_[0-9a-f]{24}$/), type: 'function', function: { name: 'get_weather', arguments: ARGS } }],
      finishReason: 'tool_calls',
      completionTokens: countTokens('get_weather') + countTokens(ARGS) + 3,
      reasoning: null,
      reasoningTokens: 0,
    })
    expect(
      await one(
        req,
        fakeFiller(() => ARGS),
      ),
    ).toEqual(answer)
  })

  it('auto calls a tool the last user message names, and answers in text once the tool has answered', async () => {
    const tools = [WEATHER]
    const asked = await one(
      request({ tools, messages: [{ role: 'user', content: "What's the weather in Paris?" }] }),
      fakeFiller(() => ARGS),
    )
    expect(asked.toolCalls.map((c) => c.function.name)).toEqual(['get_weather'])
    const answered = await one(
      request({
        tools,
        messages: [
          { role: 'user', content: "What's the weather in Paris?" },
          { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: ARGS } }] },
          { role: 'tool', tool_call_id: 'call_1', content: '{"temperature":18}' },
        ],
      }),
    )
    expect(answered).toMatchObject({ toolCalls: [], finishReason: 'stop' })
    expect(answered.content).toMatch(/weather|paris/i)
    expect((await one(request({ tools, messages: [{ role: 'user', content: 'Tell me a story' }] }))).toolCalls).toEqual([])
  })

  it('arguments are cut at max tokens, with finish_reason "length"', async () => {
    const long = JSON.stringify({ city: 'word '.repeat(200) })
    const answer = await one(
      request({ tools: [WEATHER], tool_choice: 'required' }, { maxTokens: 20 }),
      fakeFiller(() => long),
    )
    const args = answer.toolCalls[0]!.function.arguments
    expect(answer.finishReason).toBe('length')
    expect(long.startsWith(args)).toBe(true)
    expect(countTokens(args)).toBe(20 - countTokens('get_weather') - 3)
    expect(answer.completionTokens).toBe(20)
  })
})

describe('structured outputs, filled in the worker', () => {
  const filler = new SchemaFiller()
  afterAll(async () => {
    await filler.close()
  })
  const SCHEMA = {
    type: 'object',
    properties: { n: { type: 'integer', minimum: 1, maximum: 9 }, tag: { type: 'string', enum: ['a', 'b', 'c'] } },
    required: ['n', 'tag'],
    additionalProperties: false,
  }

  it('give a value of the schema, the same for the same request, another for another seed', async () => {
    const req = request({ response_format: { type: 'json_schema', json_schema: { name: 'pick', schema: SCHEMA } } })
    const [a, b] = await writeAnswers(req, 2, makeFaker, filler)
    for (const answer of [a!, b!]) {
      const value = JSON.parse(answer.content!) as { n: number; tag: string }
      expect(Object.keys(value).sort()).toEqual(['n', 'tag'])
      expect(Number.isInteger(value.n) && value.n >= 1 && value.n <= 9).toBe(true)
      expect(['a', 'b', 'c']).toContain(value.tag)
      expect(answer.finishReason).toBe('stop')
    }
    expect(await writeAnswers(req, 2, makeFaker, filler)).toEqual([a, b])
    const seeds = await Promise.all([1, 2, 3, 4, 5].map((requestSeed) => one({ ...req, requestSeed }, filler)))
    expect(new Set(seeds.map((s) => s.content)).size).toBeGreaterThan(1)
  })

  it('a schema lowered to fit the budget ends with finish_reason "length" even when the value fits', async () => {
    const schema = { type: 'array', minItems: 1_000_000, items: { type: 'integer', minimum: 0, maximum: 9 } }
    const req = request({ response_format: { type: 'json_schema', json_schema: { name: 'many', schema } } })
    const small = { ...req, fitted: { ...req.fitted, format: fitSchema(schema, 64, 'response_format.json_schema.schema') } }
    expect(small.fitted.format!.lowered).toBe(true)
    const answer = await one(small, filler)
    expect(answer.finishReason).toBe('length')
    expect(JSON.parse(answer.content!)).toEqual(expect.any(Array))
  })
})

describe('reasoning', () => {
  it('is written before the answer within its budget, counted in the output, and leaves the answer as it was', async () => {
    const plain = await one(
      request({}),
      fakeFiller(() => '{}'),
    )
    const thinking = await one(
      request({}, { reasoningTokens: 40 }),
      fakeFiller(() => '{}'),
    )
    expect(thinking.reasoning).toMatch(/^The question is about /)
    expect(thinking.reasoningTokens).toBe(countTokens(thinking.reasoning!))
    expect(thinking.reasoningTokens).toBeLessThanOrEqual(40)
    expect(thinking.completionTokens).toBe(thinking.reasoningTokens + countTokens(thinking.content!))
    expect(thinking.content).toBe(plain.content)
    expect(plain.reasoning).toBeNull()
  })
})

describe('givenAnswer (a fixture answering)', () => {
  it('cuts its text by stop and max tokens as a generated one', () => {
    expect(givenAnswer(request({}), { content: 'Sunny. Then rain.' }, 'fx:1')).toEqual({
      content: 'Sunny. Then rain.',
      toolCalls: [],
      finishReason: 'stop',
      completionTokens: countTokens('Sunny. Then rain.'),
      reasoning: null,
      reasoningTokens: 0,
    })
    expect(givenAnswer(request({}, { stop: ['.'] }), { content: 'Sunny. Then rain.' }, 'fx:1')).toMatchObject({ content: 'Sunny', finishReason: 'stop' })
    expect(givenAnswer(request({}, { maxTokens: 2 }), { content: 'Sunny. Then rain.' }, 'fx:1')).toMatchObject({ finishReason: 'length', completionTokens: 2 })
    expect(givenAnswer(request({}), {}, 'fx:1')).toMatchObject({ content: '', finishReason: 'stop', completionTokens: 0 })
  })

  it('gives its tool calls ids drawn from the request and the label: the same for the same, another for another use', () => {
    const calls = { content: 'Checking.', tool_calls: [{ name: 'get_weather', arguments: '{"city":"Oslo"}' }] }
    const first = givenAnswer(request({}), calls, 'fx:1:use1')
    expect(first).toMatchObject({
      content: 'Checking.',
      finishReason: 'tool_calls',
      toolCalls: [{ function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
    })
    expect(first.completionTokens).toBe(countTokens('Checking.') + countTokens('get_weather') + countTokens('{"city":"Oslo"}') + 3)
    expect(givenAnswer(request({}), calls, 'fx:1:use1')).toEqual(first)
    expect(givenAnswer(request({}), calls, 'fx:1:use2').toolCalls[0]!.id).not.toBe(first.toolCalls[0]!.id)
  })
})

describe("questionOf: the last user turn's own words", () => {
  const turn = (role: 'system' | 'user' | 'tool', text: string) => ({ role, text, media: 0, toolCalls: [] })
  it('leaves out <system-reminder> blocks, skips a turn of reminders only, and never reads the system prompt or tool results', () => {
    const reminder = '<system-reminder>\nYour todo list is empty.\n</system-reminder>'
    expect(questionOf([turn('system', 'kubernetes'), turn('user', `${reminder}\nTell me about lighthouses`)])).toBe('Tell me about lighthouses')
    expect(questionOf([turn('user', 'Tell me about lighthouses'), turn('tool', 'kubernetes'), turn('user', `${reminder} ${reminder}`)])).toBe(
      'Tell me about lighthouses',
    )
    expect(questionOf([turn('system', 'kubernetes'), turn('tool', 'spreadsheet')])).toBe('')
    // An unclosed tag is the user's own text; a user turn without words (an image) is still the last turn.
    expect(questionOf([turn('user', '<system-reminder> about lighthouses')])).toBe('<system-reminder> about lighthouses')
    expect(questionOf([turn('user', 'lighthouses'), turn('user', '')])).toBe('')
  })
})
