// The contract test: for every operation the emulator serves under /api/v1 and /router/v1, valid and
// invalid requests (no key, the wrong kind of key, a malformed body, a bad enum, an unknown id, limits,
// 402, 429), each answer checked against the real gateway's OpenAPI document (status declared, media
// type declared, body valid against the schema) or, for the video router, against the vendor's
// documented shapes, reasons and messages. What differs on purpose is listed in each area's
// `deliberate`, and in the fidelity table of docs/fidelity.md; anything else that differs fails.
//
// The cases live beside each area's tests (test/integration/<area>/*.contract.ts, kit.ts says what
// they export), and are collected here from the folders: a new area's file needs no line here.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { testEmulator } from '../../helpers/emulator.ts'
import { CHAT_MODEL, MESSAGES_MODEL, type AreaContract, type Case, type Real } from './kit.ts'
import { componentProblems, gatewayProblems, hasRealDocument, realEnum, realOperations, vendorProblems, type Answer } from './shapes.ts'

const AREAS = join(import.meta.dirname, '..')

/** Every area's contract file, in the order of their paths. */
const files = readdirSync(AREAS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((folder) =>
    readdirSync(join(AREAS, folder.name))
      .filter((name) => name.endsWith('.contract.ts'))
      .map((name) => join(AREAS, folder.name, name)),
  )
  .sort()
const contracts = await Promise.all(files.map(async (file) => (await import(pathToFileURL(file).href)) as AreaContract))

/** Where each operation's answers are checked (each named by one area only). */
const REAL: Record<string, Real> = {}
/** Answers that differ from the real documents on purpose, by `operation status`. */
const DELIBERATE: Record<string, string> = {}
for (const [i, contract] of contracts.entries()) {
  for (const [operation, real] of Object.entries(contract.real)) {
    if (REAL[operation]) throw new Error(`${files[i]}: ${operation} is named by another area's contract too`)
    REAL[operation] = real
  }
  Object.assign(DELIBERATE, contract.deliberate)
}
const CASES: Case[] = contracts.flatMap((contract) => contract.cases)

/** The problems of one answer against where its operation's answers are checked. */
function problemsOf(c: Case, answer: Answer): string[] {
  const real = REAL[c.operation]
  if (!real) return [`no real counterpart is named for ${c.operation}`]
  if ('own' in real) return []
  const problems = 'gateway' in real ? gatewayProblems(real.gateway[0], real.gateway[1], answer) : vendorProblems(real.vendor, answer)
  if (problems.length > 0 && DELIBERATE[`${c.operation} ${answer.status}`]) return []
  return problems
}

describe.skipIf(!hasRealDocument)('the real contract (needs ../shared/docs/reference beside the checkout)', () => {
  it.each(CASES.map((c) => [`${c.operation}: ${c.name} -> ${c.status}`, c] as const))('%s', async (_title, c) => {
    const emu = await testEmulator(c.options)
    const answer = await c.run(emu)
    expect(answer.status, JSON.stringify(answer.body)).toBe(c.status)
    expect(problemsOf(c, answer)).toEqual([])
  })

  it('covers every operation the emulator serves under /api/v1 and /router/v1, each with a success and a failure', async () => {
    const emu = await testEmulator()
    const doc = (await emu.get('/_emulator/api/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string }>> }
    const served = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/v1/') || path.startsWith('/router/v1/'))
      .flatMap(([, methods]) => Object.values(methods).map((op) => op.operationId))
    expect(served.length).toBeGreaterThan(30)
    for (const operation of served) {
      expect(REAL[operation], operation).toBeDefined()
      const statuses = CASES.filter((c) => c.operation === operation).map((c) => c.status)
      expect(
        statuses.some((s) => s >= 200 && s < 300),
        `${operation} has a success case`,
      ).toBe(true)
      expect(
        statuses.some((s) => s >= 400),
        `${operation} has a failure case`,
      ).toBe(true)
    }
  })

  it('serves every operation of the real document, each checked by a passing case here', () => {
    const checked = new Set(Object.values(REAL).flatMap((real) => ('gateway' in real ? [`${real.gateway[0]} ${real.gateway[1]}`] : [])))
    const operations = realOperations()
    expect(operations).toHaveLength(97)
    expect(operations.filter((operation) => !checked.has(operation))).toEqual([])
  })

  it('lists a reason for each deliberate difference, and only differences that occur', () => {
    for (const key of Object.keys(DELIBERATE)) {
      const [operation, status] = key.split(' ')
      expect(
        CASES.some((c) => c.operation === operation && String(c.status) === status),
        key,
      ).toBe(true)
    }
  })

  it("streams chunks the real document's ChatStreamChunk describes: text, tool calls, usage and an error chunk", async () => {
    const emu = await testEmulator()
    const chunksOf = async (body: Record<string, unknown>) => {
      const res = await emu.app.inject({
        method: 'POST',
        url: '/api/v1/chat/completions',
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
        payload: { model: CHAT_MODEL, messages: [{ role: 'user', content: 'hello' }], stream: true, ...body },
      })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/)
      return res.body
        .split('\n\n')
        .filter((event) => event.startsWith('data: {'))
        .map((event) => JSON.parse(event.slice(6)) as Record<string, unknown>)
    }
    const text = await chunksOf({ n: 2 })
    const tools = await chunksOf({
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { id: { type: 'integer' } } } } }],
      tool_choice: 'required',
    })
    const images = await chunksOf({ model: 'google/gemini-2.5-flash-image', modalities: ['image', 'text'] })
    expect(images.some((chunk) => (chunk.choices as Array<{ delta: Record<string, unknown> }>)[0]?.delta.images)).toBe(true)
    await emu.send('POST', '/_emulator/api/faults', { match: { operation: 'chat.create' }, action: { status: 502, stream: { after_chunks: 3 } } })
    const broken = await chunksOf({})
    expect(broken.at(-1)).toHaveProperty('error')
    for (const chunk of [...text, ...tools, ...broken, ...images]) expect(componentProblems('ChatStreamChunk', chunk), JSON.stringify(chunk)).toEqual([])
  })

  it("streams the events the real document's StreamEvents describes: text, reasoning, function calls, incomplete and a failure", async () => {
    const emu = await testEmulator()
    const eventsOf = async (body: Record<string, unknown>) => {
      const res = await emu.app.inject({
        method: 'POST',
        url: '/api/v1/responses',
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
        payload: { model: CHAT_MODEL, input: 'hello', stream: true, ...body },
      })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/)
      return res.body
        .split('\n\n')
        .map((event) => event.split('\n').find((line) => line.startsWith('data: {')))
        .filter((line) => line !== undefined)
        .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>)
    }
    const reasoning = await eventsOf({ model: 'openai/o4-mini', reasoning: { effort: 'low', summary: 'detailed' }, max_output_tokens: 60 })
    expect(reasoning.at(-1)!.type).toBe('response.incomplete')
    const tools = await eventsOf({
      tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: { id: { type: 'integer' } } } }],
      tool_choice: 'required',
    })
    await emu.send('POST', '/_emulator/api/faults', { match: { operation: 'responses.create' }, action: { status: 502, stream: { after_chunks: 5 } } })
    const broken = await eventsOf({})
    expect(broken.at(-1)!.type).toBe('response.failed')
    for (const event of [...reasoning, ...tools, ...broken]) expect(componentProblems('StreamEvents', event), JSON.stringify(event)).toEqual([])
  })

  it("streams the events the real document's MessagesStreamEvents describes: thinking, text, a tool call, an error event", async () => {
    const emu = await testEmulator()
    const eventsOf = async (body: Record<string, unknown>) => {
      const res = await emu.app.inject({
        method: 'POST',
        url: '/api/v1/messages',
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
        payload: { model: MESSAGES_MODEL, max_tokens: 256, messages: [{ role: 'user', content: 'hello' }], stream: true, ...body },
      })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/)
      return res.body
        .split('\n\n')
        .filter((block) => block.startsWith('event: '))
        .map((block) => {
          const [event, data] = block.split('\n') as [string, string]
          return { event: event.slice('event: '.length), data: JSON.parse(data.slice('data: '.length)) as Record<string, unknown> }
        })
    }
    const thought = await eventsOf({ thinking: { type: 'enabled', budget_tokens: 64 } })
    const tools = await eventsOf({
      tools: [{ name: 'lookup', input_schema: { type: 'object', properties: { id: { type: 'integer' } } } }],
      tool_choice: { type: 'any' },
    })
    await emu.send('POST', '/_emulator/api/faults', { match: { operation: 'messages.create' }, action: { status: 529, stream: { after_chunks: 3 } } })
    const broken = await eventsOf({})
    expect(broken.at(-1)!.event).toBe('error')
    for (const event of [...thought, ...tools, ...broken]) {
      expect(componentProblems('MessagesStreamingResponse', event), JSON.stringify(event)).toEqual([])
      expect(event.data.type).toBe(event.event)
    }
  })

  it("names providers and parameters only from the real document's enums", async () => {
    const emu = await testEmulator()
    const providers = new Set(realEnum('ProviderName'))
    const parameters = new Set(realEnum('Parameter'))
    const models = (await emu.get('/api/v1/models?output_modalities=all')).body.data as Array<{ id: string; supported_parameters: string[] }>
    for (const model of models) {
      for (const p of model.supported_parameters) expect(parameters.has(p), `${model.id}: ${p}`).toBe(true)
      const endpoints = (await emu.get(`/api/v1/models/${model.id}/endpoints`)).body.data.endpoints as Array<{ provider_name: string }>
      for (const e of endpoints) expect(providers.has(e.provider_name), `${model.id}: ${e.provider_name}`).toBe(true)
    }
    const zdr = (await emu.get('/api/v1/endpoints/zdr')).body.data as Array<{ provider_name: string }>
    for (const e of zdr) expect(providers.has(e.provider_name), e.provider_name).toBe(true)
  })
})
